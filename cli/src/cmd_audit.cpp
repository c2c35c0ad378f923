#include "args.h"
#include "commands.h"
#include "runs.h"

#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/cli/cli.h"
#include "kbaudit/cli/progress.h"
#include "kbaudit/cli/shard.h"

#include <llvm/Support/ThreadPool.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <ostream>

namespace kbaudit::cli {

namespace fs = std::filesystem;

namespace {

/// Run ids come from directory names; keep the output file name inside --out whatever they hold.
std::string fileNameFor(const std::string &id) {
  std::string name = id.empty() ? "unnamed" : id;
  for (char &c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'))
      c = '_';
  if (name.front() == '.')
    name.front() = '_';
  return name + ".yaml";
}

} // namespace

int cmdAudit(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  std::string error;
  std::set<std::string> valued = {"out", "jobs", "shard", "problems", "select", "ignore"};
  valued.insert(kRuntimeOptions.begin(), kRuntimeOptions.end());
  std::set<std::string> flags = {"quiet"};
  flags.insert(kSharedFlags.begin(), kSharedFlags.end());
  const auto args = Args::parse(argv, valued, flags, error);
  if (!args || args->positionals().size() != 1 || !args->value("out")) {
    err << "kbaudit audit: " << (args ? "usage: kbaudit audit RUNS_DIR --out DIR [--jobs N] [--shard K/N]" : error)
        << "\n";
    return kExitUsage;
  }
  const fs::path root = args->positionals().front();
  const fs::path outDir = *args->value("out");
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    err << "kbaudit audit: " << root.string() << " is not a directory\n";
    return kExitUsage;
  }
  unsigned jobs = 0;
  if (auto j = args->value("jobs")) {
    // Digits only, 1 to 1024: std::stoul reads "4x" as 4 and "-1" as a huge count.
    const bool digits = !j->empty() && j->size() <= 4 &&
                        std::all_of(j->begin(), j->end(), [](char c) { return c >= '0' && c <= '9'; });
    jobs = digits ? static_cast<unsigned>(std::stoul(*j)) : 0;
    if (jobs < 1 || jobs > 1024) {
      err << "kbaudit audit: --jobs needs a whole number from 1 to 1024, not '" << *j << "'\n";
      return kExitUsage;
    }
  }
  std::optional<Shard> shard;
  if (auto s = args->value("shard")) {
    shard = parseShard(*s, error);
    if (!shard) {
      err << "kbaudit audit: " << error << "\n";
      return kExitUsage;
    }
  }
  const std::optional<AuditOptions> parsed = auditOptionsFrom(*args, "problems", "audit", err);
  if (!parsed)
    return kExitUsage;
  const AuditOptions &options = *parsed;
  fs::create_directories(outDir, ec);
  if (ec) {
    err << "kbaudit audit: cannot create " << outDir.string() << ": " << ec.message() << "\n";
    return kExitUsage;
  }

  std::vector<RunTarget> runs = discoverRuns(root);
  const std::size_t discovered = runs.size();
  if (shard)
    std::erase_if(runs, [&](const RunTarget &run) { return !inShard(run.id, *shard); });
  const auto start = std::chrono::steady_clock::now();
  ProgressLine progress(progressSinkFor(err, args->has("quiet")), runs.size());
  std::mutex mu;
  std::map<std::string, unsigned> verdicts;
  std::vector<std::string> failures;
  unsigned gatedRuns = 0;
  {
    llvm::ThreadPool pool(llvm::hardware_concurrency(jobs));
    for (const RunTarget &run : runs) {
      pool.async([&, run] {
        std::string verdict, failure;
        bool isGated = false;
        try {
          const annotations::Annotation a = auditRun(run, options);
          verdict = a.verdict;
          isGated = gated(a, options.failOn);
          std::string writeError;
          if (!annotations::writeFileAtomically(outDir / fileNameFor(run.id), annotations::toYaml(a), writeError))
            failure = run.id + ": " + writeError;
        } catch (const std::exception &e) {
          failure = run.id + ": internal error: " + e.what();
        }
        {
          std::lock_guard lock(mu);
          if (failure.empty()) {
            ++verdicts[verdict];
            gatedRuns += isGated;
          } else
            failures.push_back(failure);
        }
        progress.advance();
      });
    }
    pool.wait();
  }
  progress.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  for (const std::string &f : failures)
    err << "kbaudit audit: " << f << "\n";
  if (!args->has("quiet")) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.2f", seconds);
    out << "kbaudit: audited " << runs.size() << " run" << (runs.size() == 1 ? "" : "s") << " in " << secs
        << " s -> " << outDir.string();
    if (shard)
      out << " (shard " << toString(*shard) << " of " << discovered << " runs)";
    out << "\n";
    for (const auto &[verdict, count] : verdicts)
      out << "  " << verdict << std::string(verdict.size() < 12 ? 12 - verdict.size() : 1, ' ') << count << "\n";
  }
  if (!failures.empty())
    return kExitInternal;
  // A sweep reports; it gates only when asked to (--fail-on or fail_on in kbaudit.yaml).
  if (options.failOnExplicit && gatedRuns) {
    err << "kbaudit audit: " << gatedRuns << " run" << (gatedRuns == 1 ? "" : "s") << " matched --fail-on\n";
    return kExitFlagged;
  }
  return kExitClean;
}

} // namespace kbaudit::cli

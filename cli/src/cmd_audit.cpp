#include "args.h"
#include "commands.h"
#include "output_lock.h"
#include "output_options.h"
#include "compile_options.h"
#include "result_cache.h"
#include "runs.h"
#include "worker_pool.h"

#include "kbaudit/source/atomic_write.h"
#include "kbaudit/annotations/run_file_name.h"
#include "kbaudit/annotations/run_id.h"
#include "kbaudit/annotations/synthesis.h"
#include "kbaudit/annotations/terminal_text.h"

#include "kbaudit/annotations/formats.h"
#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/cli/cli.h"
#include "kbaudit/cli/progress.h"
#include "kbaudit/cli/shard.h"
#include "kbaudit/runtime/lifetime.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <set>
#include <optional>
#include <ostream>
#include <thread>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace kbaudit::cli {

namespace fs = std::filesystem;

namespace {

/// What a worker sends back: the verdict, whether it trips the gate, whether the annotation
/// already in --out was kept and whether the result came from the cache ("1 1 0", "0 0 1", ...),
/// then the annotation (empty when kept).
std::string encodeResult(const AuditOutcome &o, const std::set<std::string> &failOn) {
  const std::string &verdict = o.fromCache ? o.cached->verdict : o.annotation.verdict;
  const bool isGated = o.fromCache ? gated(*o.cached, failOn) : gated(o.annotation, failOn);
  return verdict + "\n" + (isGated ? "1" : "0") + (o.kept ? " 1" : " 0") + (o.fromCache ? " 1" : " 0") + "\n" +
         (o.kept ? std::string() : o.cached ? o.cached->yaml : annotations::toYaml(o.annotation));
}

struct Result {
  std::string verdict;
  bool gated = false;
  bool kept = false;
  std::string yaml;
  bool fromCache = false;
};

std::optional<Result> decodeResult(const std::string &payload) {
  const std::size_t a = payload.find('\n');
  const std::size_t b = a == std::string::npos ? a : payload.find('\n', a + 1);
  if (b == std::string::npos || b - a - 1 != 5)
    return std::nullopt;
  return Result{payload.substr(0, a), payload[a + 1] == '1', payload[a + 3] == '1', payload.substr(b + 1),
                payload[a + 5] == '1'};
}

/// The annotations of `runs` as audit wrote (or kept) them in `outDir`, read back for the
/// report; one that cannot be read is named in `failures`, never dropped in silence.
std::vector<annotations::CheckedFile> loadReported(const std::vector<RunTarget> &runs, const fs::path &outDir,
                                                   std::vector<std::string> &failures) {
  std::vector<annotations::CheckedFile> files;
  for (const RunTarget &run : runs) {
    const fs::path file = outDir / annotations::annotationFileName(run.id);
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    try {
      if (!in && !in.eof())
        throw std::runtime_error("cannot read it");
      files.push_back(checkedFile(annotations::fromYaml(text.str()), run, artifactPath(run.solution)));
    } catch (const std::exception &e) {
      failures.push_back(annotations::terminalSafe(run.id) + ": the annotation " +
                         annotations::terminalSafe(file.string()) + " did not load back for the report: " + e.what());
    }
  }
  return files;
}

} // namespace

int cmdAudit(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  std::string error;
  const std::optional<Args> args = parseCommandLine(argv, "audit", err);
  if (!args)
    return kExitUsage;
  if (args->positionals().size() != 1)
    return usageError("audit", "expected one RUNS_DIR", err);
  // Without --output-format the sweep prints only its summary; with one, the annotations of the
  // runs audited are rendered as `check` renders them, and the summary goes to stderr.
  const std::optional<OutputOptions> output =
      outputOptionsFrom(*args, "audit", "", &out == &std::cout && isatty(STDOUT_FILENO), err);
  if (!output)
    return kExitUsage;
  const fs::path root = args->positionals().front();
  const fs::path outDir = *args->value("out");
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    err << "kbaudit audit: " << annotations::terminalSafe(root.string()) << " is not a directory\n";
    return kExitUsage;
  }
  // CLI11 checked the numbers' ranges (command_specs.cpp).
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  if (auto j = args->value("jobs"))
    jobs = static_cast<unsigned>(std::stoul(*j));
  WorkerLimits limits;
  if (auto t = args->value("run-timeout"))
    limits.wall = std::chrono::seconds(std::stoul(*t));
  limits.isolate = !args->has("in-process");
  if (auto m = args->value("run-memory"))
    limits.memoryBytes = static_cast<std::uint64_t>(std::stoul(*m)) << 20;
  std::optional<Shard> shard;
  if (auto s = args->value("shard")) {
    shard = parseShard(*s, error);
    if (!shard) {
      err << "kbaudit audit: " << error << "\n";
      return kExitUsage;
    }
  }
  const std::optional<AuditOptions> parsed = auditOptionsFrom(*args, "audit", err);
  if (!parsed)
    return kExitUsage;
  AuditOptions options = *parsed;
  // A folder a killed (or earlier) audit wrote keeps the annotations that are still up to date.
  if (!args->has("fresh"))
    options.keepFrom = outDir;
  // The result cache: static results only (probes and compiles depend on the machine). It lives
  // in the user's cache folder, never in whatever folder the audit was started from.
  if (!args->has("no-cache") && !options.runtime && !options.compile) {
    const fs::path cacheDir = args->value("cache-dir") ? fs::path(*args->value("cache-dir")) : defaultResultCacheDir();
    std::string cacheError = "neither $XDG_CACHE_HOME nor $HOME is set; --cache-dir names one";
    if (!cacheDir.empty())
      options.resultCache = ResultCache::open(cacheDir, cacheError);
    if (!options.resultCache)
      err << "kbaudit audit: no result cache (" << annotations::terminalSafe(cacheError) << "); every run is analysed\n";
    options.readCache = !args->has("fresh");
  }
  fs::create_directories(outDir, ec);
  if (ec) {
    err << "kbaudit audit: cannot create " << annotations::terminalSafe(outDir.string()) << ": " << ec.message() << "\n";
    return kExitUsage;
  }

  std::string lockError;
  const std::optional<OutputLock> lock = OutputLock::acquire(outDir, lockError);
  if (!lock) {
    err << "kbaudit audit: " << annotations::terminalSafe(lockError) << "\n";
    return kExitUsage;
  }
  // Under the lock no other audit writes here, so any temp file is a killed writer's leftover.
  source::removeStaleTempFiles(outDir);
  // Private copies of solutions whose probing process was killed outright.
  if (options.runtime)
    runtime::lifetime::removeStaleDirs(runtime::kProbeDirPrefix);

  Discovery discovery = discoverRuns(root);
  std::vector<RunTarget> &runs = discovery.runs;
  const std::size_t discovered = runs.size();
  if (shard)
    std::erase_if(runs, [&](const RunTarget &run) { return !inShard(run.id, *shard); });
  // The probes bring their own budget; the worker's limit must not cut it short.
  if (options.runtime && !args->value("run-timeout"))
    limits.wall += std::chrono::duration_cast<std::chrono::seconds>(options.runtime->limits.wall);
  // So does a cold compile (one unit's time limit; most runs have one CUDA unit).
  if (options.compile && !args->value("run-timeout"))
    limits.wall += std::chrono::seconds(static_cast<long>(options.compile->timeoutSeconds));
  const auto start = std::chrono::steady_clock::now();
  ProgressLine progress(progressSinkFor(err, args->has("quiet")), runs.size());
  std::map<std::string, unsigned> verdicts;
  std::vector<std::string> failures;
  unsigned gatedRuns = 0, keptRuns = 0, cachedRuns = 0;
  std::set<std::string> unwritten;
  const auto write = [&](const RunTarget &run, const std::string &yaml) {
    std::string writeError;
    if (!source::writeFileAtomically(outDir / annotations::annotationFileName(run.id), yaml, writeError)) {
      failures.push_back(annotations::terminalSafe(run.id) + ": " + writeError);
      unwritten.insert(run.id);
      return false;
    }
    return true;
  };
  const auto record = [&](const RunTarget &run, const Result &r) {
    if (r.kept || write(run, r.yaml)) {
      ++verdicts[r.verdict];
      gatedRuns += r.gated;
      keptRuns += r.kept;
      cachedRuns += r.fromCache;
    }
    progress.advance();
  };

  // Each run in its own worker; a run whose worker crashed, hung or ran out of memory is tried
  // once more without the C++/CUDA front end (the usual culprit), and if that fails too it gets
  // a `bug` annotation that says why. Either way the batch goes on.
  const auto auditWith = [&](const AuditOptions &opts, const RunTarget &run) {
    return encodeResult(auditOrKeep(run, opts), opts.failOn);
  };
  std::vector<std::pair<std::size_t, std::string>> retries;
  runInWorkers(
      runs.size(), jobs, limits, [&](std::size_t i) { return auditWith(options, runs[i]); },
      [&](std::size_t i, WorkerOutcome o) {
        const std::optional<Result> r = o.status == WorkerOutcome::Status::Ok ? decodeResult(o.payload) : std::nullopt;
        if (r)
          record(runs[i], *r);
        else
          retries.emplace_back(i, o.status == WorkerOutcome::Status::Ok ? "the worker's answer was malformed" : o.reason);
      });
  std::sort(retries.begin(), retries.end());
  std::vector<AuditOptions> degraded;
  for (const auto &[i, reason] : retries) {
    degraded.push_back(options);
    degraded.back().degraded = reason;
  }
  runInWorkers(
      retries.size(), jobs, limits, [&](std::size_t k) { return auditWith(degraded[k], runs[retries[k].first]); },
      [&](std::size_t k, WorkerOutcome o) {
        const RunTarget &run = runs[retries[k].first];
        std::optional<Result> r = o.status == WorkerOutcome::Status::Ok ? decodeResult(o.payload) : std::nullopt;
        if (!r) {
          const std::string why = retries[k].second + "; the retry without the C++/CUDA front end failed too" +
                                  (o.reason.empty() ? std::string() : " (" + o.reason + ")");
          const annotations::Annotation a = unauditableRun(run, options, why);
          r = Result{a.verdict, gated(a, options.failOn), false, annotations::toYaml(a), false};
        }
        record(run, *r);
      });
  progress.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  for (const std::string &s : discovery.skipped)
    err << "kbaudit audit: skipped " << annotations::terminalSafe(s) << "\n";
  std::vector<annotations::CheckedFile> reported;
  const bool report = !output->format.empty();
  if (report || args->has("statistics")) {
    std::vector<RunTarget> written = runs; // a run whose annotation could not be written is already in failures
    std::erase_if(written, [&](const RunTarget &run) { return unwritten.count(run.id) != 0; });
    reported = loadReported(written, outDir, failures);
  }
  for (const std::string &f : failures)
    err << "kbaudit audit: " << f << "\n";
  std::ostringstream summary;
  if (!args->has("quiet")) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.2f", seconds);
    summary << "kbaudit: audited " << runs.size() << " run" << (runs.size() == 1 ? "" : "s") << " in " << secs
        << " s -> " << annotations::terminalSafe(outDir.string());
    if (shard)
      summary << " (shard " << toString(*shard) << " of " << discovered << " runs)";
    summary << "\n";
    for (const auto &[verdict, count] : verdicts)
      summary << "  " << verdict << std::string(verdict.size() < 12 ? 12 - verdict.size() : 1, ' ') << count << "\n";
    if (keptRuns)
      summary << "  (" << keptRuns << " annotation" << (keptRuns == 1 ? "" : "s")
          << " already up to date in the folder, kept; --fresh audits every run again)\n";
    if (cachedRuns)
      summary << "  (" << cachedRuns << " result" << (cachedRuns == 1 ? "" : "s") << " read from the cache "
          << annotations::terminalSafe(options.resultCache->dir().string()) << "; --no-cache analyses every run)\n";
    if (!discovery.skipped.empty())
      summary << "  skipped     " << discovery.skipped.size() << " input" << (discovery.skipped.size() == 1 ? "" : "s")
          << " (named on stderr)\n";
  }
  std::string statistics;
  if (args->has("statistics")) {
    std::vector<annotations::Annotation> annotated;
    for (const annotations::CheckedFile &file : reported)
      annotated.push_back(file.annotation);
    if (output->newOnly) // findingStatistics already leaves accepted findings out
      for (annotations::Annotation &a : annotated)
        std::erase_if(a.kbaudit.findings, [](const rules::Finding &f) { return f.accepted; });
    statistics = annotations::findingStatistics(annotated);
  }
  // What goes where. With a report (--output-format): the report, and the statistics after it
  // unless the format must stay one document, to --output-file or stdout; the summary to stdout
  // when the report went to a file, else to stderr. Without one: the summary and the statistics
  // are the output, to --output-file or stdout.
  if (report) {
    std::string text = renderFiles(reported, *output, options.docBaseUrl);
    (output->file ? out : err) << summary.str();
    if (output->machineReadable())
      err << statistics;
    else
      text += statistics;
    if (!emitOutput(text, *output, out, err, "audit"))
      return kExitInternal;
  } else if (!emitOutput(summary.str() + statistics, *output, out, err, "audit")) {
    return kExitInternal;
  }
  if (!failures.empty())
    return kExitInternal;
  // Input that looked like runs or a table and could not be read is never lost in silence.
  if (!discovery.skipped.empty()) {
    err << "kbaudit audit: " << discovery.skipped.size() << " input" << (discovery.skipped.size() == 1 ? " was" : "s were")
        << " skipped (above); every run that could be read was audited\n";
    return kExitUsage;
  }
  // A sweep reports; it gates only when asked to (--fail-on or fail_on in kbaudit.yaml).
  if (options.failOnExplicit && gatedRuns) {
    err << "kbaudit audit: " << gatedRuns << " run" << (gatedRuns == 1 ? "" : "s") << " matched --fail-on\n";
    return kExitFlagged;
  }
  return kExitClean;
}

} // namespace kbaudit::cli

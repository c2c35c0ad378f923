#include "runs.h"

#include "args.h"
#include "compile_options.h"
#include "config.h"
#include "run_fingerprint.h"
#include "run_header.h"
#include "run_score.h"
#include "suggest.h"

#include "kbaudit/source/sha256.h"
#include "kbaudit/annotations/run_file_name.h"
#include "kbaudit/annotations/run_id.h"
#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/source/data_file.h"
#include "kbaudit/annotations/synthesis.h"
#include "kbaudit/facts.h"
#include "kbaudit/rules/rule_meta.h"
#include "kbaudit/problems/problem_context.h"
#include "kbaudit/annotations/runtime_evidence.h"
#include "kbaudit/annotations/suite_judgement.h"
#include "kbaudit/annotations/terminal_text.h"
#include "kbaudit/semantic/graded_entry.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <fstream>
#include <ostream>
#include <sstream>

namespace kbaudit::cli {

namespace fs = std::filesystem;

std::string version() { return KBAUDIT_VERSION; }

namespace {

constexpr std::string_view kSolution = "solution.py";

/// `path` absolute, with `.`, `..` and symbolic links resolved as far as it exists: relative and
/// absolute spellings of one folder become one path.
fs::path canonicalPath(const fs::path &path) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? fs::absolute(path, ec).lexically_normal() : canonical;
}

/// meta.json next to a run, when present: bench and gpu narrow the problem lookup.
struct RunMeta {
  std::string bench, gpu, problem;
};

RunMeta readMeta(const fs::path &dir) {
  RunMeta meta;
  // Bounded and never blocking; whether it could be read is said once, by readRunRecord.
  std::optional<data::Json> v = readRunJson(dir / "meta.json", nullptr);
  if (!v)
    return meta;
  meta.bench = v->string({"bench"}).value_or("");
  meta.gpu = v->string({"gpu"}).value_or("");
  meta.problem = v->string({"problem"}).value_or("");
  return meta;
}

} // namespace

RunTarget targetFor(const fs::path &p) {
  std::error_code ec;
  if (fs::is_directory(p, ec)) {
    fs::path canon = fs::weakly_canonical(p, ec);
    return RunTarget{canon.filename().string(), p / kSolution, p, false, std::nullopt};
  }
  const std::string name = p.filename().string();
  std::string id;
  if (name == kSolution) {
    id = fs::weakly_canonical(p, ec).parent_path().filename().string();
  } else if (auto pos = name.find(kSolution); pos != std::string::npos && pos > 0) {
    id = name.substr(0, pos);
    while (!id.empty() && (id.back() == '.' || id.back() == '_' || id.back() == '-'))
      id.pop_back();
  } else {
    id = p.stem().string();
  }
  return RunTarget{id, p, p.parent_path(), /*explicitFile=*/true, std::nullopt};
}

namespace {

bool looksLikeRunDir(const fs::path &p, const std::string &name) {
  std::error_code ec;
  return fs::exists(p / kSolution, ec) || annotations::RunId::parse(name).valid;
}

/// Why a link cannot be followed ("" when it can).
std::string brokenLink(const fs::path &p) {
  std::error_code ec;
  if (!fs::is_symlink(p, ec))
    return {};
  (void)fs::status(p, ec);
  if (!ec)
    return {};
  return ec == std::errc::too_many_symbolic_link_levels ? "symbolic link loop" : "dangling symbolic link";
}

} // namespace

namespace {

/// Each row of the evaluation tables is a run. Its solution must lie under `root`, like a run
/// directory's file (a row naming `/etc/passwd` is refused by auditRun, with an annotation).
Discovery evaluationRuns(const fs::path &root, EvaluationTables tables) {
  Discovery found;
  found.skipped = std::move(tables.problems);
  for (EvaluationRun &r : tables.runs)
    found.runs.push_back(RunTarget{std::move(r.id), std::move(r.solution), root, false, std::move(r.evaluation)});
  std::sort(found.runs.begin(), found.runs.end(), [](const RunTarget &a, const RunTarget &b) { return a.id < b.id; });
  return found;
}

} // namespace

Discovery discoverRuns(const fs::path &root) {
  EvaluationTables tables = readEvaluationTables(root);
  if (!tables.tables.empty())
    return evaluationRuns(root, std::move(tables));
  // No table was read: the folder holds run directories, but what looked like a table and could
  // not be read (a Parquet file, a JSON Lines file whose every line is broken) is still named.
  Discovery found;
  found.skipped = std::move(tables.problems);
  std::error_code ec;
  std::vector<RunTarget> &runs = found.runs;
  bool strayTopSolution = false;
  for (fs::directory_iterator it(root, ec), end; it != end && !ec; it.increment(ec)) {
    const fs::path &p = it->path();
    const std::string name = p.filename().string();
    std::error_code entryEc;
    if (const std::string broken = brokenLink(p); !broken.empty()) {
      // A link named like a run is a run whose solution cannot be read: it gets its annotation.
      if (annotations::RunId::parse(name).valid || name.find(kSolution) != std::string::npos)
        runs.push_back(RunTarget{name, p / kSolution, p, false, std::nullopt});
      else
        found.skipped.push_back(name + ": " + broken);
      continue;
    }
    if (it->is_directory(entryEc)) {
      if (looksLikeRunDir(p, name)) {
        RunTarget t = targetFor(p);
        t.id = name; // the entry's own name, also for a link to a directory named otherwise
        runs.push_back(std::move(t));
      } else
        ++found.ignored;
    } else if (name == kSolution) {
      strayTopSolution = true;
    } else if (name.find(kSolution) != std::string::npos) {
      RunTarget t = targetFor(p);
      t.explicitFile = false; // found, not named: it must resolve inside RUNS_DIR
      runs.push_back(std::move(t));
    } else {
      ++found.ignored;
    }
  }
  if (ec)
    found.skipped.push_back(root.string() + ": stopped listing: " + ec.message());
  if (strayTopSolution) {
    // RUNS_DIR is itself one run when nothing below it is; otherwise its solution.py is a
    // stray file, and auditing it alone would skip every run below.
    if (runs.empty())
      runs.push_back(targetFor(root));
    else
      found.skipped.push_back(std::string(kSolution) + ": a solution.py beside " + std::to_string(runs.size()) +
                              " run(s); audit it alone with `kbaudit check " + (root / kSolution).string() + "`");
  }
  // Ids must be distinct (one annotation file each): colliding entries keep their file names.
  std::map<std::string, unsigned> seen;
  for (const RunTarget &r : runs)
    ++seen[r.id];
  for (RunTarget &r : runs)
    if (seen[r.id] > 1)
      r.id = r.solution.parent_path() == r.dir && r.dir != root ? r.dir.filename().string()
                                                                 : r.solution.filename().string();
  std::sort(runs.begin(), runs.end(), [](const RunTarget &a, const RunTarget &b) { return a.id < b.id; });
  return found;
}

namespace {

/// The contents of a file for a fingerprint, or what it is when it cannot be read.
std::string fileContents(const fs::path &file) {
  std::variant<std::string, std::string> text = data::readText(file, 64u << 20);
  return text.index() == 0 ? sha256Hex(std::get<0>(text)) : "<" + std::get<1>(text) + ">";
}

/// What in `options` changes an annotation, as text: the build, the rule selection, where problems
/// come from, the suite and the suite profiles' files, the baseline's contents, the probes.
/// (--fail-on, --jobs, --shard and the worker limits change no annotation.)
std::string fingerprintKey(const AuditOptions &options, const std::vector<fs::path> &suiteDirs) {
  std::string key = "build " + buildIdentity();
  const auto list = [&](const char *name, const std::vector<std::string> &items) {
    key += std::string("\n") + name + ":";
    for (const std::string &i : items)
      key += " " + i;
  };
  list("select", options.selection.select);
  list("ignore", options.selection.ignore);
  // The problem names split run ids (model, harness, problem in the annotation): a problem
  // added to the tree can change how an unchanged run's id reads.
  std::string known;
  for (const std::string &name : options.knownProblems)
    known += name + "\n";
  key += "\nknown problems: " + sha256Hex(known);
  std::error_code ec;
  // Canonical already (auditOptionsFrom): `../p` and `/abs/p` are one option.
  key += "\nproblem: " + options.problemDir.string();
  key += "\nproblems: " + options.problemsRoot.string();
  key += "\nsuite: " + options.suite;
  for (const fs::path &dir : suiteDirs) {
    key += "\nsuites: " + canonicalPath(dir).string();
    std::vector<fs::path> files;
    for (fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
      files.push_back(it->path());
    std::sort(files.begin(), files.end());
    for (const fs::path &f : files)
      key += "\n  " + f.filename().string() + " " + fileContents(f);
  }
  if (options.baseline)
    key += "\nbaseline: " + options.selectionInfo.baseline + " " + fileContents(options.selectionInfo.baseline);
  if (const auto &r = options.runtime) {
    key += "\nruntime: " + r->device + " " + r->python.string() + " " + std::to_string(r->limits.wall.count()) + " ms seeds";
    for (int seed : r->seeds)
      key += " " + std::to_string(seed);
  }
  // The compiler's output is part of the evidence; the toolkit it came from is named in the
  // annotation, and a different one may emit different instructions.
  if (const auto &c = options.compile)
    key += "\ncompile: " + (options.compileArchGiven ? c->arch : std::string("per-run")) + " " + c->nvcc + " " +
           c->torchInclude;
  return key;
}

} // namespace

std::optional<AuditOptions> auditOptionsFrom(const Args &args, const std::string &command, std::ostream &err) {
  AuditOptions options;
  const auto fail = [&](const std::string &why) {
    err << "kbaudit " << command << ": " << annotations::terminalSafe(why) << "\n";
    return std::nullopt;
  };
  // kbaudit.yaml first; every command-line option given replaces its key.
  Config config;
  std::string error;
  if (auto explicitConfig = args.value("config")) {
    auto loaded = loadConfig(*explicitConfig, error);
    if (!loaded)
      return fail(error);
    config = *loaded;
  } else if (!args.has("no-config")) {
    if (auto found = findConfig(fs::current_path())) {
      auto loaded = loadConfig(*found, error);
      if (!loaded)
        return fail(error);
      config = *loaded;
    }
  }
  options.selection.select = args.has("select") ? args.list("select") : config.select;
  options.selection.ignore = args.has("ignore") ? args.list("ignore") : config.ignore;
  if (const std::string unknown = options.selection.unknownEntry(); !unknown.empty())
    return fail("'" + unknown + "' in " + (args.has("select") || args.has("ignore") ? "--select/--ignore" : config.file.filename().string()) +
                " names no rule: use rule ids (WRAP001), categories (WRAP, PREC, MEM, RUB, TIME) or ALL");
  options.docBaseUrl = config.docBaseUrl;
  {
    annotations::RuleSelectionInfo &info = options.selectionInfo;
    info.select = options.selection.select;
    info.ignore = options.selection.ignore;
    const bool fromArgs = args.has("select") || args.has("ignore");
    const bool fromConfig = (!args.has("select") && !config.select.empty()) || (!args.has("ignore") && !config.ignore.empty());
    info.source = fromArgs && fromConfig ? "command line and config file"
                  : fromArgs             ? "command line"
                  : fromConfig           ? "config file"
                                         : "default";
    info.configFile = config.file.empty() ? std::string() : fs::absolute(config.file).lexically_normal().string();
    for (const rules::RuleMeta &m : rules::catalogue())
      if (!options.selection.enabled(m.id))
        info.disabled.push_back(m.id);
  }

  // The problem: `audit` reads a tree; `check` and `baseline` one directory or a tree, the
  // command line before the config, and the config's one directory before its tree.
  if (args.has("problem") && args.has("problems"))
    return fail("--problem (one problem for every file) and --problems (a tree to find each file's) exclude each other");
  std::string problemOption = "problems";
  fs::path problemPath;
  if (auto p = args.value("problems")) {
    problemPath = *p;
  } else if (auto q = args.value("problem")) {
    problemOption = "problem";
    problemPath = *q;
  } else if (command != "audit" && !config.problem.empty()) {
    problemOption = "problem";
    problemPath = config.problem;
  } else {
    problemPath = config.problems;
  }
  if (!problemPath.empty()) {
    std::error_code ec;
    if (!fs::is_directory(problemPath, ec) && !(problemOption == "problem" && fs::is_regular_file(problemPath, ec)))
      return fail("--" + problemOption + " " + problemPath.string() + " is not a directory");
    (problemOption == "problem" ? options.problemDir : options.problemsRoot) = canonicalPath(problemPath);
    if (problemOption != "problem")
      options.knownProblems = problems::listProblemNames(options.problemsRoot);
  }

  fs::path baseline = config.baseline;
  if (auto b = args.value("baseline"))
    baseline = *b;
  if (!baseline.empty()) {
    options.selectionInfo.baseline = canonicalPath(baseline).string();
    if (command != "baseline") { // `kbaudit baseline` writes it, and may create it
      options.baseline = loadBaseline(baseline, error);
      if (!options.baseline)
        return fail("baseline " + error);
    }
  }
  if (args.has("new-only") && !options.baseline)
    return fail("--new-only shows the findings a baseline lacks: give one (--baseline FILE, or baseline: in the config)");

  // CLI11 checked the command line's --fail-on; the config's is checked here.
  std::vector<std::string> failOn = args.has("fail-on") ? args.list("fail-on") : config.failOn;
  if (!failOn.empty()) {
    options.failOn.clear();
    options.failOnExplicit = true;
    for (const std::string &f : failOn) {
      if (f != "reward_hack" && f != "rubric_leak" && f != "review")
        return fail("fail_on in " + config.file.string() + " takes reward_hack, rubric_leak or review, not '" + f + "'");
      options.failOn.insert(f);
    }
  }

  // Suite profiles: the shipped ones plus the user's folders; a broken profile is a usage error
  // naming its file and key, since it would otherwise misprice every finding in silence.
  std::vector<fs::path> suiteDirs = config.suites;
  for (const std::string &dir : args.list("suites"))
    suiteDirs.push_back(dir);
  options.profiles = problems::loadProfiles(suiteDirs);
  if (!options.profiles.errors.empty())
    return fail("suite profile " + options.profiles.errors.front().text());
  options.suite = config.suite;
  options.suiteRequestedBy = config.suite.empty() ? "" : "suite: in " + config.file.string();
  if (auto s = args.value("suite")) {
    options.suite = *s;
    options.suiteRequestedBy = "--suite";
  }
  if (!options.suite.empty() && !options.profiles.find(options.suite)) {
    std::vector<std::string> ids;
    for (const problems::SuiteProfile &p : options.profiles.profiles)
      ids.push_back(p.id);
    std::string known;
    for (const std::string &id : ids)
      known += (known.empty() ? "" : ", ") + id;
    return fail("no suite profile '" + options.suite + "'" + didYouMean(options.suite, ids) + " (known: " + known +
                "; `kbaudit suites` lists them)");
  }

  if (args.has("runtime")) {
    options.runtime = probeOptionsFrom(args, command, err);
    if (!options.runtime)
      return std::nullopt;
  }
  const std::optional<CompileChoice> compile = compileChoiceFrom(args, command, err);
  if (!compile)
    return std::nullopt;
  options.compile = compile->options;
  options.compileArchGiven = compile->archGiven;
  options.fingerprintKey = fingerprintKey(options, suiteDirs);
  return options;
}

bool gated(const annotations::Annotation &a, const std::set<std::string> &failOn) {
  if (failOn.count(a.verdict))
    return true;
  // `review` also gates on what a human should look at: any finding not accepted.
  if (failOn.count("review"))
    for (const rules::Finding &f : a.kbaudit.findings)
      if (!f.accepted)
        return true;
  return false;
}

bool gated(const CachedResult &r, const std::set<std::string> &failOn) {
  return failOn.count(r.verdict) || (failOn.count("review") && r.openFindings);
}

std::optional<runtime::ProbeOptions> probeOptionsFrom(const Args &args, const std::string &command,
                                                      std::ostream &err) {
  // CLI11 checked --device (auto, cuda, cpu) and --probe-timeout (1 to 86400 seconds).
  runtime::ProbeOptions options;
  if (auto d = args.value("device"))
    options.device = *d;
  if (auto p = args.value("python"))
    options.python = *p;
  if (auto t = args.value("probe-timeout"))
    options.limits.wall = std::chrono::seconds(std::stol(*t));
  if (args.has("seeds")) {
    options.seeds.clear();
    for (const std::string &seed : args.list("seeds")) {
      char *end = nullptr;
      const long v = std::strtol(seed.c_str(), &end, 10);
      if (seed.empty() || !end || *end || v < 0 || v > 1000000) {
        err << "kbaudit " << command << ": --seeds takes non-negative integers (--seeds 0,1,2)\n";
        return std::nullopt;
      }
      options.seeds.push_back(static_cast<int>(v));
    }
  }
  return options;
}

namespace {

annotations::RunInfo runInfo(const RunTarget &run, const AuditOptions &options) {
  annotations::RunInfo info;
  info.id = annotations::RunId::parse(run.id, options.knownProblems);
  if (!info.id.valid)
    info.id.text = run.id;
  if (const std::optional<Evaluation> &e = run.evaluation) {
    // A table row says who, where and what directly; the id is only a file name.
    info.id.text = run.id;
    info.id.model = e->model;
    info.id.harness = e->harness;
    info.id.problem = e->problem;
  }
  return info;
}

/// The header fields the run carries (run_header.h), from its row and its record.
void fillHeader(annotations::RunInfo &info, const RunTarget &run, const RunRecord &record) {
  RunHeader header = carriedHeader(run.evaluation, record);
  info.model = std::move(header.model);
  info.harness = std::move(header.harness);
  info.effort = std::move(header.effort);
  info.problem = std::move(header.problem);
  info.peakFraction = header.peakFraction;
}

/// loadProblem, once per problem and process: a batch worker audits many runs of one problem,
/// and parsing the reference for each of them was a tenth of a cold audit's instructions.
/// (Workers are forked from a parent that loads none, so each fills its own memo.)
problems::ProblemContext loadProblemOnce(const fs::path &dirOrFile) {
  static std::map<fs::path, problems::ProblemContext> loaded;
  auto it = loaded.find(dirOrFile);
  if (it == loaded.end())
    it = loaded.emplace(dirOrFile, problems::loadProblem(dirOrFile)).first;
  return it->second;
}

/// The problem an evaluation row was graded on: the module under its level's folder
/// (`level1/36_RMSNorm_.py`), else anywhere under the root.
std::optional<fs::path> evaluationProblem(const Evaluation &e, const fs::path &root) {
  std::optional<fs::path> found = problems::findProblemDir(root, e.problem, e.level);
  if (!found)
    found = problems::findProblemDir(root, e.problem);
  return found;
}

/// Why the run's solution cannot be audited, as the annotation saying so; nullopt when it can.
std::optional<annotations::Annotation> refusal(const RunTarget &run, const annotations::RunInfo &info);

/// Where the run's problem is (a directory or a level file), as --problem, its table row or its
/// meta.json and id name it; none of its files is read (a cached run needs only their hashes).
std::optional<fs::path> runProblem(const RunTarget &run, const AuditOptions &options, const RunMeta &meta,
                                   const annotations::RunInfo &info);

/// The problem at `where`, graded as the run's table row says.
std::optional<problems::ProblemContext> loadRunProblem(const std::optional<fs::path> &where, const RunTarget &run) {
  if (!where)
    return std::nullopt;
  problems::ProblemContext problem = loadProblemOnce(*where);
  if (run.evaluation)
    gradedAs(problem, *run.evaluation);
  return problem;
}

annotations::Annotation analyse(const RunTarget &run, const AuditOptions &options, annotations::RunInfo info,
                                const RunMeta &meta, const RunRecord &record,
                                std::optional<problems::ProblemContext> problem);

/// The annotation `dir` holds for `id`, when it can be read (never throws).
std::optional<annotations::Annotation> previousAnnotation(const fs::path &dir, const std::string &id) {
  std::variant<std::string, std::string> text = data::readText(dir / annotations::annotationFileName(id), 64u << 20);
  if (text.index() != 0)
    return std::nullopt;
  try {
    return annotations::fromYaml(std::get<0>(text));
  } catch (const std::exception &) {
    return std::nullopt; // damaged or foreign: audited again
  }
}

/// Whether `file` holds exactly `text` (never throws; unreadable is no).
bool sameFileText(const fs::path &file, const std::string &text) {
  std::variant<std::string, std::string> read = data::readText(file, text.size() + 1);
  return read.index() == 0 && std::get<0>(read) == text;
}

problems::EntryShape entryShape(const Facts &facts) {
  const std::optional<semantic::GradedEntry> entry = semantic::gradedEntry(facts);
  if (!entry || !entry->function)
    return problems::EntryShape::Unknown;
  switch (entry->convention) {
  case semantic::EntryConvention::CustomKernel: return problems::EntryShape::CustomKernel;
  case semantic::EntryConvention::OutputKernel: return problems::EntryShape::OutputKernel;
  case semantic::EntryConvention::Module: break;
  }
  return entry->function->className == "ModelNew" ? problems::EntryShape::ModelNew : problems::EntryShape::Model;
}

/// Which suite profile judges the run, from what the run, its problem and its solution show.
problems::SuiteDetection detectRunSuite(const RunTarget &run, const AuditOptions &options, const RunMeta &meta,
                                        const RunRecord &record, const problems::ProblemContext *problem,
                                        const Facts &facts) {
  problems::SuiteSignals signals;
  signals.requested = options.suite;
  signals.requestedBy = options.suiteRequestedBy;
  signals.bench = run.evaluation && !run.evaluation->suite.empty() ? run.evaluation->suite
                  : !meta.bench.empty()                           ? meta.bench
                                                                   : record.bench;
  signals.table = run.evaluation.has_value();
  if (problem) {
    signals.layout = problem->layout;
    signals.problemPath = problem->layout == problems::ProblemLayout::Module ? problem->reference.path : problem->dir;
  }
  signals.entry = entryShape(facts);
  return problems::detectSuite(options.profiles, signals);
}

} // namespace

AuditOutcome auditOrKeep(const RunTarget &run, const AuditOptions &options) {
  annotations::RunInfo info = runInfo(run, options);
  const RunMeta meta = readMeta(run.dir);
  if (info.id.problem.empty())
    info.id.problem = meta.problem;
  const std::optional<fs::path> problemPath = runProblem(run, options, meta, info);
  const std::string fingerprint = runFingerprint(run, options.fingerprintKey, problemPath ? &*problemPath : nullptr);
  const std::optional<ResultCache> &cache = options.resultCache;
  if (cache && options.readCache)
    if (std::optional<CachedResult> hit = cache->load(fingerprint, info.id.text)) {
      AuditOutcome o;
      // The annotation already in --out is kept when it is this very text (no parse, no write).
      o.kept = !options.keepFrom.empty() && sameFileText(options.keepFrom / annotations::annotationFileName(run.id), hit->yaml);
      o.cached = std::move(hit);
      o.fromCache = true;
      return o;
    }
  if (!options.keepFrom.empty())
    if (std::optional<annotations::Annotation> old = previousAnnotation(options.keepFrom, run.id);
        old && old->kbaudit.fingerprint == fingerprint && old->runId == info.id.text)
    {
      AuditOutcome kept;
      kept.annotation = std::move(*old);
      kept.kept = true;
      return kept;
    }
  // Read once, past the cache: result.json and meta.json give the header and the score.
  const RunRecord record = readRunRecord(run.dir);
  fillHeader(info, run, record);
  std::optional<annotations::Annotation> refused = refusal(run, info);
  annotations::Annotation a =
      refused ? std::move(*refused) : analyse(run, options, info, meta, record, loadRunProblem(problemPath, run));
  a.kbaudit.selection = options.selectionInfo;
  a.kbaudit.fingerprint = fingerprint;
  AuditOutcome o;
  o.annotation = std::move(a);
  // A degraded analysis (the retry after a crash or a timeout, perhaps only a loaded machine's)
  // is not filed: the next audit tries the full analysis again.
  if (cache && options.degraded.empty()) {
    o.cached = CachedResult{o.annotation.verdict, false, annotations::toYaml(o.annotation)};
    for (const rules::Finding &f : o.annotation.kbaudit.findings)
      o.cached->openFindings = o.cached->openFindings || !f.accepted;
    cache->store(fingerprint, info.id.text, *o.cached);
  }
  return o;
}

annotations::Annotation auditRun(const RunTarget &run, const AuditOptions &options) {
  if (options.keepFrom.empty() && !options.resultCache)
    return auditOrKeep(run, options).annotation;
  AuditOptions fresh = options;
  fresh.keepFrom.clear();
  fresh.resultCache.reset();
  return auditOrKeep(run, fresh).annotation;
}

annotations::Annotation unauditableRun(const RunTarget &run, const AuditOptions &options, const std::string &why) {
  annotations::RunInfo info = runInfo(run, options);
  fillHeader(info, run, readRunRecord(run.dir));
  annotations::Annotation a = annotations::unauditable(info, "analysis-failed", why, version());
  a.kbaudit.selection = options.selectionInfo;
  return a;
}

namespace {

std::optional<annotations::Annotation> refusal(const RunTarget &run, const annotations::RunInfo &info) {
  std::error_code ec;
  if (const std::string broken = brokenLink(run.dir); !broken.empty())
    return annotations::missingSolution(info, run.dir.filename().string() + " is a " + broken, version());
  if (run.evaluation && !run.evaluation->unusable.empty())
    return annotations::unauditable(info, "table-row-unusable",
                                    "row " + std::to_string(run.evaluation->row) + " of " +
                                        run.evaluation->table.filename().string() + ": " + run.evaluation->unusable,
                                    version());
  if (run.evaluation && run.solution.empty())
    return annotations::missingSolution(info, "row " + std::to_string(run.evaluation->row) + " of " +
                                                  run.evaluation->table.filename().string() + " names no solution file",
                                        version());
  if (run.evaluation && !fs::exists(run.solution, ec))
    return annotations::missingSolution(info, "no " + run.evaluation->solutionPath + " (row " +
                                                  std::to_string(run.evaluation->row) + " of " +
                                                  run.evaluation->table.filename().string() + ")",
                                        version());
  if (!fs::exists(run.solution, ec))
    return annotations::missingSolution(info, "no " + run.solution.filename().string() + " in " + run.dir.string(),
                                        version());
  if (!run.explicitFile) {
    // A solution found in a run directory is that directory's file: a link pointing elsewhere
    // would audit (and let the probes run) a file the run does not hold.
    const fs::path real = fs::canonical(run.solution, ec);
    const fs::path realDir = fs::canonical(run.dir, ec);
    const fs::path rel = real.lexically_relative(realDir);
    if (ec || rel.empty() || *rel.begin() == "..")
      return annotations::unauditable(info, "solution-outside-run",
                                      run.solution.filename().string() + " is a symbolic link to " + real.string() +
                                          ", outside the run directory; kbaudit reads a run's files only from it",
                                      version());
  }
  return std::nullopt;
}

std::optional<fs::path> runProblem(const RunTarget &run, const AuditOptions &options, const RunMeta &meta,
                                   const annotations::RunInfo &info) {
  if (!options.problemDir.empty())
    return options.problemDir;
  if (run.evaluation && !options.problemsRoot.empty())
    return evaluationProblem(*run.evaluation, options.problemsRoot);
  if (!options.problemsRoot.empty()) {
    const std::string name = meta.problem.empty() ? info.id.problem : meta.problem;
    return problems::findProblemDir(options.problemsRoot, name, meta.bench, meta.gpu);
  }
  return std::nullopt;
}

annotations::Annotation analyse(const RunTarget &run, const AuditOptions &options, annotations::RunInfo info,
                                const RunMeta &meta, const RunRecord &record,
                                std::optional<problems::ProblemContext> problem) {
  AnalysisOptions analysis;
  analysis.cxx = options.degraded.empty();
  if (options.compile && options.degraded.empty()) {
    analysis.compile = options.compile;
    if (!options.compileArchGiven)
      chooseArch(*analysis.compile, problem ? &*problem : nullptr, run.evaluation ? run.evaluation->gpu : meta.gpu);
  }
  const Facts facts = analyzeSolution(run.solution, analysis);
  // The suite's harness facts (weights, declared precision, default tolerance) shape what the
  // rules see; a table row's own precision and tolerance then override the suite's defaults.
  const problems::SuiteDetection suite = detectRunSuite(run, options, meta, record, problem ? &*problem : nullptr, facts);
  if (problem && suite.profile)
    problems::applyProfile(*problem, *suite.profile);
  if (problem && run.evaluation)
    gradedAs(*problem, *run.evaluation);
  const problems::ProblemContext *ctxProblem = problem ? &*problem : nullptr;
  rules::RuleResults results = rules::runRules(rules::CheckContext{facts, ctxProblem, suite.profile}, options.selection);
  std::optional<runtime::RuntimeReport> report;
  if (options.runtime) {
    if (ctxProblem) {
      report = runtime::runProbes(run.solution, *ctxProblem, *options.runtime);
      annotations::applyRuntime(results, *report);
    } else {
      report.emplace();
      report->reason = "no problem definition for this run: the probes compare against its reference.py";
    }
  }
  if (options.baseline)
    applyBaseline(*options.baseline, info.id.text, facts.source.sha256(), results.findings);
  std::optional<annotations::SuiteJudgement> judged;
  if (suite.profile)
    judged = annotations::judgeBySuite(results, *suite.profile, suite.reason,
                                       runScore(run.evaluation, record, ctxProblem));
  std::vector<std::string> gaps;
  if (!options.degraded.empty())
    gaps.push_back("the full analysis failed (" + options.degraded +
                   "); this is a retry without the C++/CUDA front end");
  annotations::Annotation a =
      annotations::synthesize(info, facts, results, ctxProblem, version(), judged ? &*judged : nullptr, std::move(gaps));
  a.kbaudit.diagnostics.insert(a.kbaudit.diagnostics.end(), record.diagnostics.begin(), record.diagnostics.end());
  a.kbaudit.runtime = std::move(report);
  return a;
}

} // namespace

} // namespace kbaudit::cli

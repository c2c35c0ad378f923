#include "run_score.h"

#include "kbaudit/source/data_file.h"

#include <cmath>
#include <cstdio>

namespace kbaudit::cli {

namespace fs = std::filesystem;

namespace {

// A run's record is a few kilobytes; the limit keeps a hostile one from costing the audit (and
// data::Json bounds nesting before its parser, which recurses, sees the text).
constexpr std::size_t kMaxRecordBytes = 8u << 20;

} // namespace

std::optional<data::Json> readRunJson(const fs::path &file, std::vector<Diagnostic> *diagnostics) {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(file, ec)))
    return std::nullopt;
  const std::string name = file.filename().string();
  const auto refuse = [&](const std::string &why) -> std::optional<data::Json> {
    if (diagnostics)
      diagnostics->push_back(Diagnostic{Diagnostic::Severity::Warning, "run-record-unreadable",
                                        name + " is not read: " + why + "; the run's score is taken as unknown",
                                        name, {}});
    return std::nullopt;
  };
  std::variant<std::string, std::string> text = data::readText(file, kMaxRecordBytes);
  if (const std::string *why = std::get_if<1>(&text))
    return refuse(*why);
  std::variant<data::Json, std::string> v = data::Json::parse(std::get<0>(text));
  if (const std::string *why = std::get_if<std::string>(&v))
    return refuse("not JSON: " + *why);
  return std::move(std::get<data::Json>(v));
}

namespace {

std::optional<double> positive(std::optional<double> d) {
  return d && std::isfinite(*d) && *d > 0 ? d : std::nullopt;
}

/// Geometric mean of the positive `ms` of `shapes`, when every shape has one.
std::optional<double> geomeanMs(const data::Json &record) {
  const std::optional<std::vector<double>> ms = record.numbersIn({"shapes"}, "ms");
  if (!ms)
    return std::nullopt;
  double logSum = 0;
  for (double m : *ms) {
    if (!positive(m))
      return std::nullopt;
    logSum += std::log(m);
  }
  return std::exp(logSum / static_cast<double>(ms->size()));
}

/// The eager baseline's geomean ms for `problem` in problem_baselines.json beside the problem's
/// folder (`<bench>/<gpu>/problem_baselines.json`) or one level higher.
std::optional<std::pair<double, std::string>> eagerBaseline(const problems::ProblemContext &problem) {
  fs::path dir = problem.dir;
  for (int level = 0; level < 2 && !dir.empty(); ++level) {
    dir = dir.parent_path();
    const fs::path file = dir / "problem_baselines.json";
    std::optional<data::Json> v = readRunJson(file, nullptr);
    if (!v)
      continue;
    if (auto ms = positive(v->number({"problems", problem.name, "eager", "ms"})))
      return std::make_pair(*ms, file.filename().string() + " eager.ms");
  }
  return std::nullopt;
}

std::string figure(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

} // namespace

RunRecord readRunRecord(const fs::path &runDir) {
  RunRecord r;
  for (const char *name : {"result.json", "meta.json"}) {
    std::optional<data::Json> v = readRunJson(runDir / name, &r.diagnostics);
    if (!v || !v->isObject())
      continue;
    if (r.bench.empty())
      for (const char *key : {"bench", "suite"})
        if (auto s = v->string({key}); s && r.bench.empty())
          r.bench = *s;
    if (auto b = v->boolean({"correct"}); b && !r.correct)
      r.correct = *b;
    if (!r.speedup)
      r.speedup = positive(v->number({"speedup"}));
    if (!r.peakFraction)
      if (auto pf = v->number({"peak_fraction"}); pf && std::isfinite(*pf) && *pf >= 0)
        r.peakFraction = *pf;
    if (!r.solutionMs)
      r.solutionMs = geomeanMs(*v);
    for (auto [field, key] : {std::pair{&r.model, "model"}, {&r.harness, "harness"}, {&r.effort, "effort"},
                              {&r.problem, "problem"}})
      if (field->empty())
        *field = v->string({key}).value_or("");
    if (!r.cellDecided) {
      if (v->boolean({"correct"}) == std::optional<bool>(false))
        r.cellDecided = true; // the schema's null: not correct
      else
        for (const char *key : {"peak_fraction", "score"})
          if (auto n = v->number({key}); n && std::isfinite(*n) && *n >= 0 && !r.cellDecided) {
            r.cellNumber = *n;
            r.cellDecided = true;
          }
    }
    if (r.file.empty() && (r.correct || r.speedup || r.solutionMs || r.peakFraction))
      r.file = name;
  }
  return r;
}

annotations::RunScore runScore(const std::optional<Evaluation> &row, const RunRecord &record,
                               const problems::ProblemContext *problem) {
  annotations::RunScore s;
  if (row) {
    const std::string where = row->table.filename().string() + " row " + std::to_string(row->row);
    s.correct = row->correct;
    s.speedup = row->speedup;
    s.peakFraction = row->peakFraction;
    if (s.peakFraction)
      s.sources.push_back(where + ": peak_fraction");
    if (s.correct)
      s.sources.push_back(where + ": correct");
    if (s.speedup)
      s.sources.push_back(where + ": speedup");
    else
      s.missing = where + " has no speedup column";
    return s;
  }
  s.correct = record.correct;
  if (s.correct)
    s.sources.push_back(record.file + ": correct");
  s.peakFraction = record.peakFraction;
  if (s.peakFraction)
    s.sources.push_back(record.file + ": peak_fraction");
  if (record.speedup) {
    s.speedup = record.speedup;
    s.sources.push_back(record.file + ": speedup");
    return s;
  }
  if (!record.solutionMs) {
    s.missing = record.file.empty() ? "no result.json or meta.json with a score beside the run"
                                    : record.file + " has no per-shape times";
    return s;
  }
  const auto baseline = problem ? eagerBaseline(*problem) : std::nullopt;
  if (!baseline) {
    s.missing = "no problem_baselines.json entry for the problem";
    return s;
  }
  s.speedup = baseline->first / *record.solutionMs;
  s.sources.push_back(record.file + ": shapes[].ms (geomean " + figure(*record.solutionMs) + " ms)");
  s.sources.push_back(baseline->second + " (" + figure(baseline->first) + " ms)");
  return s;
}

} // namespace kbaudit::cli

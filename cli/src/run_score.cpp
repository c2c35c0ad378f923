#include "run_score.h"

#include <llvm/Support/JSON.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace kbaudit::cli {

namespace fs = std::filesystem;

namespace {

// A run's record is a few kilobytes; the limits keep a hostile one from costing the audit
// (llvm::json parses recursively, so nesting is bounded before it sees the text).
constexpr std::uintmax_t kMaxRecordBytes = 8u << 20;
constexpr unsigned kMaxRecordDepth = 64;

bool shallowEnough(std::string_view text) {
  unsigned depth = 0;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxRecordDepth)
        return false;
    } else if ((c == ']' || c == '}') && depth) {
      --depth;
    }
  }
  return true;
}

std::optional<llvm::json::Value> readJson(const fs::path &file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec) || fs::file_size(file, ec) > kMaxRecordBytes)
    return std::nullopt;
  std::ifstream in(file, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  if (!shallowEnough(text))
    return std::nullopt;
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(text);
  if (!v) {
    llvm::consumeError(v.takeError());
    return std::nullopt;
  }
  return std::move(*v);
}

std::optional<double> positiveNumber(const llvm::json::Object &o, llvm::StringRef key) {
  if (auto d = o.getNumber(key); d && std::isfinite(*d) && *d > 0)
    return *d;
  return std::nullopt;
}

/// Geometric mean of the positive `ms` of `shapes`, when every shape has one.
std::optional<double> geomeanMs(const llvm::json::Object &o) {
  const llvm::json::Array *shapes = o.getArray("shapes");
  if (!shapes || shapes->empty())
    return std::nullopt;
  double logSum = 0;
  for (const llvm::json::Value &s : *shapes) {
    const llvm::json::Object *shape = s.getAsObject();
    std::optional<double> ms = shape ? positiveNumber(*shape, "ms") : std::nullopt;
    if (!ms)
      return std::nullopt;
    logSum += std::log(*ms);
  }
  return std::exp(logSum / static_cast<double>(shapes->size()));
}

/// The eager baseline's geomean ms for `problem` in problem_baselines.json beside the problem's
/// folder (`<bench>/<gpu>/problem_baselines.json`) or one level higher.
std::optional<std::pair<double, std::string>> eagerBaseline(const problems::ProblemContext &problem) {
  fs::path dir = problem.dir;
  for (int level = 0; level < 2 && !dir.empty(); ++level) {
    dir = dir.parent_path();
    const fs::path file = dir / "problem_baselines.json";
    std::optional<llvm::json::Value> v = readJson(file);
    if (!v)
      continue;
    const llvm::json::Object *root = v->getAsObject();
    const llvm::json::Object *all = root ? root->getObject("problems") : nullptr;
    const llvm::json::Object *entry = all ? all->getObject(problem.name) : nullptr;
    const llvm::json::Object *eager = entry ? entry->getObject("eager") : nullptr;
    if (auto ms = eager ? positiveNumber(*eager, "ms") : std::nullopt)
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
    std::optional<llvm::json::Value> v = readJson(runDir / name);
    const llvm::json::Object *o = v ? v->getAsObject() : nullptr;
    if (!o)
      continue;
    if (r.bench.empty())
      for (const char *key : {"bench", "suite"})
        if (auto s = o->getString(key); s && r.bench.empty())
          r.bench = s->str();
    if (auto b = o->getBoolean("correct"); b && !r.correct)
      r.correct = *b;
    if (!r.speedup)
      r.speedup = positiveNumber(*o, "speedup");
    if (!r.peakFraction)
      if (auto pf = o->getNumber("peak_fraction"); pf && std::isfinite(*pf) && *pf >= 0)
        r.peakFraction = *pf;
    if (!r.solutionMs)
      r.solutionMs = geomeanMs(*o);
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

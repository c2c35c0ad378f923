#include "run_header.h"

#include "run_score.h"

#include <cmath>

namespace kbaudit::cli {

namespace fs = std::filesystem;

namespace {

void fillText(std::string &field, const data::Json &record, const char *key) {
  if (!field.empty())
    return;
  if (std::optional<std::string> v = record.string({key}))
    field = *v;
}

/// The cell's number: `peak_fraction`, or `score` where a suite publishes that instead (the
/// humans' files put it in the same field). Null when the record says the run was not correct.
std::optional<double> cellNumber(const data::Json &record) {
  if (record.boolean({"correct"}) == std::optional<bool>(false))
    return std::nullopt;
  for (const char *key : {"peak_fraction", "score"})
    if (std::optional<double> v = record.number({key}); v && std::isfinite(*v) && *v >= 0)
      return v;
  return std::nullopt;
}

} // namespace

RunHeader carriedHeader(const std::optional<Evaluation> &row, const fs::path &runDir) {
  RunHeader h;
  bool numberDecided = false; // a source that has the number (or says "not correct") decides it
  if (row) {
    h.model = row->model;
    h.harness = row->harness;
    h.effort = row->effort;
    h.problem = row->problem;
    h.peakFraction = row->peakFraction;
    numberDecided = row->peakFraction.has_value() || row->correct == std::optional<bool>(false);
  }
  // Bounded readers; whether a file could be read is reported once, by readRunRecord.
  for (const char *name : {"result.json", "meta.json"}) {
    std::optional<data::Json> record = readRunJson(runDir / name, nullptr);
    if (!record || !record->isObject())
      continue;
    fillText(h.model, *record, "model");
    fillText(h.harness, *record, "harness");
    fillText(h.effort, *record, "effort");
    fillText(h.problem, *record, "problem");
    if (!numberDecided) {
      h.peakFraction = cellNumber(*record);
      numberDecided = h.peakFraction.has_value() || record->boolean({"correct"}) == std::optional<bool>(false);
    }
  }
  return h;
}

} // namespace kbaudit::cli

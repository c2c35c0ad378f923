#include "run_header.h"

namespace kbaudit::cli {

RunHeader carriedHeader(const std::optional<Evaluation> &row, const RunRecord &record) {
  RunHeader h;
  if (row) {
    h.model = row->model;
    h.harness = row->harness;
    h.effort = row->effort;
    h.problem = row->problem;
    h.peakFraction = row->peakFraction;
  }
  for (auto [field, fromRecord] : {std::pair{&h.model, &record.model}, {&h.harness, &record.harness},
                                   {&h.effort, &record.effort}, {&h.problem, &record.problem}})
    if (field->empty())
      *field = *fromRecord;
  // A row with a number, or one that says the run was not correct, decides the number.
  const bool rowDecides = row && (row->peakFraction || row->correct == std::optional<bool>(false));
  if (!rowDecides)
    h.peakFraction = record.cellNumber;
  return h;
}

} // namespace kbaudit::cli

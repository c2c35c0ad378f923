#pragma once

// The runs of a report as CSV (`kbaudit report --csv`): one row per run, fields quoted per
// RFC 4180 by libcsv. The page's "export CSV" link writes the same columns for the runs its
// filters show (annotations/assets/report.js), so the two stay comparable.

#include "kbaudit/annotations/report_model.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::annotations {

/// The columns, in order; reportCsvFields(run)[Column] is that column's field.
enum CsvColumn : std::size_t {
  kCsvRunId, kCsvModel, kCsvHarness, kCsvProblem, kCsvEffort, kCsvPeakFraction,
  kCsvKbauditVerdict, kCsvHumanVerdict, kCsvAgreement, kCsvDecisiveRules, kCsvRules
};

/// The header row's names, in column order.
const std::vector<std::string> &reportCsvColumns();

/// One run's fields, in column order, as the page's data attributes carry them too.
std::vector<std::string> reportCsvFields(const ReportRun &run);

/// Header and one row per run in grid order (model, problem, run id); CRLF line ends, every
/// field quoted.
std::string reportCsv(const ReportModel &model);

/// One field as written: quoted, inner quotes doubled; a text that a spreadsheet would run as
/// a formula (starting with = + - @ tab or CR) gets a leading apostrophe first.
std::string csvField(std::string_view text);

/// "%.4g" of a peak fraction, "" when absent: the same text on the page and in the CSV.
std::string peakFractionText(const Annotation *a);

} // namespace kbaudit::annotations

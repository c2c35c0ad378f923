#include "kbaudit/annotations/report_csv.h"

#include <csv.h>

#include <cstdio>

namespace kbaudit::annotations {

namespace {

std::string joined(const std::vector<std::string> &words) {
  std::string out;
  for (const std::string &w : words)
    out += (out.empty() ? "" : " ") + w;
  return out;
}

} // namespace

const std::vector<std::string> &reportCsvColumns() {
  static const std::vector<std::string> c = {"run_id",          "model",         "harness",   "problem",
                                              "effort",          "peak_fraction", "kbaudit_verdict",
                                              "human_verdict",   "agreement",     "decisive_rules", "rules"};
  return c;
}

std::string peakFractionText(const Annotation *a) {
  if (!a || !a->peakFraction)
    return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", *a->peakFraction);
  return buf;
}

std::vector<std::string> reportCsvFields(const ReportRun &r) {
  // Header fields from kbaudit's annotation, else the human one (a run kbaudit did not audit).
  const Annotation *meta = r.pred ? r.pred : r.truth;
  return {r.id,
          r.model,
          r.harness,
          r.problem,
          meta ? meta->effort : "",
          peakFractionText(meta),
          r.pred ? r.pred->verdict : "",
          r.truth ? r.truth->verdict : "",
          agreementWord(r.agreement),
          joined(r.decisiveRules),
          joined(r.rules)};
}

std::string csvField(std::string_view text) {
  std::string src;
  // A cell starting like a formula is text in the CSV but code in a spreadsheet (OWASP "CSV
  // injection"); run ids and model names come from whoever made the run.
  if (!text.empty() && (text[0] == '=' || text[0] == '+' || text[0] == '-' || text[0] == '@' || text[0] == '\t' ||
                        text[0] == '\r'))
    src = "'";
  src += text;
  // csv_write quotes the field and doubles its quotes; it needs at most 2 * n + 2 bytes.
  std::string out(2 * src.size() + 2, '\0');
  out.resize(csv_write(out.data(), out.size(), src.data(), src.size()));
  return out;
}

std::string reportCsv(const ReportModel &model) {
  std::string out;
  const auto row = [&](const std::vector<std::string> &fields) {
    for (std::size_t i = 0; i < fields.size(); ++i)
      out += (i ? "," : "") + csvField(fields[i]);
    out += "\r\n";
  };
  row(reportCsvColumns());
  // In the grid's order (model, problem, run id), as the page's export writes them.
  for (const std::string &m : model.models)
    for (const std::string &p : model.problems)
      if (auto it = model.cells.find({m, p}); it != model.cells.end())
        for (std::size_t i : it->second)
          row(reportCsvFields(model.runs[i]));
  return out;
}

} // namespace kbaudit::annotations

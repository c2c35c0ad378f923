#pragma once

// A sweep of annotations as one self-contained HTML page (`kbaudit report --html`): hack rates
// per model, harness and problem as inline SVG charts, a model x problem grid coloured by
// verdict (human and kbaudit side by side when human labels are given), agreement with the
// humans, counts per verdict and per rule, and every run's findings, quotes and the humans'
// evidence. The report model (report_model.h) is rendered through the mustache template
// annotations/assets/report.html.mustache, whose engine HTML-escapes every value; the CSS and JS
// are annotations/assets files compiled in. The page loads nothing.

#include "kbaudit/annotations/annotation.h"
#include "kbaudit/annotations/report_model.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::annotations {

struct HtmlReportOptions {
  std::string title = "kbaudit report";
  std::string predSource;  ///< shown in the header: where the kbaudit annotations came from
  std::string truthSource; ///< where the human ones came from ("" without --truth)
  /// Files that could not be read; listed on the page.
  std::vector<std::string> loadErrors;
};

std::string renderHtmlReport(const ReportModel &model, const HtmlReportOptions &options = {});

/// `pred` and `truth` are keyed by run id (as loadAnnotations returns them). `truth` null:
/// kbaudit verdicts only. Runs that only one side has are shown too, marked as such.
std::string renderHtmlReport(const std::map<std::string, Annotation> &pred,
                             const std::map<std::string, Annotation> *truth,
                             const HtmlReportOptions &options = {});

/// `&<>"'` and CR as character references; other C0 control characters than tab and newline
/// become U+FFFD. The
/// template engine's escape function: the only way a value reaches the page.
std::string htmlEscape(std::string_view text);

} // namespace kbaudit::annotations

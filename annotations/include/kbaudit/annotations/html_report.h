#pragma once

// A sweep of annotations as one self-contained HTML page (`kbaudit report --html`): a model x
// problem grid coloured by verdict (human and kbaudit side by side when human labels are
// given), counts per verdict and per rule, and every run's findings and quotes. Inline CSS and
// JS only; the page loads nothing. Every string taken from an annotation is HTML-escaped.

#include "kbaudit/annotations/annotation.h"

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

/// `pred` and `truth` are keyed by run id (as loadAnnotations returns them). `truth` null:
/// kbaudit verdicts only. Runs that only one side has are shown too, marked as such.
std::string renderHtmlReport(const std::map<std::string, Annotation> &pred,
                             const std::map<std::string, Annotation> *truth,
                             const HtmlReportOptions &options = {});

/// `&<>"'` as entities; C0 control characters other than tab/newline/CR become U+FFFD.
std::string htmlEscape(std::string_view text);

} // namespace kbaudit::annotations

// The report model as the data of annotations/assets/report.html.mustache, rendered: the page's
// summary, rule table and controls here, charts, grid and side panel in report_view_*.cpp. Values
// are plain text: the template engine escapes each one as it writes it (htmlEscape), so nothing
// in the writer writes markup. Optional texts are `false` when empty (an empty string is true in
// mustache), and every object sets every key its section reads, so a missing key never falls
// through to an enclosing object's value.

#include "kbaudit/annotations/html_report.h"

#include "kbaudit/annotations/report_csv.h"
#include "report_assets.h"
#include "report_view.h"

#include <kainjow/mustache.hpp>

#include <set>
#include <stdexcept>

namespace kbaudit::annotations {

namespace {

using namespace view;

Data verdictBadges(const std::vector<VerdictCount> &counts) {
  Data out = list();
  for (const VerdictCount &v : counts) {
    Data b;
    b.set("vcls", verdictClass(&v.verdict));
    b.set("verdict", v.verdict);
    b.set("shown", v.verdict.empty() ? "(empty)" : v.verdict);
    b.set("count", num(v.count));
    out.push_back(b);
  }
  return out;
}

Data agreement(const ReportModel &m) {
  const Score &s = *m.score;
  Data a;
  a.set("tp", num(s.truePositives));
  a.set("fn", num(s.falseNegatives));
  a.set("fp", num(s.falsePositives));
  a.set("tn", num(s.trueNegatives));
  a.set("precision", percent(s.precision()));
  a.set("recall", percent(s.recall()));
  a.set("falseFlagRate", percent(s.falseFlagRate()));
  a.set("classAgreement", num(s.classAgreement));
  a.set("excluded", num(s.excluded));
  a.set("notAudited", num(s.missingPredictions.size()));
  a.set("unlabelled", num(m.unlabelled));
  Data cols = list();
  for (const std::string &k : m.matrixKbaudit) {
    Data c;
    c.set("name", k);
    cols.push_back(c);
  }
  a.set("matrixColumns", cols);
  Data rows = list();
  for (const std::string &h : m.matrixHuman) {
    Data row;
    row.set("name", h);
    Data cells = list();
    for (const std::string &k : m.matrixKbaudit) {
      const auto it = m.matrix.find({h, k});
      const unsigned n = it == m.matrix.end() ? 0 : it->second;
      Data c;
      c.set("mcls", h == k ? "diag" : n ? "off" : "zero");
      c.set("shown", n ? num(n) : "");
      cells.push_back(c);
    }
    row.set("cells", cells);
    rows.push_back(row);
  }
  a.set("matrixRows", rows);
  return a;
}

Data ruleRows(const ReportModel &m) {
  Data out = list();
  for (const RuleRow &r : m.rules) {
    Data row;
    row.set("silent", r.silent);
    row.set("id", r.id);
    row.set("name", r.name);
    row.set("cls", r.cls);
    row.set("findings", num(r.findings));
    row.set("decisive", num(r.decisive));
    row.set("low", num(r.low));
    row.set("runs", num(r.runs));
    row.set("decisiveRuns", num(r.decisiveRuns));
    row.set("humanHack", r.humanHack > 0);
    row.set("humanHackCount", num(r.humanHack));
    row.set("humanClean", r.humanClean > 0);
    row.set("humanCleanCount", num(r.humanClean));
    row.set("humanOther", num(r.humanOther));
    out.push_back(row);
  }
  return out;
}

Data pageData(const ReportModel &m, const HtmlReportOptions &o) {
  Data d;
  d.set("title", o.title);
  d.set("predSource", o.predSource);
  d.set("truthSource", o.truthSource);
  d.set("truthMode", m.truthMode);
  d.set("minRuns", num(m.minRuns));
  d.set("runCount", num(m.runs.size()));
  d.set("modelCount", num(m.models.size()));
  d.set("problemCount", num(m.problems.size()));
  d.set("predCount", num(m.predCount));
  d.set("truthCount", num(m.truthCount));
  d.set("kbauditVerdicts", verdictBadges(m.kbauditVerdicts));
  d.set("humanVerdicts", verdictBadges(m.humanVerdicts));
  d.set("agreement", m.score ? agreement(m) : Data(false));
  d.set("hasLoadErrors", !o.loadErrors.empty());
  d.set("loadErrorCount", num(o.loadErrors.size()));
  Data errors = list();
  for (const std::string &e : o.loadErrors) {
    Data x;
    x.set("text", e);
    errors.push_back(x);
  }
  d.set("loadErrors", errors);
  d.set("empty", m.runs.empty());
  Data charts = list();
  charts.push_back(chart("model", m.byModel, m.truthMode, m.minRuns));
  charts.push_back(chart("harness", m.byHarness, m.truthMode, m.minRuns));
  charts.push_back(chart("problem", m.byProblem, m.truthMode, m.minRuns));
  d.set("charts", charts);
  Data legend = list();
  for (const std::string &v : knownVerdicts()) {
    Data x;
    x.set("vcls", verdictClass(&v));
    x.set("abbr", verdictAbbrev(v));
    x.set("verdict", v);
    legend.push_back(x);
  }
  d.set("legend", legend);
  std::set<std::string> ruleIds;
  for (const ReportRun &r : m.runs)
    ruleIds.insert(r.rules.begin(), r.rules.end());
  Data ruleFilters = list();
  for (const std::string &id : ruleIds) {
    Data x;
    x.set("rule", id);
    ruleFilters.push_back(x);
  }
  d.set("hasRuleFilters", !ruleIds.empty());
  d.set("ruleFilters", ruleFilters);
  Data modelOptions = list(), harnessOptions = list(), problemOptions = list();
  for (const std::string &model : m.models) {
    Data x;
    x.set("model", model);
    modelOptions.push_back(x);
  }
  for (const std::string &h : m.harnesses) {
    Data x;
    x.set("harness", h);
    harnessOptions.push_back(x);
  }
  for (const std::string &p : m.problems) {
    Data x;
    x.set("problem", p);
    problemOptions.push_back(x);
  }
  d.set("modelOptions", modelOptions);
  d.set("harnessOptions", harnessOptions);
  d.set("problemOptions", problemOptions);
  std::string columns;
  for (const std::string &c : reportCsvColumns())
    columns += (columns.empty() ? "" : ",") + c;
  d.set("csvColumns", columns);
  d.set("columns", gridColumns(m));
  d.set("rows", gridRows(m));
  d.set("ruleRows", ruleRows(m));
  d.set("cellDetails", cellDetails(m));
  // The build's own CSS and JS, as partials: text of the template, not values.
  d.set("css", kainjow::mustache::partial([] { return std::string(reportAsset("assets/report.css")); }));
  d.set("js", kainjow::mustache::partial([] { return std::string(reportAsset("assets/report.js")); }));
  return d;
}

} // namespace

std::string_view reportAsset(std::string_view path) {
  for (const EmbeddedFile &f : embeddedReportAssets())
    if (f.path == path)
      return f.content;
  return {};
}

std::string renderHtmlReport(const ReportModel &model, const HtmlReportOptions &options) {
  kainjow::mustache::mustache page{std::string(reportAsset("assets/report.html.mustache"))};
  page.set_custom_escape([](const std::string &s) { return htmlEscape(s); });
  if (!page.is_valid())
    throw std::logic_error("report template: " + page.error_message());
  std::string html = page.render(pageData(model, options));
  if (!page.is_valid())
    throw std::logic_error("report template: " + page.error_message());
  return html;
}

std::string renderHtmlReport(const std::map<std::string, Annotation> &pred,
                             const std::map<std::string, Annotation> *truth, const HtmlReportOptions &options) {
  return renderHtmlReport(buildReportModel(pred, truth), options);
}

} // namespace kbaudit::annotations
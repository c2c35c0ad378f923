// The report model as the data of annotations/assets/report.html.mustache. Values are plain
// text here: the template engine escapes each one as it writes it (htmlEscape), so nothing in
// this file writes markup. Optional texts are `false` when empty (an empty string is true in
// mustache), and every object sets every key its section reads, so a missing key never falls
// through to an enclosing object's value.

#include "kbaudit/annotations/html_report.h"

#include "kbaudit/annotations/report_csv.h"
#include "kbaudit/annotations/synthesis.h"
#include "kbaudit/rules/rule_meta.h"
#include "report_assets.h"

#include <kainjow/mustache.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>
#include <stdexcept>

namespace kbaudit::annotations {

namespace {

using Data = kainjow::mustache::data;

Data list() { return Data(Data::type::list); }

Data optional(const std::string &text) { return text.empty() ? Data(false) : Data(text); }

std::string num(std::size_t n) { return std::to_string(n); }

std::string fixed(double v, const char *fmt) {
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string percent(double v) { return fixed(100.0 * v, "%.1f%%"); }

std::string verdictClass(const std::string *verdict) {
  if (!verdict)
    return "v-none";
  return knownVerdict(*verdict) ? "v-" + *verdict : "v-other";
}

std::string lines(const LineRange &r) {
  if (!r.valid())
    return "\u2014";
  return r.begin == r.end ? std::to_string(r.begin) : std::to_string(r.begin) + "\u2013" + std::to_string(r.end);
}

// Pieces that end at '_' or '/', where the template lets long problem and model names wrap.
Data parts(const std::string &s) {
  Data out = list();
  std::string piece;
  for (const char c : s) {
    piece += c;
    if (c == '_' || c == '/') {
      Data p;
      p.set("part", piece);
      out.push_back(p);
      piece.clear();
    }
  }
  if (!piece.empty() || s.empty()) {
    Data p;
    p.set("part", piece);
    out.push_back(p);
  }
  return out;
}

// At most `n` bytes of a chart label, cut at a UTF-8 character boundary, with an ellipsis.
std::string shortLabel(const std::string &s, std::size_t n) {
  if (s.size() <= n)
    return s;
  std::size_t cut = n;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
    --cut;
  return s.substr(0, cut) + "\u2026";
}

std::string lowered(std::string s) {
  for (char &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

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

// One horizontal bar chart: a row per model, harness or problem, kbaudit's hack rate as a red
// bar and, with human labels, the humans' as an outlined one below it.
constexpr int kLabelWidth = 190, kBarWidth = 220, kBarHeight = 8, kTop = 4;

Data chart(const char *id, const std::vector<HackRate> &rates, bool truthMode) {
  const int rowHeight = truthMode ? 26 : 18;
  Data c;
  c.set("chartId", id);
  c.set("groupCount", num(rates.size()));
  const int barX = kLabelWidth, barEnd = kLabelWidth + kBarWidth;
  const int axisY = kTop + rowHeight * static_cast<int>(rates.size());
  c.set("width", num(barEnd + 200));
  c.set("height", num(axisY + 16));
  c.set("barX", num(barX));
  c.set("barEnd", num(barEnd));
  c.set("axisY", num(axisY));
  c.set("tickY", num(axisY + 12));
  Data bars = list();
  int y = kTop;
  for (const HackRate &r : rates) {
    Data b;
    b.set("key", r.key);
    b.set("label", shortLabel(r.key, 30));
    b.set("labelY", num(y + 11));
    b.set("barW", num(kBarWidth));
    b.set("barH", num(kBarHeight));
    b.set("kY", num(y + 3));
    b.set("kW", fixed(kBarWidth * r.flaggedRate(), "%.1f"));
    b.set("hasHuman", truthMode);
    b.set("hY", num(y + 3 + kBarHeight + 2));
    b.set("hW", fixed(kBarWidth * r.humanHackRate(), "%.1f"));
    b.set("pctX", num(barEnd + 6));
    std::string pct = percent(r.flaggedRate()) + " (" + num(r.flagged) + "/" + num(r.audited) + ")";
    std::string tip = "kbaudit hack " + num(r.flagged) + " of " + num(r.audited) + " audited";
    if (truthMode) {
      pct += " \u00b7 human " + percent(r.humanHackRate());
      tip += "; human hack " + num(r.humanHack) + " of " + num(r.labelled) + " scored; agree " + num(r.agree);
    }
    b.set("pctText", pct);
    b.set("tip", tip);
    b.set("runs", num(r.runs));
    b.set("audited", num(r.audited));
    b.set("flagged", num(r.flagged));
    b.set("kPct", percent(r.flaggedRate()));
    b.set("labelled", num(r.labelled));
    b.set("humanHack", num(r.humanHack));
    b.set("hPct", percent(r.humanHackRate()));
    b.set("agree", num(r.agree));
    bars.push_back(b);
    y += rowHeight;
  }
  c.set("bars", bars);
  return c;
}

std::string tooltip(const ReportRun &r, bool truthMode) {
  std::string tip = r.id + "\nkbaudit: " + (r.pred ? r.pred->verdict : "no annotation");
  std::string fired;
  for (const std::string &f : r.decisiveRules)
    fired += (fired.empty() ? "" : ", ") + f;
  if (!fired.empty())
    tip += " (" + fired + ")";
  if (truthMode)
    tip += std::string("\nhuman: ") + (r.truth ? r.truth->verdict : "no annotation") + "\n" + agreementText(r.agreement);
  return tip;
}

Data chip(const ReportRun &r, bool truthMode) {
  const std::vector<std::string> csv = reportCsvFields(r);
  Data c;
  c.set("a", agreementWord(r.agreement));
  c.set("id", r.id);
  c.set("kl", labelWord(r.pred));
  c.set("hl", labelWord(r.truth));
  std::string rules = " ";
  for (const std::string &rule : r.rules)
    rules += rule + " ";
  c.set("rulesAttr", rules);
  c.set("model", r.model);
  c.set("harness", r.harness);
  c.set("problem", r.problem);
  c.set("effort", csv[kCsvEffort]);
  c.set("pf", csv[kCsvPeakFraction]);
  c.set("k", csv[kCsvKbauditVerdict]);
  c.set("h", csv[kCsvHumanVerdict]);
  c.set("decisiveList", csv[kCsvDecisiveRules]);
  c.set("ruleList", csv[kCsvRules]);
  c.set("tip", tooltip(r, truthMode));
  const std::string *k = r.pred ? &r.pred->verdict : nullptr;
  const std::string *h = r.truth ? &r.truth->verdict : nullptr;
  c.set("hcls", verdictClass(h));
  c.set("habbr", h ? verdictAbbrev(*h) : "\u2014");
  c.set("kcls", verdictClass(k));
  c.set("kabbr", k ? verdictAbbrev(*k) : "\u2014");
  return c;
}

Data gridColumns(const ReportModel &m) {
  Data out = list();
  for (const HackRate &r : m.byProblem) {
    Data c;
    c.set("problem", r.key);
    c.set("parts", parts(r.key));
    c.set("runs", num(r.runs));
    c.set("flagged", r.flagged > 0);
    c.set("flaggedCount", num(r.flagged));
    out.push_back(c);
  }
  return out;
}

Data gridRows(const ReportModel &m) {
  Data rows = list();
  for (const std::string &model : m.models) {
    std::set<std::string> harnesses;
    std::size_t n = 0;
    Data cells = list();
    for (const std::string &problem : m.problems) {
      Data cell;
      const auto it = m.cells.find({model, problem});
      cell.set("blank", it == m.cells.end());
      if (it != m.cells.end()) {
        bool disagree = false, classDiffers = false;
        Data chips = list();
        for (std::size_t i : it->second) {
          const ReportRun &r = m.runs[i];
          disagree |= r.agreement == Agreement::Disagree;
          classDiffers |= r.agreement == Agreement::ClassDiffers;
          if (!r.harness.empty())
            harnesses.insert(r.harness);
          chips.push_back(chip(r, m.truthMode));
        }
        n += it->second.size();
        cell.set("tint", disagree ? " has-disagree" : classDiffers ? " has-classdiff" : "");
        cell.set("idx", num(m.cellIndex.at({model, problem})));
        cell.set("n", num(it->second.size()));
        cell.set("chips", chips);
      }
      cells.push_back(cell);
    }
    std::string hs;
    for (const std::string &h : harnesses)
      hs += (hs.empty() ? "" : ", ") + h;
    Data row;
    row.set("lowerModel", lowered(model));
    row.set("parts", parts(model));
    row.set("harnessList", hs);
    row.set("runCountText", num(n) + (n == 1 ? " run" : " runs"));
    row.set("cells", cells);
    rows.push_back(row);
  }
  return rows;
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

Data quotes(const std::vector<Quote> &qs) {
  Data out = list();
  for (const Quote &q : qs) {
    Data d;
    d.set("file", q.file);
    d.set("lines", lines(q.lines));
    d.set("label", q.label);
    // Each line numbered from the quote's first line, when it has one.
    Data ls = list();
    std::string_view text = q.text;
    unsigned ln = q.lines.valid() ? q.lines.begin : 0;
    while (!text.empty()) {
      const auto nl = text.find('\n');
      Data l;
      l.set("n", ln ? std::to_string(ln++) : std::string());
      l.set("t", std::string(text.substr(0, nl)));
      ls.push_back(l);
      if (nl == std::string_view::npos)
        break;
      text.remove_prefix(nl + 1);
    }
    d.set("qlines", ls);
    out.push_back(d);
  }
  return out;
}

Data findings(const std::vector<rules::Finding> &fs) {
  Data out = list();
  for (const rules::Finding &f : fs) {
    Data d;
    d.set("rowcls", decisive(f) ? "decisive" : "lowconf");
    d.set("rule", f.rule);
    d.set("name", f.name);
    d.set("confidence", rules::confidenceName(f.confidence));
    d.set("fcls", rules::verdictClassName(f.verdict));
    d.set("where", (f.file != "solution.py" ? f.file + ":" : "") + lines(f.lines));
    d.set("message", f.message);
    d.set("evidence", optional(f.evidence));
    out.push_back(d);
  }
  return out;
}

Data runDetail(const ReportRun &r) {
  const Annotation *p = r.pred;
  Data d;
  d.set("a", agreementWord(r.agreement));
  d.set("id", r.id);
  d.set("kcls", verdictClass(p ? &p->verdict : nullptr));
  d.set("kText", p ? p->verdict : "no annotation");
  d.set("hcls", verdictClass(r.truth ? &r.truth->verdict : nullptr));
  d.set("hText", r.truth ? r.truth->verdict : "no annotation");
  d.set("agreementText", agreementText(r.agreement));
  const Annotation *meta = p ? p : r.truth;
  d.set("hasMeta", meta != nullptr);
  d.set("metaHarness", meta ? meta->harness : "");
  d.set("metaEffort", optional(meta ? meta->effort : ""));
  d.set("metaPeak", optional(meta && meta->peakFraction ? fixed(*meta->peakFraction, "%.3f") : ""));
  d.set("humanModel", optional(r.truth && r.truth->model != r.model ? r.truth->model : ""));
  d.set("version", optional(p ? p->kbaudit.version : ""));
  d.set("problemDir", optional(p ? p->kbaudit.problemDir : ""));
  d.set("audited", p != nullptr);
  d.set("summary", optional(p && !firstWord(p->summary).empty() ? p->summary : ""));
  d.set("implication", optional(p && !firstWord(p->implication).empty() ? p->implication : ""));
  const std::size_t nf = p ? p->kbaudit.findings.size() : 0;
  d.set("hasFindings", nf > 0);
  d.set("findingCount", num(nf));
  d.set("findings", p ? findings(p->kbaudit.findings) : list());
  d.set("hasQuotes", p && !p->quotes.empty());
  d.set("quoteCount", num(p ? p->quotes.size() : 0));
  d.set("quotes", p ? quotes(p->quotes) : list());
  Data diags = list();
  if (p)
    for (const Diagnostic &dg : p->kbaudit.diagnostics) {
      Data x;
      x.set("severity", severityName(dg.severity));
      x.set("code", dg.code);
      x.set("file", dg.file);
      x.set("lines", lines(dg.lines));
      x.set("message", dg.message);
      diags.push_back(x);
    }
  d.set("hasDiagnostics", p && !p->kbaudit.diagnostics.empty());
  d.set("diagnosticCount", num(p ? p->kbaudit.diagnostics.size() : 0));
  d.set("diagnostics", diags);
  Data skipped = list();
  if (p)
    for (const rules::SkippedRule &s : p->kbaudit.skipped) {
      Data x;
      x.set("rule", s.rule);
      x.set("reason", s.reason);
      skipped.push_back(x);
    }
  d.set("hasSkipped", p && !p->kbaudit.skipped.empty());
  d.set("skippedCount", num(p ? p->kbaudit.skipped.size() : 0));
  d.set("skipped", skipped);
  if (r.truth) {
    Data h;
    h.set("open", r.agreement != Agreement::Agree);
    h.set("summary", optional(firstWord(r.truth->summary).empty() ? "" : r.truth->summary));
    h.set("implication", optional(firstWord(r.truth->implication).empty() ? "" : r.truth->implication));
    h.set("evidence", optional(firstWord(r.truth->evidence).empty() ? "" : r.truth->evidence));
    h.set("quotes", quotes(r.truth->quotes));
    d.set("human", h);
  } else {
    d.set("human", false);
  }
  return d;
}

Data cellDetails(const ReportModel &m) {
  Data out = list();
  for (const auto &[key, idx] : m.cellIndex) {
    const auto &runs = m.cells.at(key);
    Data c;
    c.set("idx", num(idx));
    c.set("model", key.first);
    c.set("problem", key.second);
    c.set("runCountText", num(runs.size()) + (runs.size() == 1 ? " run" : " runs"));
    Data details = list();
    for (std::size_t i : runs)
      details.push_back(runDetail(m.runs[i]));
    c.set("details", details);
    out.push_back(c);
  }
  return out;
}

Data pageData(const ReportModel &m, const HtmlReportOptions &o) {
  Data d;
  d.set("title", o.title);
  d.set("predSource", o.predSource);
  d.set("truthSource", o.truthSource);
  d.set("truthMode", m.truthMode);
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
  charts.push_back(chart("model", m.byModel, m.truthMode));
  charts.push_back(chart("harness", m.byHarness, m.truthMode));
  charts.push_back(chart("problem", m.byProblem, m.truthMode));
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
  Data harnessOptions = list(), problemOptions = list();
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

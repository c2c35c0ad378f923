// The side panel: every run of a cell with its verdicts, header fields, findings, quotes,
// diagnostics, skipped rules and the human annotation (with its evidence: text).

#include "report_view.h"

#include "kbaudit/annotations/synthesis.h"
#include "kbaudit/rules/rule_meta.h"

namespace kbaudit::annotations::view {

namespace {

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
  // The fields the grid placed the run by (report_model.cpp: the annotation's, else the run id's,
  // else the human's), so the panel never shows a blank where the grid shows a harness.
  d.set("gridModel", r.model);
  d.set("gridProblem", r.problem);
  d.set("gridHarness", optional(r.harness));
  const Annotation *meta = p ? p : r.truth;
  d.set("hasMeta", meta != nullptr);
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

} // namespace

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

} // namespace kbaudit::annotations::view

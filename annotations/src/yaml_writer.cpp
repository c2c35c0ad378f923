#include "kbaudit/annotations/yaml_writer.h"

#include "yaml_scalar.h"

#include <charconv>
#include <cmath>

namespace kbaudit::annotations {

namespace {

using yaml::ScalarStyle;

// Accumulates the document. Only the scalar text is rendered elsewhere; layout (indentation,
// the human files' blank lines between groups) lives here.
class Document {
public:
  void scalar(unsigned indent, std::string_view key, std::string_view value, ScalarStyle style) {
    const yaml::RenderedScalar r = yaml::renderScalar(value, style, indent);
    keyPrefix(indent, key);
    out_ += r.text;
    keepsTrailingLines_ = r.keepsTrailingLines;
  }

  /// `value` is already YAML (a number, `null`, `[1, 2]`, `[]`).
  void raw(unsigned indent, std::string_view key, std::string_view value) {
    keyPrefix(indent, key);
    out_ += ' ';
    out_ += value;
    out_ += '\n';
    keepsTrailingLines_ = false;
  }

  /// A key whose value is a nested block that follows on the next lines.
  void open(unsigned indent, std::string_view key) {
    keyPrefix(indent, key);
    out_ += '\n';
    keepsTrailingLines_ = false;
  }

  /// The next key is the first of a sequence item's mapping: written after `- `.
  void item() { pendingDash_ = true; }

  void blankLine() {
    // After a `|+` literal a blank line would be read as part of its value.
    if (!keepsTrailingLines_)
      out_ += '\n';
  }

  std::string take() { return std::move(out_); }

private:
  void keyPrefix(unsigned indent, std::string_view key) {
    if (pendingDash_) {
      out_.append(indent - 2, ' ');
      out_ += "- ";
      pendingDash_ = false;
    } else {
      out_.append(indent, ' ');
    }
    out_ += key;
    out_ += ':';
  }

  std::string out_;
  bool keepsTrailingLines_ = false;
  bool pendingDash_ = false;
};

std::string lineRange(const LineRange &r) {
  if (r.begin == 0 && r.end == 0)
    return "null";
  return "[" + std::to_string(r.begin) + ", " + std::to_string(r.end) + "]";
}

/// A quote's lines in the schema's form, as the humans write them: `[N]` for one line.
std::string quoteLines(const LineRange &r) {
  if (r.begin != 0 && r.begin == r.end)
    return "[" + std::to_string(r.begin) + "]";
  return lineRange(r);
}

// Shortest text that reads back as the same double. YAML 1.1 readers only take a float with a
// `.` in its mantissa, so `1e-05` becomes `1.0e-05`.
std::string number(double v) {
  if (std::isnan(v))
    return ".nan";
  if (std::isinf(v))
    return v > 0 ? ".inf" : "-.inf";
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
  std::string text(buffer, result.ptr);
  const std::size_t e = text.find('e');
  if (e != std::string::npos && text.find('.') == std::string::npos)
    text.insert(e, ".0");
  return text;
}

void writeQuotes(Document &doc, const std::vector<Quote> &quotes) {
  if (quotes.empty()) {
    doc.raw(0, "quotes", "[]");
    return;
  }
  doc.open(0, "quotes");
  for (const Quote &q : quotes) {
    doc.item();
    doc.scalar(4, "file", q.file, ScalarStyle::Plain);
    doc.raw(4, "lines", quoteLines(q.lines));
    doc.scalar(4, "label", q.label, ScalarStyle::Quoted);
    doc.scalar(4, "text", q.text, ScalarStyle::Block);
  }
}

void writeFindings(Document &doc, const std::vector<rules::Finding> &findings) {
  if (findings.empty()) {
    doc.raw(2, "findings", "[]");
    return;
  }
  doc.open(2, "findings");
  for (const rules::Finding &f : findings) {
    doc.item();
    doc.scalar(6, "rule", f.rule, ScalarStyle::Plain);
    doc.scalar(6, "name", f.name, ScalarStyle::Plain);
    doc.scalar(6, "category", f.category, ScalarStyle::Plain);
    doc.scalar(6, "verdict_class", rules::verdictClassName(f.verdict), ScalarStyle::Plain);
    doc.scalar(6, "confidence", rules::confidenceName(f.confidence), ScalarStyle::Plain);
    doc.scalar(6, "term", problems::termName(f.term), ScalarStyle::Plain);
    if (!f.suiteNote.empty())
      doc.scalar(6, "suite_note", f.suiteNote, ScalarStyle::Quoted);
    doc.raw(6, "lines", lineRange(f.lines));
    doc.scalar(6, "file", f.file, ScalarStyle::Plain);
    doc.scalar(6, "message", f.message, ScalarStyle::Quoted);
    doc.scalar(6, "evidence", f.evidence, ScalarStyle::Multiline);
    if (f.accepted) {
      doc.open(6, "accepted");
      doc.scalar(8, "reason", f.acceptedReason, ScalarStyle::Quoted);
      doc.scalar(8, "by", f.acceptedBy, ScalarStyle::Quoted);
    }
  }
}

void writeSkipped(Document &doc, const std::vector<rules::SkippedRule> &skipped) {
  if (skipped.empty()) {
    doc.raw(2, "skipped", "[]");
    return;
  }
  doc.open(2, "skipped");
  for (const rules::SkippedRule &s : skipped) {
    doc.item();
    doc.scalar(6, "rule", s.rule, ScalarStyle::Plain);
    doc.scalar(6, "reason", s.reason, ScalarStyle::Quoted);
  }
}

void writeDiagnostics(Document &doc, const std::vector<Diagnostic> &diagnostics) {
  if (diagnostics.empty()) {
    doc.raw(2, "diagnostics", "[]");
    return;
  }
  doc.open(2, "diagnostics");
  for (const Diagnostic &d : diagnostics) {
    doc.item();
    doc.scalar(6, "severity", severityName(d.severity), ScalarStyle::Plain);
    doc.scalar(6, "code", d.code, ScalarStyle::Plain);
    doc.scalar(6, "message", d.message, ScalarStyle::Quoted);
    doc.scalar(6, "file", d.file, ScalarStyle::Plain);
    doc.raw(6, "lines", lineRange(d.lines));
  }
}

void writeEmbeddedSources(Document &doc, const std::vector<EmbeddedSourceInfo> &sources) {
  if (sources.empty()) {
    doc.raw(2, "embedded_sources", "[]");
    return;
  }
  doc.open(2, "embedded_sources");
  for (const EmbeddedSourceInfo &s : sources) {
    doc.item();
    doc.scalar(6, "origin", s.origin, ScalarStyle::Quoted);
    doc.scalar(6, "language", s.language, ScalarStyle::Plain);
    doc.raw(6, "lines", lineRange(s.lines));
    doc.raw(6, "line_count", std::to_string(s.lineCount));
    doc.raw(6, "complete", s.complete ? "true" : "false");
  }
}

/// A list of `- note: "..."` items under `key` (or `key: []`).
void writeNotes(Document &doc, const char *key, const std::vector<std::string> &notes) {
  if (notes.empty()) {
    doc.raw(4, key, "[]");
    return;
  }
  doc.open(4, key);
  for (const std::string &n : notes) {
    doc.item();
    doc.scalar(8, "note", n, ScalarStyle::Quoted);
  }
}

void writeRuntime(Document &doc, const runtime::RuntimeReport &r) {
  doc.open(2, "runtime");
  doc.scalar(4, "outcome", r.outcome, ScalarStyle::Plain);
  doc.scalar(4, "reason", r.reason, ScalarStyle::Quoted);
  doc.scalar(4, "device", r.device, ScalarStyle::Plain);
  doc.scalar(4, "torch", r.torchVersion, ScalarStyle::Quoted);
  std::string seeds;
  for (int s : r.seeds)
    seeds += (seeds.empty() ? "" : ", ") + std::to_string(s);
  doc.raw(4, "seeds", "[" + seeds + "]");
  doc.raw(4, "seconds", number(r.seconds));
  writeNotes(doc, "isolation", r.isolation);
  writeNotes(doc, "notes", r.notes);
  if (r.probes.empty()) {
    doc.raw(4, "probes", "[]");
  } else {
    doc.open(4, "probes");
    for (const runtime::ProbeOutcome &p : r.probes) {
      doc.item();
      doc.scalar(8, "name", p.name, ScalarStyle::Plain);
      doc.scalar(8, "status", p.status, ScalarStyle::Plain);
      if (!p.check.empty()) // what the probe observed; `rule` is what the rule metadata makes of it
        doc.scalar(8, "check", p.check, ScalarStyle::Plain);
      doc.scalar(8, "rule", p.rule, ScalarStyle::Plain);
      doc.scalar(8, "reason", p.reason, ScalarStyle::Quoted);
      std::string nums;
      for (const auto &[k, v] : p.numbers)
        nums += (nums.empty() ? "" : ", ") + k + ": " + number(v);
      doc.raw(8, "numbers", "{" + nums + "}");
      doc.raw(8, "verified", p.verified ? "true" : "false");
    }
  }
  if (r.events.empty()) {
    doc.raw(4, "events", "[]");
  } else {
    doc.open(4, "events");
    for (const runtime::RuntimeEvent &e : r.events) {
      doc.item();
      doc.scalar(8, "kind", e.kind, ScalarStyle::Plain);
      doc.scalar(8, "detail", e.detail, ScalarStyle::Quoted);
      if (!e.confidence.empty())
        doc.scalar(8, "confidence", e.confidence, ScalarStyle::Plain);
    }
  }
}

std::string flowList(const std::vector<std::string> &items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i ? ", " : "") + yaml::doubleQuoted(items[i]);
  return out + "]";
}

void writeSelection(Document &doc, const RuleSelectionInfo &s) {
  doc.open(2, "selection");
  doc.scalar(4, "source", s.source, ScalarStyle::Quoted);
  doc.scalar(4, "config", s.configFile, ScalarStyle::Quoted);
  doc.raw(4, "select", flowList(s.select));
  doc.raw(4, "ignore", flowList(s.ignore));
  doc.raw(4, "disabled", flowList(s.disabled));
  doc.scalar(4, "baseline", s.baseline, ScalarStyle::Quoted);
}

/// Which suite's rules judged the run, what its score says, and what the suite permits.
void writeSuite(Document &doc, const SuiteJudgement &s) {
  doc.open(2, "suite");
  doc.scalar(4, "id", s.id, ScalarStyle::Plain);
  doc.raw(4, "version", std::to_string(s.version));
  doc.scalar(4, "name", s.name, ScalarStyle::Quoted);
  doc.scalar(4, "profile", s.file, ScalarStyle::Quoted);
  doc.scalar(4, "detected_by", s.detectedBy, ScalarStyle::Quoted);
  doc.open(4, "score");
  doc.raw(6, "correct", s.score.correct ? (*s.score.correct ? "true" : "false") : "null");
  doc.raw(6, "speedup", s.score.speedup ? number(*s.score.speedup) : "null");
  doc.raw(6, "peak_fraction", s.score.peakFraction ? number(*s.score.peakFraction) : "null");
  doc.raw(6, "sources", flowList(s.score.sources));
  doc.scalar(4, "gain", s.gain, ScalarStyle::Quoted);
  if (s.permitted.empty()) {
    doc.raw(4, "permitted", "[]");
    return;
  }
  doc.open(4, "permitted");
  for (const PermittedFinding &p : s.permitted) {
    doc.item();
    doc.scalar(8, "rule", p.rule, ScalarStyle::Plain);
    doc.raw(8, "lines", lineRange(p.lines));
    doc.scalar(8, "message", p.message, ScalarStyle::Quoted);
  }
}

void writeKbaudit(Document &doc, const KbauditBlock &k) {
  doc.open(0, "kbaudit");
  doc.scalar(2, "version", k.version, ScalarStyle::Plain);
  // Quoted always: a hex digest is plain or quoted depending on its first digit otherwise.
  doc.scalar(2, "content_sha256", k.contentSha256, ScalarStyle::Quoted);
  doc.raw(2, "complete", k.complete ? "true" : "false");
  if (!k.incomplete.empty())
    doc.raw(2, "incomplete", flowList(k.incomplete));
  if (!k.fingerprint.empty())
    doc.scalar(2, "fingerprint", k.fingerprint, ScalarStyle::Quoted);
  if (k.problemDir.empty() && k.problemPrecision.empty()) {
    doc.raw(2, "problem", "null");
  } else {
    doc.open(2, "problem");
    if (!k.problemName.empty())
      doc.scalar(4, "name", k.problemName, ScalarStyle::Plain);
    doc.scalar(4, "dir", k.problemDir, ScalarStyle::Plain);
    doc.scalar(4, "precision", k.problemPrecision, ScalarStyle::Plain);
  }
  if (k.selection)
    writeSelection(doc, *k.selection);
  if (k.suite)
    writeSuite(doc, *k.suite);
  writeFindings(doc, k.findings);
  writeSkipped(doc, k.skipped);
  writeDiagnostics(doc, k.diagnostics);
  writeEmbeddedSources(doc, k.embeddedSources);
  if (k.runtime)
    writeRuntime(doc, *k.runtime);
}

} // namespace

std::string toYaml(const Annotation &a) {
  Document doc;
  doc.scalar(0, "run_id", a.runId, ScalarStyle::Plain);
  doc.scalar(0, "model", a.model, ScalarStyle::Plain);
  doc.scalar(0, "harness", a.harness, ScalarStyle::Plain);
  doc.scalar(0, "effort", a.effort, ScalarStyle::Plain);
  doc.scalar(0, "problem", a.problem, ScalarStyle::Plain);
  doc.raw(0, "peak_fraction", a.peakFraction ? number(*a.peakFraction) : "null");
  doc.blankLine();
  doc.scalar(0, "verdict", a.verdict, ScalarStyle::Plain);
  doc.blankLine();
  doc.scalar(0, "summary", a.summary, ScalarStyle::Block);
  doc.blankLine();
  writeQuotes(doc, a.quotes);
  doc.blankLine();
  // The schema requires an implication for every verdict but `clean`; an empty one is still
  // written there so a reader sees the gap instead of a missing key.
  if (!a.implication.empty() || a.verdict != "clean") {
    doc.scalar(0, "implication", a.implication, ScalarStyle::Block);
    doc.blankLine();
  }
  writeKbaudit(doc, a.kbaudit);
  return doc.take();
}

} // namespace kbaudit::annotations

#include "kbaudit/annotations/formats.h"

#include "kbaudit/annotations/terminal_text.h"

#include "json_text.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <cmath>
#include <cstdio>

namespace kbaudit::annotations {

namespace {

using json::escapeDelAndC1;
using json::str;
using json::strings;

llvm::json::Value number(double v) { return std::isfinite(v) ? llvm::json::Value(v) : llvm::json::Value(nullptr); }

llvm::json::Array lines(const LineRange &r) { return llvm::json::Array{r.begin, r.end}; }

llvm::json::Value runtimeJson(const std::optional<runtime::RuntimeReport> &report) {
  if (!report)
    return nullptr;
  const runtime::RuntimeReport &r = *report;
  llvm::json::Array probes;
  for (const runtime::ProbeOutcome &p : r.probes) {
    llvm::json::Object numbers;
    for (const auto &[k, v] : p.numbers)
      numbers[llvm::json::isUTF8(k) ? k : llvm::json::fixUTF8(k)] = number(v);
    probes.push_back(llvm::json::Object{{"name", str(p.name)},
                                        {"status", str(p.status)},
                                        {"rule", str(p.rule)},
                                        {"reason", str(p.reason)},
                                        {"numbers", std::move(numbers)},
                                        {"verified", p.verified}});
  }
  llvm::json::Array events;
  for (const runtime::RuntimeEvent &e : r.events) {
    llvm::json::Object event{{"kind", str(e.kind)}, {"detail", str(e.detail)}};
    if (!e.confidence.empty())
      event["confidence"] = str(e.confidence);
    events.push_back(std::move(event));
  }
  llvm::json::Array seeds;
  for (int s : r.seeds)
    seeds.push_back(s);
  return llvm::json::Object{{"outcome", str(r.outcome)},   {"reason", str(r.reason)},
                            {"device", str(r.device)},     {"torch", str(r.torchVersion)},
                            {"seeds", std::move(seeds)},   {"seconds", number(r.seconds)},
                            {"isolation", strings(r.isolation)}, {"notes", strings(r.notes)},
                            {"probes", std::move(probes)}, {"events", std::move(events)}};
}

llvm::json::Object findingJson(const rules::Finding &f) {
  return llvm::json::Object{
      {"rule", str(f.rule)},
      {"name", str(f.name)},
      {"category", str(f.category)},
      {"verdict_class", rules::verdictClassName(f.verdict)},
      {"confidence", rules::confidenceName(f.confidence)},
      {"term", problems::termName(f.term)},
      {"suite_note", f.suiteNote.empty() ? llvm::json::Value(nullptr) : llvm::json::Value(str(f.suiteNote))},
      {"file", str(f.file)},
      {"lines", lines(f.lines)},
      {"message", str(f.message)},
      {"evidence", str(f.evidence)},
      {"accepted", f.accepted ? llvm::json::Value(llvm::json::Object{{"reason", str(f.acceptedReason)},
                                                                     {"by", str(f.acceptedBy)}})
                              : llvm::json::Value(nullptr)}};
}

llvm::json::Object selectionJson(const RuleSelectionInfo &s) {
  return llvm::json::Object{{"source", str(s.source)},     {"config", str(s.configFile)},
                            {"select", strings(s.select)}, {"ignore", strings(s.ignore)},
                            {"disabled", strings(s.disabled)}, {"baseline", str(s.baseline)}};
}

llvm::json::Value suiteJson(const std::optional<SuiteJudgement> &s) {
  if (!s)
    return nullptr;
  llvm::json::Array permitted;
  for (const PermittedFinding &p : s->permitted)
    permitted.push_back(llvm::json::Object{{"rule", str(p.rule)}, {"lines", lines(p.lines)}, {"message", str(p.message)}});
  llvm::json::Object score{{"correct", s->score.correct ? llvm::json::Value(*s->score.correct) : llvm::json::Value(nullptr)},
                           {"speedup", s->score.speedup ? number(*s->score.speedup) : llvm::json::Value(nullptr)},
                           {"peak_fraction", s->score.peakFraction ? number(*s->score.peakFraction) : llvm::json::Value(nullptr)},
                           {"sources", strings(s->score.sources)}};
  return llvm::json::Object{{"id", str(s->id)},
                            {"version", s->version},
                            {"name", str(s->name)},
                            {"profile", str(s->file)},
                            {"detected_by", str(s->detectedBy)},
                            {"score", std::move(score)},
                            {"gain", str(s->gain)},
                            {"permitted", std::move(permitted)}};
}

llvm::json::Object kbauditJson(const KbauditBlock &k) {
  llvm::json::Array findings;
  for (const rules::Finding &f : k.findings)
    findings.push_back(findingJson(f));
  llvm::json::Array skipped;
  for (const rules::SkippedRule &s : k.skipped)
    skipped.push_back(llvm::json::Object{{"rule", str(s.rule)}, {"reason", str(s.reason)}});
  llvm::json::Array diags;
  for (const Diagnostic &d : k.diagnostics)
    diags.push_back(llvm::json::Object{{"severity", severityName(d.severity)},
                                       {"code", str(d.code)},
                                       {"message", str(d.message)},
                                       {"file", str(d.file)},
                                       {"lines", lines(d.lines)}});
  llvm::json::Array sources;
  for (const EmbeddedSourceInfo &s : k.embeddedSources)
    sources.push_back(llvm::json::Object{{"origin", str(s.origin)},
                                         {"language", str(s.language)},
                                         {"lines", lines(s.lines)},
                                         {"line_count", s.lineCount},
                                         {"complete", s.complete}});
  llvm::json::Value selection = nullptr;
  if (k.selection)
    selection = selectionJson(*k.selection);
  llvm::json::Object problem;
  if (!k.problemDir.empty())
    problem = llvm::json::Object{
        {"name", str(k.problemName)}, {"dir", str(k.problemDir)}, {"precision", str(k.problemPrecision)}};
  llvm::json::Array incomplete;
  for (const std::string &why : k.incomplete)
    incomplete.push_back(str(why));
  return llvm::json::Object{{"version", str(k.version)},
                            {"content_sha256", str(k.contentSha256)},
                            {"complete", k.complete},
                            {"incomplete", std::move(incomplete)},
                            {"fingerprint", str(k.fingerprint)},
                            {"problem", k.problemDir.empty() ? llvm::json::Value(nullptr)
                                                             : llvm::json::Value(std::move(problem))},
                            {"selection", std::move(selection)},
                            {"suite", suiteJson(k.suite)},
                            {"findings", std::move(findings)},
                            {"skipped", std::move(skipped)},
                            {"diagnostics", std::move(diags)},
                            {"embedded_sources", std::move(sources)},
                            {"runtime", runtimeJson(k.runtime)}};
}

llvm::json::Object annotationJson(const Annotation &a) {
  llvm::json::Array quotes;
  for (const Quote &q : a.quotes)
    quotes.push_back(
        llvm::json::Object{{"file", str(q.file)}, {"lines", lines(q.lines)}, {"label", str(q.label)}, {"text", str(q.text)}});
  return llvm::json::Object{{"schema_version", kJsonSchemaVersion},
                            {"run_id", str(a.runId)},
                            {"model", str(a.model)},
                            {"harness", str(a.harness)},
                            {"effort", str(a.effort)},
                            {"problem", str(a.problem)},
                            {"peak_fraction", a.peakFraction ? number(*a.peakFraction) : llvm::json::Value(nullptr)},
                            {"verdict", str(a.verdict)},
                            {"summary", str(a.summary)},
                            {"quotes", std::move(quotes)},
                            {"implication", str(a.implication)},
                            {"kbaudit", kbauditJson(a.kbaudit)}};
}

std::string render(llvm::json::Value value) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", value) << "\n";
  return escapeDelAndC1(os.str());
}

} // namespace

std::string toJson(const Annotation &a) { return render(annotationJson(a)); }

std::string toJsonList(const std::vector<Annotation> &annotations) {
  llvm::json::Array all;
  for (const Annotation &a : annotations)
    all.push_back(annotationJson(a));
  return render(std::move(all));
}

std::string toText(const Annotation &a) {
  // Appended piece by piece: every input-derived piece goes through terminalSafe.
  std::string out;
  const auto put = [&out](std::initializer_list<std::string_view> pieces) {
    for (std::string_view p : pieces)
      out += p;
  };
  const auto t = [](const std::string &s) { return terminalSafe(s); };
  put({t(a.runId), ": ", t(a.verdict), "\n  ", t(a.summary), "\n"});
  if (!a.implication.empty())
    put({"  implication: ", t(a.implication), "\n"});
  for (const rules::Finding &f : a.kbaudit.findings) {
    put({"  ", t(f.file), ":", std::to_string(f.lines.begin), ": ", t(f.rule), " ", t(f.name), " [",
         rules::verdictClassName(f.verdict), ", ", rules::confidenceName(f.confidence), "] ", t(f.message)});
    if (!f.evidence.empty())
      put({" (", t(f.evidence), ")"});
    if (!f.suiteNote.empty())
      put({" [suite: ", t(f.suiteNote), "]"});
    out += "\n";
  }
  if (a.kbaudit.suite)
    put({"  suite: ", t(a.kbaudit.suite->id), " (", t(a.kbaudit.suite->detectedBy), "); ", t(a.kbaudit.suite->gain), "\n"});
  for (const rules::SkippedRule &s : a.kbaudit.skipped)
    put({"  skipped ", t(s.rule), ": ", t(s.reason), "\n"});
  for (const Diagnostic &d : a.kbaudit.diagnostics) {
    put({"  ", t(d.file)});
    if (d.lines.valid())
      put({":", std::to_string(d.lines.begin)});
    put({": ", severityName(d.severity), ": ", t(d.code), ": ", t(d.message), "\n"});
  }
  return out;
}

} // namespace kbaudit::annotations

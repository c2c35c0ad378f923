#include "kbaudit/annotations/formats.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

namespace kbaudit::annotations {

namespace {

llvm::json::Array lines(const LineRange &r) { return llvm::json::Array{r.begin, r.end}; }

llvm::json::Object kbauditJson(const KbauditBlock &k) {
  llvm::json::Array findings;
  for (const rules::Finding &f : k.findings)
    findings.push_back(llvm::json::Object{{"rule", f.rule},
                                          {"name", f.name},
                                          {"category", f.category},
                                          {"verdict_class", rules::verdictClassName(f.verdict)},
                                          {"confidence", rules::confidenceName(f.confidence)},
                                          {"file", f.file},
                                          {"lines", lines(f.lines)},
                                          {"message", f.message},
                                          {"evidence", f.evidence}});
  llvm::json::Array skipped;
  for (const rules::SkippedRule &s : k.skipped)
    skipped.push_back(llvm::json::Object{{"rule", s.rule}, {"reason", s.reason}});
  llvm::json::Array diags;
  for (const Diagnostic &d : k.diagnostics)
    diags.push_back(llvm::json::Object{{"severity", severityName(d.severity)},
                                       {"code", d.code},
                                       {"message", d.message},
                                       {"file", d.file},
                                       {"lines", lines(d.lines)}});
  llvm::json::Array sources;
  for (const EmbeddedSourceInfo &s : k.embeddedSources)
    sources.push_back(llvm::json::Object{{"origin", s.origin},
                                         {"language", s.language},
                                         {"lines", lines(s.lines)},
                                         {"line_count", s.lineCount},
                                         {"complete", s.complete}});
  llvm::json::Object problem;
  if (!k.problemDir.empty())
    problem = llvm::json::Object{{"dir", k.problemDir}, {"precision", k.problemPrecision}};
  return llvm::json::Object{{"version", k.version},
                            {"content_sha256", k.contentSha256},
                            {"problem", k.problemDir.empty() ? llvm::json::Value(nullptr)
                                                             : llvm::json::Value(std::move(problem))},
                            {"findings", std::move(findings)},
                            {"skipped", std::move(skipped)},
                            {"diagnostics", std::move(diags)},
                            {"embedded_sources", std::move(sources)}};
}

} // namespace

std::string toJson(const Annotation &a) {
  llvm::json::Array quotes;
  for (const Quote &q : a.quotes)
    quotes.push_back(llvm::json::Object{{"file", q.file}, {"lines", lines(q.lines)}, {"label", q.label}, {"text", q.text}});
  llvm::json::Object root{{"run_id", a.runId},
                          {"model", a.model},
                          {"harness", a.harness},
                          {"effort", a.effort},
                          {"problem", a.problem},
                          {"peak_fraction", a.peakFraction ? llvm::json::Value(*a.peakFraction) : llvm::json::Value(nullptr)},
                          {"verdict", a.verdict},
                          {"summary", a.summary},
                          {"quotes", std::move(quotes)},
                          {"implication", a.implication},
                          {"kbaudit", kbauditJson(a.kbaudit)}};
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  return os.str();
}

std::string toText(const Annotation &a) {
  std::string out = a.runId + ": " + a.verdict + "\n  " + a.summary + "\n";
  if (!a.implication.empty())
    out += "  implication: " + a.implication + "\n";
  for (const rules::Finding &f : a.kbaudit.findings) {
    out += "  " + f.file + ":" + std::to_string(f.lines.begin) + ": " + f.rule + " " + f.name + " [" +
           rules::verdictClassName(f.verdict) + ", " + rules::confidenceName(f.confidence) + "] " + f.message;
    if (!f.evidence.empty())
      out += " (" + f.evidence + ")";
    out += "\n";
  }
  for (const rules::SkippedRule &s : a.kbaudit.skipped)
    out += "  skipped " + s.rule + ": " + s.reason + "\n";
  for (const Diagnostic &d : a.kbaudit.diagnostics) {
    out += "  " + d.file + (d.lines.valid() ? ":" + std::to_string(d.lines.begin) : std::string()) + ": " +
           severityName(d.severity) + ": " + d.code + ": " + d.message + "\n";
  }
  return out;
}

} // namespace kbaudit::annotations

#include "kbaudit/annotations/sarif.h"

#include "kbaudit/rules/rule_meta.h"

#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

namespace kbaudit::annotations {

namespace {

std::string level(const rules::Finding &f) {
  if (f.confidence == rules::Confidence::Low || f.verdict == rules::VerdictClass::Review)
    return "note";
  return "error";
}

std::string defaultLevel(const rules::RuleMeta &m) {
  return m.verdict == rules::VerdictClass::Review || m.confidence == rules::Confidence::Low ? "note" : "error";
}

llvm::json::Object driver(const std::string &docBase, const std::string &version) {
  llvm::json::Array rulesJson;
  for (const rules::RuleMeta &m : rules::catalogue())
    rulesJson.push_back(llvm::json::Object{
        {"id", m.id},
        {"name", m.name},
        {"shortDescription", llvm::json::Object{{"text", m.summary}}},
        {"fullDescription", llvm::json::Object{{"text", m.rationale}}},
        {"help", llvm::json::Object{{"text", m.implication}}},
        {"helpUri", docBase + m.id + ".md"},
        {"defaultConfiguration", llvm::json::Object{{"level", defaultLevel(m)}}},
        {"properties", llvm::json::Object{{"category", m.category},
                                          {"verdict_class", rules::verdictClassName(m.verdict)},
                                          {"tags", llvm::json::Array{m.category, rules::verdictClassName(m.verdict)}}}}});
  return llvm::json::Object{{"name", "kbaudit"},
                            {"version", version},
                            {"informationUri", docBase + "../../README.md"},
                            {"rules", std::move(rulesJson)}};
}

int ruleIndex(const std::string &id) {
  const auto &all = rules::catalogue();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].id == id)
      return static_cast<int>(i);
  return -1;
}

llvm::json::Object result(const rules::Finding &f, const std::string &artifact) {
  llvm::json::Object physical{{"artifactLocation", llvm::json::Object{{"uri", artifact}}}};
  // SARIF regions need startLine >= 1; findings without lines (runtime evidence) point at the file.
  if (f.lines.valid())
    physical["region"] = llvm::json::Object{{"startLine", f.lines.begin}, {"endLine", f.lines.end}};
  llvm::json::Object r{{"ruleId", f.rule},
                       {"level", level(f)},
                       {"message", llvm::json::Object{{"text", f.message}}},
                       {"locations", llvm::json::Array{llvm::json::Object{{"physicalLocation", std::move(physical)}}}},
                       {"properties", llvm::json::Object{{"confidence", rules::confidenceName(f.confidence)},
                                                         {"verdict_class", rules::verdictClassName(f.verdict)},
                                                         {"evidence", f.evidence}}}};
  if (const int index = ruleIndex(f.rule); index >= 0)
    r["ruleIndex"] = index;
  if (f.accepted)
    r["suppressions"] = llvm::json::Array{llvm::json::Object{
        {"kind", "external"}, {"status", "accepted"}, {"justification", f.acceptedReason + " (" + f.acceptedBy + ")"}}};
  return r;
}

std::string defaultDocBase() {
#ifdef KBAUDIT_DOCS_DIR
  return std::string("file://") + KBAUDIT_DOCS_DIR + "/";
#else
  return "docs/rules/";
#endif
}

} // namespace

std::string toSarif(const std::vector<Annotation> &annotations, const std::vector<std::string> &artifactPaths,
                    const std::string &docBaseUrl) {
  const std::string docBase = docBaseUrl.empty() ? defaultDocBase() : docBaseUrl;
  const std::string version = annotations.empty() ? "" : annotations.front().kbaudit.version;
  llvm::json::Array results;
  llvm::json::Array verdicts;
  for (std::size_t i = 0; i < annotations.size(); ++i) {
    const Annotation &a = annotations[i];
    const std::string artifact = i < artifactPaths.size() ? artifactPaths[i] : "solution.py";
    for (const rules::Finding &f : a.kbaudit.findings)
      results.push_back(result(f, artifact));
    verdicts.push_back(llvm::json::Object{{"run_id", a.runId}, {"artifact", artifact}, {"verdict", a.verdict},
                                          {"summary", a.summary}});
  }
  llvm::json::Object run{{"tool", llvm::json::Object{{"driver", driver(docBase, version)}}},
                         {"results", std::move(results)},
                         {"columnKind", "utf16CodeUnits"},
                         {"properties", llvm::json::Object{{"kbaudit", std::move(verdicts)}}}};
  llvm::json::Object root{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                          {"version", "2.1.0"},
                          {"runs", llvm::json::Array{std::move(run)}}};
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root)));
  os.flush();
  return out + "\n";
}

} // namespace kbaudit::annotations

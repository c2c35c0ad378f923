#include "kbaudit/annotations/sarif.h"

#include "kbaudit/rules/rule_meta.h"

#include "json_text.h"

#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <cctype>

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

/// `docBase` empty: no helpUri at all. A default pointing into this build's checkout
/// (file:///home/ci/kbaudit/docs/rules/...) would be a dead link on every other machine; the
/// help text says where the page is instead.
llvm::json::Object driver(const std::string &docBase, const std::string &version) {
  llvm::json::Array rulesJson;
  for (const rules::RuleMeta &m : rules::catalogue()) {
    llvm::json::Object rule{
        {"id", m.id},
        {"name", m.name},
        {"shortDescription", llvm::json::Object{{"text", m.summary}}},
        {"fullDescription", llvm::json::Object{{"text", m.rationale}}},
        {"help", llvm::json::Object{{"text", m.implication + " (kbaudit explain " + m.id + "; docs/rules/" + m.id + ".md)"},
                                    {"markdown", m.implication + "\n\n`kbaudit explain " + m.id + "` prints the rule's page (`docs/rules/" + m.id + ".md` in kbaudit's repository)."}}},
        {"defaultConfiguration", llvm::json::Object{{"level", defaultLevel(m)}}},
        {"properties", llvm::json::Object{{"category", m.category},
                                          {"verdict_class", rules::verdictClassName(m.verdict)},
                                          {"term", problems::termName(m.term)},
                                          {"tags", llvm::json::Array{m.category, rules::verdictClassName(m.verdict)}}}}};
    if (!docBase.empty())
      rule["helpUri"] = docBase + m.id + ".md";
    rulesJson.push_back(std::move(rule));
  }
  llvm::json::Object d{{"name", "kbaudit"},
                       {"fullName", "kbaudit " + version + " (reward-hacking auditor for GPU-kernel benchmark submissions)"},
                       {"version", version},
                       {"semanticVersion", version},
                       {"rules", std::move(rulesJson)}};
  if (!docBase.empty())
    d["informationUri"] = docBase;
  return d;
}

/// What was run and with which rules: a gate whose rules a config file switched off says so
/// here, where code-scanning UIs show it, and not only in kbaudit's own output.
llvm::json::Object invocation(const std::vector<Annotation> &annotations) {
  bool ok = true;
  llvm::json::Array notifications;
  for (const Annotation &a : annotations)
    for (const Diagnostic &d : a.kbaudit.diagnostics)
      if (d.severity == Diagnostic::Severity::Error) {
        ok = false;
        notifications.push_back(llvm::json::Object{
            {"level", "error"},
            {"descriptor", llvm::json::Object{{"id", json::str(d.code)}}},
            {"message", llvm::json::Object{{"text", json::str(a.runId + ": " + d.message)}}}});
      }
  llvm::json::Object props;
  if (!annotations.empty() && annotations.front().kbaudit.selection) {
    const RuleSelectionInfo &s = *annotations.front().kbaudit.selection;
    props = llvm::json::Object{{"selection_source", s.source}, {"config_file", json::str(s.configFile)},
                               {"select", json::strings(s.select)},  {"ignore", json::strings(s.ignore)},
                               {"rules_disabled", json::strings(s.disabled)}, {"baseline", json::str(s.baseline)}};
  }
  llvm::json::Object inv{{"executionSuccessful", ok}, {"properties", std::move(props)}};
  if (!notifications.empty())
    inv["toolExecutionNotifications"] = std::move(notifications);
  return inv;
}

int ruleIndex(const std::string &id) {
  const auto &all = rules::catalogue();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].id == id)
      return static_cast<int>(i);
  return -1;
}

/// A path as a SARIF artifact URI: percent-encoded (RFC 3986), `file://` for an absolute path,
/// relative (to %SRCROOT%, the checkout) otherwise.
std::string artifactUri(const std::string &path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri = !path.empty() && path.front() == '/' ? "file://" : "";
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 15];
    }
  }
  return uri;
}

llvm::json::Object result(const rules::Finding &f, const std::string &artifact) {
  const std::string uri = artifactUri(artifact);
  llvm::json::Object location{{"uri", uri}};
  if (uri.rfind("file://", 0) != 0)
    location["uriBaseId"] = "%SRCROOT%";
  llvm::json::Object physical{{"artifactLocation", std::move(location)}};
  // SARIF regions need startLine >= 1; findings without lines (runtime evidence) point at the file.
  if (f.lines.valid())
    physical["region"] = llvm::json::Object{{"startLine", f.lines.begin}, {"endLine", f.lines.end}};
  llvm::json::Object r{{"ruleId", f.rule},
                       {"level", level(f)},
                       {"message", llvm::json::Object{{"text", json::str(f.message)}}},
                       {"locations", llvm::json::Array{llvm::json::Object{{"physicalLocation", std::move(physical)}}}},
                       {"properties", llvm::json::Object{{"confidence", rules::confidenceName(f.confidence)},
                                                         {"verdict_class", rules::verdictClassName(f.verdict)},
                                                         {"term", problems::termName(f.term)},
                                                         {"suite_note", json::str(f.suiteNote)},
                                                         {"evidence", json::str(f.evidence)}}}};
  if (const int index = ruleIndex(f.rule); index >= 0)
    r["ruleIndex"] = index;
  if (f.accepted)
    r["suppressions"] = llvm::json::Array{llvm::json::Object{
        {"kind", "external"}, {"status", "accepted"}, {"justification", json::str(f.acceptedReason + " (" + f.acceptedBy + ")")}}};
  return r;
}

} // namespace

std::string toSarif(const std::vector<Annotation> &annotations, const std::vector<std::string> &artifactPaths,
                    const std::string &docBaseUrl) {
  const std::string &docBase = docBaseUrl;
  const std::string version = annotations.empty() ? "" : annotations.front().kbaudit.version;
  llvm::json::Array results;
  llvm::json::Array verdicts;
  for (std::size_t i = 0; i < annotations.size(); ++i) {
    const Annotation &a = annotations[i];
    const std::string artifact = i < artifactPaths.size() ? artifactPaths[i] : "solution.py";
    for (const rules::Finding &f : a.kbaudit.findings)
      results.push_back(result(f, artifact));
    verdicts.push_back(llvm::json::Object{{"run_id", json::str(a.runId)}, {"artifact", artifactUri(artifact)}, {"verdict", a.verdict},
                                          {"summary", json::str(a.summary)}});
  }
  llvm::json::Object run{{"tool", llvm::json::Object{{"driver", driver(docBase, version)}}},
                         {"invocations", llvm::json::Array{invocation(annotations)}},
                         {"automationDetails", llvm::json::Object{{"id", "kbaudit/"}}},
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
  return json::escapeDelAndC1(out) + "\n";
}

} // namespace kbaudit::annotations

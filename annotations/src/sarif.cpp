#include "kbaudit/annotations/sarif.h"

#include "kbaudit/rules/rule_meta.h"

#include "json_text.h"

#include "kbaudit/source/sha256.h"

#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <cctype>
#include <map>
#include <optional>

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

/// GitHub's `problem.severity` (error, warning, recommendation): what a code-scanning alert
/// shows for a rule that is not tagged `security`.
std::string problemSeverity(const rules::RuleMeta &m) {
  if (m.verdict == rules::VerdictClass::Review)
    return "recommendation";
  return m.confidence == rules::Confidence::Low ? "warning" : "error";
}

/// GitHub's `precision` (very-high, high, medium, low): how often the rule is right when it
/// fires. kbaudit's rule confidence says the same; no rule claims very-high.
std::string precision(const rules::RuleMeta &m) { return rules::confidenceName(m.confidence); }

/// `security-severity` only for the rules that attack the evaluation itself: forging, reading
/// or editing the grader and its channels (8.0, "high" in GitHub's bands) and patching or
/// escaping the timer (6.0, "medium"). The other rules are about what the score means (a
/// memoised output, a library call), not an attack, and stay plain quality alerts.
std::optional<std::string> securitySeverity(const rules::RuleMeta &m) {
  if (m.term == problems::Term::Grader)
    return std::string("8.0");
  if (m.term == problems::Term::Timing)
    return std::string("6.0");
  return std::nullopt;
}

std::string firstSentence(const std::string &text) {
  const std::size_t end = text.find(". ");
  return end == std::string::npos ? text : text.substr(0, end + 1);
}

/// `docBase` empty: no helpUri at all. A default pointing into this build's checkout
/// (file:///home/ci/kbaudit/docs/rules/...) would be a dead link on every other machine; the
/// help text says where the page is instead.
llvm::json::Object ruleDescriptor(const rules::RuleMeta &m, const std::string &docBase) {
  const std::string pointer = "kbaudit explain " + m.id + " prints the rule's page (docs/rules/" + m.id + ".md).";
  llvm::json::Array tags{m.category, rules::verdictClassName(m.verdict)};
  llvm::json::Object props{{"category", m.category},
                           {"verdict_class", rules::verdictClassName(m.verdict)},
                           {"term", problems::termName(m.term)},
                           {"precision", precision(m)},
                           {"problem.severity", problemSeverity(m)}};
  if (const auto severity = securitySeverity(m)) {
    props["security-severity"] = *severity;
    tags.push_back("security");
  }
  props["tags"] = std::move(tags);
  llvm::json::Object rule{
      {"id", m.id},
      {"name", clipText(m.name, kSarifMaxRuleName)},
      {"shortDescription", llvm::json::Object{{"text", clipText(firstSentence(m.summary), kSarifMaxDescription)}}},
      {"fullDescription", llvm::json::Object{{"text", clipText(m.summary, kSarifMaxDescription)}}},
      // The whole text has no limit here: GitHub shows it under "Show more" on the alert.
      {"help", llvm::json::Object{{"text", m.summary + "\n\n" + m.rationale + "\n\n" + m.implication + "\n\n" + pointer},
                                  {"markdown", m.summary + "\n\n" + m.rationale + "\n\n**What it means for the score.** " +
                                                   m.implication + "\n\n`kbaudit explain " + m.id +
                                                   "` prints the rule's page (`docs/rules/" + m.id + ".md`)."}}},
      {"defaultConfiguration", llvm::json::Object{{"level", defaultLevel(m)}}},
      {"properties", std::move(props)}};
  if (!docBase.empty())
    rule["helpUri"] = docBase + m.id + ".md";
  return rule;
}

llvm::json::Object driver(const std::string &docBase, const std::string &version) {
  llvm::json::Array rulesJson;
  for (const rules::RuleMeta &m : rules::catalogue())
    rulesJson.push_back(ruleDescriptor(m, docBase));
  llvm::json::Object d{{"name", "kbaudit"},
                       {"fullName", "kbaudit " + version + " (reward-hacking auditor for GPU-kernel benchmark submissions)"},
                       {"rules", std::move(rulesJson)}};
  if (!version.empty()) {
    d["version"] = json::str(version);
    d["semanticVersion"] = json::str(version);
  }
  if (!docBase.empty())
    d["informationUri"] = docBase;
  return d;
}

/// What was run and with which rules: a gate whose rules a config file switched off says so
/// here, where code-scanning UIs show it, and not only in kbaudit's own output.
llvm::json::Object invocation(const std::vector<CheckedFile> &files) {
  bool ok = true;
  llvm::json::Array notifications;
  for (const CheckedFile &file : files)
    for (const Diagnostic &d : file.annotation.kbaudit.diagnostics)
      if (d.severity == Diagnostic::Severity::Error) {
        ok = false;
        notifications.push_back(llvm::json::Object{
            {"level", "error"},
            {"descriptor", llvm::json::Object{{"id", json::str(d.code)}}},
            {"message", llvm::json::Object{{"text", json::str(file.annotation.runId + ": " + d.message)}}}});
      }
  llvm::json::Object props;
  if (!files.empty() && files.front().annotation.kbaudit.selection) {
    const RuleSelectionInfo &s = *files.front().annotation.kbaudit.selection;
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

/// Whitespace runs collapsed to one space and trimmed: re-indenting a line keeps its alerts.
std::string normalised(std::string_view line) {
  std::string out;
  bool space = false;
  for (const char c : line) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      space = !out.empty();
      continue;
    }
    if (space)
      out += ' ';
    space = false;
    out += c;
  }
  return out;
}

/// Counts, per file, rule and normalised line, the findings seen so far: the occurrence index
/// that keeps two identical lines' alerts apart without naming their line numbers.
using Occurrences = std::map<std::string, unsigned>;

llvm::json::Object result(const CheckedFile &file, const rules::Finding &f, Occurrences &seen) {
  const std::string path = file.pathOf(f.file);
  const std::string uri = artifactUri(path);
  llvm::json::Object location{{"uri", uri}};
  if (uri.rfind("file://", 0) != 0)
    location["uriBaseId"] = "%SRCROOT%";
  llvm::json::Object physical{{"artifactLocation", std::move(location)}};
  const std::string *text = file.sourceOf(f.file);
  // SARIF regions need startLine >= 1; findings without lines (runtime evidence) point at the file.
  if (f.lines.valid()) {
    llvm::json::Object region{{"startLine", f.lines.begin}, {"endLine", f.lines.end}};
    if (text) {
      const Span span = spanOf(*text, f.lines, ColumnUnit::Utf16);
      if (span.startColumn) {
        region["startColumn"] = span.startColumn;
        region["endColumn"] = span.endColumn;
      }
    }
    physical["region"] = std::move(region);
  }
  const std::string anchor = text && f.lines.valid() ? "line:" + normalised(lineOf(*text, f.lines.begin))
                                                     : "message:" + f.message;
  const std::string key = path + '\0' + f.rule + '\0' + anchor;
  const unsigned occurrence = seen[key]++;
  const std::string fingerprint = sha256Hex(f.rule + '\0' + anchor + '\0' + std::to_string(occurrence)).substr(0, 32);
  llvm::json::Object r{{"ruleId", f.rule},
                       {"level", level(f)},
                       {"message", llvm::json::Object{{"text", json::str(f.message)}}},
                       {"locations", llvm::json::Array{llvm::json::Object{{"physicalLocation", std::move(physical)}}}},
                       {"partialFingerprints", llvm::json::Object{{kSarifFingerprintKey, fingerprint}}},
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

std::string toSarif(const std::vector<CheckedFile> &files, const std::string &docBaseUrl) {
  const std::string version = files.empty() ? "" : files.front().annotation.kbaudit.version;
  llvm::json::Array results;
  llvm::json::Array verdicts;
  Occurrences seen;
  for (const CheckedFile &file : files) {
    const Annotation &a = file.annotation;
    for (const rules::Finding &f : a.kbaudit.findings)
      results.push_back(result(file, f, seen));
    verdicts.push_back(llvm::json::Object{{"run_id", json::str(a.runId)}, {"artifact", artifactUri(file.path)},
                                          {"verdict", a.verdict}, {"summary", json::str(a.summary)}});
  }
  // %SRCROOT% is declared without a uri: the checkout's absolute path would name the build
  // machine, and GitHub resolves relative URIs against the repository root anyway.
  llvm::json::Object baseIds{
      {"%SRCROOT%", llvm::json::Object{{"description", llvm::json::Object{{"text",
          "The repository checkout: the directory kbaudit ran in, which relative artifact URIs are below."}}}}}};
  llvm::json::Object run{{"tool", llvm::json::Object{{"driver", driver(docBaseUrl, version)}}},
                         {"invocations", llvm::json::Array{invocation(files)}},
                         {"automationDetails", llvm::json::Object{{"id", "kbaudit/"}}},
                         {"originalUriBaseIds", std::move(baseIds)},
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

std::string toSarif(const std::vector<Annotation> &annotations, const std::vector<std::string> &artifactPaths,
                    const std::string &docBaseUrl) {
  std::vector<CheckedFile> files;
  for (std::size_t i = 0; i < annotations.size(); ++i)
    files.push_back(CheckedFile{annotations[i], i < artifactPaths.size() ? artifactPaths[i] : "solution.py", {}});
  return toSarif(files, docBaseUrl);
}

} // namespace kbaudit::annotations

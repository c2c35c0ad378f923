#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/source/data_file.h"

#include <cstdlib>
#include <yaml-cpp/yaml.h>

#include <stdexcept>

namespace kbaudit::annotations {

namespace {

// Human files are loosely typed (`effort: null`, prose where a word was expected), so schema
// fields are read leniently: a missing or null field is "", and structure where text belongs
// is kept as its YAML text rather than dropped.
std::string text(const YAML::Node &map, const char *key) {
  const YAML::Node n = map[key];
  if (!n || n.IsNull())
    return "";
  if (n.IsScalar())
    return n.Scalar();
  return YAML::Dump(n);
}

// A line number that is not a positive integer means "no location" rather than a bad file:
// locations are hints for a reader, not data anything else depends on.
unsigned lineNumber(const YAML::Node &n) {
  long v = 0;
  if (!n.IsScalar() || !YAML::convert<long>::decode(n, v) || v <= 0)
    return 0;
  return static_cast<unsigned>(v);
}

// Humans write `[start, end]` or `[N]`; kbaudit writes `null` for "no location".
LineRange lineRange(const YAML::Node &n) {
  LineRange r;
  if (!n || n.IsNull())
    return r;
  if (n.IsScalar()) {
    r.begin = r.end = lineNumber(n);
    return r;
  }
  if (n.IsSequence() && n.size() >= 1) {
    r.begin = lineNumber(n[0]);
    r.end = n.size() >= 2 ? lineNumber(n[1]) : r.begin;
  }
  return r;
}

// A peak fraction that is not a number ("n/a", a note) is as good as unknown.
std::optional<double> peakFraction(const YAML::Node &n) {
  if (!n || !n.IsScalar())
    return std::nullopt;
  double v = 0;
  if (YAML::convert<double>::decode(n, v))
    return v;
  return std::nullopt;
}

std::vector<Quote> quotes(const YAML::Node &n) {
  std::vector<Quote> out;
  if (!n || !n.IsSequence())
    return out;
  for (const YAML::Node &item : n) {
    if (!item.IsMap())
      continue;
    Quote q;
    if (item["file"])
      q.file = text(item, "file");
    q.lines = lineRange(item["lines"]);
    q.label = text(item, "label");
    q.text = text(item, "text");
    out.push_back(std::move(q));
  }
  return out;
}

// The kbaudit block is machine-written, so an unknown enum word means a newer or damaged file;
// guessing a default would silently misreport it.
[[noreturn]] void unknownWord(const char *field, const std::string &word) {
  throw std::runtime_error("annotation YAML: unknown " + std::string(field) + " '" + word + "'");
}

rules::VerdictClass verdictClass(const std::string &word) {
  for (auto v : {rules::VerdictClass::RewardHack, rules::VerdictClass::RubricLeak,
                 rules::VerdictClass::Review})
    if (word == rules::verdictClassName(v))
      return v;
  unknownWord("verdict_class", word);
}

rules::Confidence confidence(const std::string &word) {
  for (auto c : {rules::Confidence::Low, rules::Confidence::Medium, rules::Confidence::High})
    if (word == rules::confidenceName(c))
      return c;
  unknownWord("confidence", word);
}

Diagnostic::Severity severity(const std::string &word) {
  for (auto s :
       {Diagnostic::Severity::Note, Diagnostic::Severity::Warning, Diagnostic::Severity::Error})
    if (word == severityName(s))
      return s;
  unknownWord("severity", word);
}

// Each list in the kbaudit block: a sequence of mappings, or absent/null/[] for none.
template <typename T, typename Read>
std::vector<T> list(const YAML::Node &block, const char *key, Read read) {
  std::vector<T> out;
  const YAML::Node n = block[key];
  if (!n || n.IsNull())
    return out;
  if (!n.IsSequence())
    throw std::runtime_error(std::string("annotation YAML: kbaudit.") + key + " is not a list");
  for (const YAML::Node &item : n) {
    if (!item.IsMap())
      throw std::runtime_error(std::string("annotation YAML: kbaudit.") + key +
                               " holds a non-mapping");
    out.push_back(read(item));
  }
  return out;
}

rules::Finding finding(const YAML::Node &n) {
  rules::Finding f;
  f.rule = text(n, "rule");
  f.name = text(n, "name");
  f.category = text(n, "category");
  f.verdict = verdictClass(text(n, "verdict_class"));
  f.confidence = confidence(text(n, "confidence"));
  if (auto t = problems::termNamed(text(n, "term")))
    f.term = *t;
  f.suiteNote = text(n, "suite_note");
  f.lines = lineRange(n["lines"]);
  if (n["file"])
    f.file = text(n, "file");
  f.message = text(n, "message");
  f.evidence = text(n, "evidence");
  if (const YAML::Node acc = n["accepted"]; acc && acc.IsMap()) {
    f.accepted = true;
    f.acceptedReason = text(acc, "reason");
    f.acceptedBy = text(acc, "by");
  }
  return f;
}

rules::SkippedRule skippedRule(const YAML::Node &n) {
  return rules::SkippedRule{text(n, "rule"), text(n, "reason")};
}

Diagnostic diagnostic(const YAML::Node &n) {
  Diagnostic d;
  d.severity = severity(text(n, "severity"));
  d.code = text(n, "code");
  d.message = text(n, "message");
  if (n["file"])
    d.file = text(n, "file");
  d.lines = lineRange(n["lines"]);
  return d;
}

EmbeddedSourceInfo embeddedSource(const YAML::Node &n) {
  EmbeddedSourceInfo e;
  e.origin = text(n, "origin");
  e.language = text(n, "language");
  e.lines = lineRange(n["lines"]);
  if (n["line_count"])
    e.lineCount = n["line_count"].as<unsigned>();
  if (n["complete"])
    e.complete = n["complete"].as<bool>();
  return e;
}

std::vector<std::string> stringList(const YAML::Node &n) {
  std::vector<std::string> out;
  if (n && n.IsSequence())
    for (const YAML::Node &item : n)
      out.push_back(item.as<std::string>());
  return out;
}

RuleSelectionInfo selection(const YAML::Node &n) {
  RuleSelectionInfo s;
  s.source = text(n, "source");
  s.configFile = text(n, "config");
  s.select = stringList(n["select"]);
  s.ignore = stringList(n["ignore"]);
  s.disabled = stringList(n["disabled"]);
  s.baseline = text(n, "baseline");
  return s;
}

SuiteJudgement suiteJudgement(const YAML::Node &n) {
  SuiteJudgement s;
  s.id = text(n, "id");
  s.name = text(n, "name");
  s.file = text(n, "profile");
  s.detectedBy = text(n, "detected_by");
  s.gain = text(n, "gain");
  if (const YAML::Node v = n["version"]; v && v.IsScalar())
    s.version = static_cast<unsigned>(std::strtoul(v.Scalar().c_str(), nullptr, 10));
  if (const YAML::Node score = n["score"]; score && score.IsMap()) {
    bool b = false;
    if (const YAML::Node c = score["correct"]; c && c.IsScalar() && YAML::convert<bool>::decode(c, b))
      s.score.correct = b;
    double d = 0;
    if (const YAML::Node sp = score["speedup"]; sp && sp.IsScalar() && YAML::convert<double>::decode(sp, d))
      s.score.speedup = d;
    if (const YAML::Node pf = score["peak_fraction"]; pf && pf.IsScalar() && YAML::convert<double>::decode(pf, d))
      s.score.peakFraction = d;
    s.score.sources = stringList(score["sources"]);
  }
  if (const YAML::Node p = n["permitted"]; p && p.IsSequence())
    for (const YAML::Node &item : p)
      if (item.IsMap())
        s.permitted.push_back(PermittedFinding{text(item, "rule"), lineRange(item["lines"]), text(item, "message")});
  return s;
}

KbauditBlock kbauditBlock(const YAML::Node &n) {
  KbauditBlock k;
  if (!n.IsMap())
    throw std::runtime_error("annotation YAML: kbaudit is not a mapping");
  k.version = text(n, "version");
  k.contentSha256 = text(n, "content_sha256");
  // Absent in annotations of earlier versions: they claimed nothing about completeness.
  if (const YAML::Node c = n["complete"]; c && c.IsScalar()) {
    bool b = true;
    if (!YAML::convert<bool>::decode(c, b))
      unknownWord("complete", c.Scalar());
    k.complete = b;
  }
  k.incomplete = stringList(n["incomplete"]);
  k.fingerprint = text(n, "fingerprint");
  const YAML::Node problem = n["problem"];
  if (problem && problem.IsMap()) {
    k.problemName = text(problem, "name");
    k.problemDir = text(problem, "dir");
    k.problemPrecision = text(problem, "precision");
  }
  if (const YAML::Node sel = n["selection"]; sel && sel.IsMap())
    k.selection = selection(sel);
  if (const YAML::Node suite = n["suite"]; suite && suite.IsMap())
    k.suite = suiteJudgement(suite);
  k.findings = list<rules::Finding>(n, "findings", finding);
  k.skipped = list<rules::SkippedRule>(n, "skipped", skippedRule);
  k.diagnostics = list<Diagnostic>(n, "diagnostics", diagnostic);
  k.embeddedSources = list<EmbeddedSourceInfo>(n, "embedded_sources", embeddedSource);
  return k;
}

YAML::Node load(const std::string &yamlText) {
  // yaml-cpp recurses once per level; a file nested deep enough overflows the stack first.
  if (std::optional<std::string> why = data::yamlTooDeep(yamlText))
    throw std::runtime_error("annotation YAML: " + *why);
  try {
    return YAML::Load(yamlText);
  } catch (const YAML::Exception &e) {
    throw std::runtime_error(std::string("annotation YAML: ") + e.what());
  }
}

} // namespace

Annotation fromYaml(const std::string &yamlText) {
  // Const so that lookups of absent keys cannot add nodes to the tree.
  const YAML::Node root = load(yamlText);
  if (!root.IsMap())
    throw std::runtime_error("annotation YAML: the document is not a mapping");

  try {
    Annotation a;
    a.runId = text(root, "run_id");
    a.model = text(root, "model");
    a.harness = text(root, "harness");
    a.effort = text(root, "effort");
    a.problem = text(root, "problem");
    a.peakFraction = peakFraction(root["peak_fraction"]);
    a.verdict = text(root, "verdict");
    a.summary = text(root, "summary");
    a.quotes = quotes(root["quotes"]);
    a.implication = text(root, "implication");
    a.evidence = text(root, "evidence");
    if (const YAML::Node k = root["kbaudit"]; k && !k.IsNull())
      a.kbaudit = kbauditBlock(k);
    return a;
  } catch (const YAML::Exception &e) {
    // Conversions (a line number that is not a number) throw yaml-cpp's own types.
    throw std::runtime_error(std::string("annotation YAML: ") + e.what());
  }
}

} // namespace kbaudit::annotations

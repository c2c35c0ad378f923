#include "kbaudit/rules/rule_meta.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <stdexcept>

// The rule YAML parser: used at build time by catalogue_gen.cpp (the catalogue the binary
// carries) and by tests that compare that catalogue with the YAML.

namespace kbaudit::rules {

namespace {

std::string required(const YAML::Node &root, const char *key) {
  const YAML::Node n = root[key];
  if (!n || !n.IsScalar() || n.as<std::string>().empty())
    throw std::runtime_error(std::string("rule metadata lacks '") + key + "'");
  return n.as<std::string>();
}

std::vector<std::string> list(const YAML::Node &root, const char *key) {
  std::vector<std::string> out;
  if (const YAML::Node n = root[key]; n && n.IsSequence())
    for (const auto &item : n)
      out.push_back(item.as<std::string>());
  return out;
}

// Trailing newlines of block scalars would leak into messages.
std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.pop_back();
  return s;
}

/// `runtime:`: lists of probe names (`probe` or `probe/observation`) and event kinds. An
/// unknown key is an error, so a misspelt `cleared_by` cannot silently link nothing.
RuntimeLinks runtimeLinks(const YAML::Node &root, const std::string &id) {
  RuntimeLinks links;
  const YAML::Node n = root["runtime"];
  if (!n)
    return links;
  if (!n.IsMap())
    throw std::runtime_error("rule " + id + ": runtime is a map of confirmed_by, cleared_by, explains, events");
  for (const auto &kv : n) {
    const std::string key = kv.first.as<std::string>();
    if (key != "confirmed_by" && key != "cleared_by" && key != "explains" && key != "events")
      throw std::runtime_error("rule " + id + ": unknown runtime key '" + key + "'");
  }
  links.confirmedBy = list(n, "confirmed_by");
  links.clearedBy = list(n, "cleared_by");
  links.explains = list(n, "explains");
  links.events = list(n, "events");
  // A probe clears a rule only by answering its question: it must be one that can confirm it.
  for (const std::string &probe : links.clearedBy)
    if (std::find(links.confirmedBy.begin(), links.confirmedBy.end(), probe) == links.confirmedBy.end())
      throw std::runtime_error("rule " + id + ": cleared_by " + probe + " is not in its confirmed_by");
  return links;
}

} // namespace

RuleMeta parseRuleMeta(std::string_view yaml) {
  const YAML::Node root = YAML::Load(std::string(yaml));
  RuleMeta m;
  m.id = required(root, "id");
  m.name = required(root, "name");
  m.category = required(root, "category");
  if (m.id.rfind(m.category, 0) != 0)
    throw std::runtime_error("rule " + m.id + " is not in category " + m.category);
  const std::string verdict = required(root, "verdict");
  if (verdict == "reward_hack") m.verdict = VerdictClass::RewardHack;
  else if (verdict == "rubric_leak") m.verdict = VerdictClass::RubricLeak;
  else if (verdict == "review") m.verdict = VerdictClass::Review;
  else throw std::runtime_error("rule " + m.id + ": unknown verdict '" + verdict + "'");
  const std::string confidence = required(root, "confidence");
  if (confidence == "high") m.confidence = Confidence::High;
  else if (confidence == "medium") m.confidence = Confidence::Medium;
  else if (confidence == "low") m.confidence = Confidence::Low;
  else throw std::runtime_error("rule " + m.id + ": unknown confidence '" + confidence + "'");
  const std::string term = required(root, "term");
  if (auto t = problems::termNamed(term))
    m.term = *t;
  else
    throw std::runtime_error("rule " + m.id + ": unknown term '" + term + "'");
  m.message = trimmed(required(root, "message"));
  m.summary = trimmed(required(root, "summary"));
  m.implication = trimmed(required(root, "implication"));
  m.consequence = trimmed(required(root, "consequence"));
  m.decisiveWhen = trimmed(required(root, "decisive_when"));
  if (const YAML::Node r = root["rests_on"]) {
    const std::string restsOn = r.as<std::string>();
    if (restsOn != "absence" && restsOn != "presence")
      throw std::runtime_error("rule " + m.id + ": rests_on is 'absence' or 'presence', not '" + restsOn + "'");
    m.restsOnAbsence = restsOn == "absence";
  }
  m.rationale = trimmed(required(root, "rationale"));
  m.references = list(root, "references");
  m.needs = list(root, "needs");
  m.admissions = list(root, "admissions");
  m.runtime = runtimeLinks(root, m.id);
  return m;
}

} // namespace kbaudit::rules

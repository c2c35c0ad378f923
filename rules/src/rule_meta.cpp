#include "kbaudit/rules/rule_meta.h"

#include "kbaudit/rules/embedded_files.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <stdexcept>

namespace kbaudit::rules {

const char *verdictClassName(VerdictClass v) {
  switch (v) {
  case VerdictClass::RewardHack: return "reward_hack";
  case VerdictClass::RubricLeak: return "rubric_leak";
  case VerdictClass::Review: return "review";
  }
  return "review";
}

const char *confidenceName(Confidence c) {
  switch (c) {
  case Confidence::Low: return "low";
  case Confidence::Medium: return "medium";
  case Confidence::High: return "high";
  }
  return "medium";
}

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
  return m;
}

const std::vector<RuleMeta> &catalogue() {
  static const std::vector<RuleMeta> rules = [] {
    std::vector<RuleMeta> out;
    for (const EmbeddedFile &f : embeddedRuleYaml()) {
      if (f.path.empty())
        continue;
      RuleMeta m = parseRuleMeta(f.content);
      // Fixtures live in tests/fixtures/<ID>/; they become the doc page's examples.
      const std::string prefix = "tests/fixtures/" + m.id + "/";
      for (const EmbeddedFile &fx : embeddedRuleFixtures()) {
        if (fx.path.rfind(prefix, 0) != 0)
          continue;
        std::string file(fx.path.substr(prefix.size()));
        const bool bad = file.rfind("bad_", 0) == 0;
        m.examples.push_back(RuleExample{std::move(file), std::string(fx.content), bad});
      }
      std::sort(m.examples.begin(), m.examples.end(),
                [](const RuleExample &a, const RuleExample &b) {
                  return std::tie(b.bad, a.file) < std::tie(a.bad, b.file);
                });
      out.push_back(std::move(m));
    }
    std::sort(out.begin(), out.end(), [](const RuleMeta &a, const RuleMeta &b) { return a.id < b.id; });
    return out;
  }();
  return rules;
}

const RuleMeta *findRule(std::string_view id) {
  for (const RuleMeta &m : catalogue())
    if (m.id == id)
      return &m;
  return nullptr;
}

} // namespace kbaudit::rules

#include "kbaudit/rules/engine.h"

#include <algorithm>
#include <tuple>

namespace kbaudit::rules {

namespace {

bool matches(std::string_view id, const std::vector<std::string> &patterns) {
  return std::any_of(patterns.begin(), patterns.end(), [&](const std::string &p) {
    return p == "ALL" || id.rfind(p, 0) == 0;
  });
}

class CollectingSink final : public FindingSink {
public:
  CollectingSink(const RuleMeta &meta, RuleResults &out) : meta_(meta), out_(out) {}

  void report(LineRange lines, MessageVars vars, std::string evidence,
              std::optional<Confidence> confidence) override {
    Finding f;
    f.rule = meta_.id;
    f.name = meta_.name;
    f.category = meta_.category;
    f.verdict = meta_.verdict;
    f.confidence = confidence.value_or(meta_.confidence);
    f.term = meta_.term;
    f.message = renderMessage(meta_.message, vars);
    f.evidence = std::move(evidence);
    f.lines = lines;
    out_.findings.push_back(std::move(f));
  }
  void skipped(std::string reason) override {
    out_.skipped.push_back(SkippedRule{meta_.id, std::move(reason)});
  }

private:
  const RuleMeta &meta_;
  RuleResults &out_;
};

} // namespace

bool Selection::enabled(std::string_view id) const {
  if (!select.empty() && !matches(id, select))
    return false;
  return !matches(id, ignore);
}

std::string Selection::unknownEntry() const {
  for (const std::vector<std::string> *list : {&select, &ignore})
    for (const std::string &entry : *list) {
      if (entry == "ALL" || findRule(entry))
        continue;
      const bool category = std::any_of(catalogue().begin(), catalogue().end(),
                                        [&](const RuleMeta &m) { return m.category == entry; });
      if (!category)
        return entry;
    }
  return "";
}

std::string renderMessage(std::string_view tmpl, const MessageVars &vars) {
  std::string out;
  for (std::size_t i = 0; i < tmpl.size();) {
    if (tmpl[i] == '{') {
      const std::size_t close = tmpl.find('}', i);
      if (close != std::string_view::npos) {
        const auto it = vars.find(std::string(tmpl.substr(i + 1, close - i - 1)));
        if (it != vars.end()) {
          out += it->second;
          i = close + 1;
          continue;
        }
      }
    }
    out += tmpl[i++];
  }
  return out;
}

RuleResults runRules(const CheckContext &ctx, const Selection &selection) {
  RuleResults results;
  if (!ctx.facts.source.analyzable())
    return results;
  // Checks are stateless; building them per run keeps the batch free of shared state.
  for (const auto &check : makeAllChecks()) {
    if (!selection.enabled(check->id()))
      continue;
    const RuleMeta *meta = findRule(check->id());
    if (!meta)
      continue; // the registry test keeps this from happening
    CollectingSink sink(*meta, results);
    // Problem-dependent rules say why they did not run instead of passing silently.
    if (!ctx.problem && std::find(meta->needs.begin(), meta->needs.end(), "problem") != meta->needs.end()) {
      sink.skipped("needs the problem definition (check --problem DIR, audit --problems DIR)");
      continue;
    }
    check->run(ctx, sink);
  }
  std::stable_sort(results.findings.begin(), results.findings.end(),
                   [](const Finding &a, const Finding &b) {
                     return std::tie(a.lines.begin, a.rule) < std::tie(b.lines.begin, b.rule);
                   });
  // The same code read under two names (a helper and the entry point that only delegates to it)
  // can give the same finding twice: one is enough.
  auto same = [](const Finding &a, const Finding &b) {
    return a.rule == b.rule && a.lines.begin == b.lines.begin && a.lines.end == b.lines.end &&
           a.message == b.message && a.confidence == b.confidence;
  };
  results.findings.erase(std::unique(results.findings.begin(), results.findings.end(), same), results.findings.end());
  return results;
}

} // namespace kbaudit::rules

// `check --statistics`: how often each rule fired across the files checked, as ruff prints it.

#include "kbaudit/annotations/formats.h"
#include "kbaudit/annotations/terminal_text.h"

#include <algorithm>
#include <map>

namespace kbaudit::annotations {

std::string findingStatistics(const std::vector<Annotation> &annotations) {
  struct Row {
    std::string rule, name;
    std::size_t count = 0;
  };
  std::map<std::string, Row> byRule;
  for (const Annotation &a : annotations)
    for (const rules::Finding &f : a.kbaudit.findings)
      if (!f.accepted) {
        Row &row = byRule[f.rule];
        row.rule = f.rule;
        row.name = f.name;
        ++row.count;
      }
  std::vector<Row> rows;
  for (auto &[rule, row] : byRule)
    rows.push_back(std::move(row));
  std::stable_sort(rows.begin(), rows.end(), [](const Row &x, const Row &y) { return x.count > y.count; });
  std::size_t countWidth = 1, ruleWidth = 1;
  for (const Row &r : rows) {
    countWidth = std::max(countWidth, std::to_string(r.count).size());
    ruleWidth = std::max(ruleWidth, r.rule.size());
  }
  std::string out;
  for (const Row &r : rows) {
    const std::string count = std::to_string(r.count);
    out += std::string(countWidth - count.size(), ' ') + count + "  " + terminalSafe(r.rule) +
           std::string(ruleWidth - r.rule.size(), ' ') + "  " + terminalSafe(r.name) + "\n";
  }
  return out;
}

} // namespace kbaudit::annotations

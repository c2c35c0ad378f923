// The model x problem grid: a chip per run, whose data attributes carry what the page's filters
// and CSV export read (the CSV columns of report_csv.h).

#include "report_view.h"

#include "kbaudit/annotations/report_csv.h"

#include <cctype>
#include <set>

namespace kbaudit::annotations::view {

namespace {

std::string lowered(std::string s) {
  for (char &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string tooltip(const ReportRun &r, bool truthMode) {
  std::string tip = r.id + "\nkbaudit: " + (r.pred ? r.pred->verdict : "no annotation");
  std::string fired;
  for (const std::string &f : r.decisiveRules)
    fired += (fired.empty() ? "" : ", ") + f;
  if (!fired.empty())
    tip += " (" + fired + ")";
  if (truthMode)
    tip += std::string("\nhuman: ") + (r.truth ? r.truth->verdict : "no annotation") + "\n" + agreementText(r.agreement);
  return tip;
}

Data chip(const ReportRun &r, bool truthMode) {
  const std::vector<std::string> csv = reportCsvFields(r);
  Data c;
  c.set("a", agreementWord(r.agreement));
  c.set("id", r.id);
  c.set("kl", labelWord(r.pred));
  c.set("hl", labelWord(r.truth));
  std::string rules = " ";
  for (const std::string &rule : r.rules)
    rules += rule + " ";
  c.set("rulesAttr", rules);
  c.set("model", r.model);
  c.set("harness", r.harness);
  c.set("problem", r.problem);
  c.set("effort", csv[kCsvEffort]);
  c.set("pf", csv[kCsvPeakFraction]);
  c.set("k", csv[kCsvKbauditVerdict]);
  c.set("h", csv[kCsvHumanVerdict]);
  c.set("decisiveList", csv[kCsvDecisiveRules]);
  c.set("ruleList", csv[kCsvRules]);
  c.set("tip", tooltip(r, truthMode));
  const std::string *k = r.pred ? &r.pred->verdict : nullptr;
  const std::string *h = r.truth ? &r.truth->verdict : nullptr;
  c.set("hcls", verdictClass(h));
  c.set("habbr", h ? verdictAbbrev(*h) : "\u2014");
  c.set("kcls", verdictClass(k));
  c.set("kabbr", k ? verdictAbbrev(*k) : "\u2014");
  return c;
}

} // namespace

Data gridColumns(const ReportModel &m) {
  Data out = list();
  for (const HackRate &r : m.byProblem) {
    Data c;
    c.set("problem", r.key);
    c.set("parts", parts(r.key));
    c.set("runs", num(r.runs));
    c.set("flagged", r.flagged > 0);
    c.set("flaggedCount", num(r.flagged));
    out.push_back(c);
  }
  return out;
}

Data gridRows(const ReportModel &m) {
  Data rows = list();
  for (const std::string &model : m.models) {
    std::set<std::string> harnesses;
    std::size_t n = 0;
    Data cells = list();
    for (const std::string &problem : m.problems) {
      Data cell;
      const auto it = m.cells.find({model, problem});
      cell.set("blank", it == m.cells.end());
      if (it != m.cells.end()) {
        bool disagree = false, classDiffers = false;
        Data chips = list();
        for (std::size_t i : it->second) {
          const ReportRun &r = m.runs[i];
          disagree |= r.agreement == Agreement::Disagree;
          classDiffers |= r.agreement == Agreement::ClassDiffers;
          if (!r.harness.empty())
            harnesses.insert(r.harness);
          chips.push_back(chip(r, m.truthMode));
        }
        n += it->second.size();
        cell.set("tint", disagree ? " has-disagree" : classDiffers ? " has-classdiff" : "");
        cell.set("idx", num(m.cellIndex.at({model, problem})));
        cell.set("n", num(it->second.size()));
        cell.set("chips", chips);
      }
      cells.push_back(cell);
    }
    std::string hs;
    for (const std::string &h : harnesses)
      hs += (hs.empty() ? "" : ", ") + h;
    Data row;
    row.set("lowerModel", lowered(model));
    row.set("parts", parts(model));
    row.set("harnessList", hs);
    row.set("runCountText", num(n) + (n == 1 ? " run" : " runs"));
    row.set("cells", cells);
    rows.push_back(row);
  }
  return rows;
}

} // namespace kbaudit::annotations::view

#include "kbaudit/annotations/report_model.h"

#include "kbaudit/annotations/run_id.h"
#include "kbaudit/annotations/synthesis.h"
#include "kbaudit/rules/rule_meta.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <tuple>

namespace kbaudit::annotations {

const std::vector<std::string> &knownVerdicts() {
  static const std::vector<std::string> v = {"reward_hack", "rubric_leak", "interesting", "clean", "bug"};
  return v;
}

bool knownVerdict(const std::string &verdict) {
  const auto &v = knownVerdicts();
  return std::find(v.begin(), v.end(), verdict) != v.end();
}

namespace {

int verdictRank(const std::string &v) {
  const auto &k = knownVerdicts();
  const auto it = std::find(k.begin(), k.end(), v);
  return it != k.end() ? static_cast<int>(it - k.begin()) : static_cast<int>(k.size());
}

std::string lower(std::string s) {
  for (char &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct CaseInsensitiveLess {
  bool operator()(const std::string &a, const std::string &b) const {
    const std::string la = lower(a), lb = lower(b);
    return la != lb ? la < lb : a < b;
  }
};

Agreement agreementOf(const ReportRun &r, bool truthMode) {
  if (!truthMode)
    return Agreement::NoTruth;
  if (!r.truth)
    return Agreement::NoHumanLabel;
  const Label t = labelOf(r.truth->verdict);
  if (t == Label::Excluded)
    return Agreement::Excluded;
  if (!r.pred)
    return Agreement::NotAudited;
  const bool flagged = labelOf(r.pred->verdict) == Label::Hack;
  if ((t == Label::Hack) != flagged)
    return Agreement::Disagree;
  if (flagged && r.truth->verdict != r.pred->verdict)
    return Agreement::ClassDiffers;
  return Agreement::Agree;
}

// The grid keys come from kbaudit's annotation (derived from the run id, so they are
// consistent across runs); a run only the humans annotated is placed by its run id, or by the
// human fields when the id does not parse.
void place(ReportRun &r) {
  if (r.pred) {
    r.model = r.pred->model;
    r.problem = firstWord(r.pred->problem);
    r.harness = firstWord(r.pred->harness);
  }
  const RunId id = RunId::parse(r.id);
  if (r.model.empty() && id.valid) r.model = id.model;
  if (r.problem.empty() && id.valid) r.problem = id.problem;
  if (r.harness.empty() && id.valid) r.harness = id.harness;
  if (r.truth) {
    if (r.model.empty()) r.model = r.truth->model;
    if (r.problem.empty()) r.problem = firstWord(r.truth->problem);
    if (r.harness.empty()) r.harness = firstWord(r.truth->harness);
  }
  if (r.model.empty()) r.model = "(unknown model)";
  if (r.problem.empty()) r.problem = "(unknown problem)";
}

/// Provider and router words a run id writes before a model name, joined by '_' ('/' in a header).
const std::set<std::string> &providers() {
  static const std::set<std::string> p = {
      "alibaba", "amazon", "anthropic", "cohere", "deepseek", "deepseek-ai", "google", "meta", "meta-llama",
      "microsoft", "minimax", "mistral", "mistralai", "moonshot", "moonshotai", "nvidia", "openai", "openrouter",
      "openrouter-alibaba", "openrouter-pinned", "qwen", "sakana", "x-ai", "xai", "xiaomi", "z-ai", "zai", "zhipu"};
  return p;
}

/// Merges the spellings of one model (canonicalModel, then case): each run's model becomes the
/// most common spelling of its group, ties to the alphabetically first.
void mergeModelSpellings(std::vector<ReportRun> &runs, const std::map<std::string, std::string> &aliases) {
  std::map<std::string, std::map<std::string, unsigned>> spellings; // lower-case key -> spelling -> runs
  for (ReportRun &r : runs) {
    r.model = canonicalModel(r.model, aliases);
    ++spellings[lower(r.model)][r.model];
  }
  std::map<std::string, std::string> shown;
  for (const auto &[key, counts] : spellings) {
    const std::pair<const std::string, unsigned> *best = nullptr;
    for (const auto &c : counts)
      if (!best || c.second > best->second)
        best = &c;
    shown[key] = best->first;
  }
  for (ReportRun &r : runs)
    r.model = shown[lower(r.model)];
}

void ruleLists(ReportRun &r) {
  if (!r.pred)
    return;
  std::set<std::string> any, fired;
  for (const rules::Finding &f : r.pred->kbaudit.findings) {
    any.insert(f.rule);
    if (decisive(f))
      fired.insert(f.rule);
  }
  r.rules.assign(any.begin(), any.end());
  r.decisiveRules.assign(fired.begin(), fired.end());
}

std::vector<VerdictCount> verdictCounts(const std::map<std::string, Annotation> &annotations) {
  std::map<std::string, unsigned> n;
  for (const auto &[id, a] : annotations)
    ++n[a.verdict];
  std::vector<VerdictCount> out;
  for (const auto &[v, count] : n)
    out.push_back({v, count});
  std::sort(out.begin(), out.end(), [](const VerdictCount &a, const VerdictCount &b) { return verdictLess(a.verdict, b.verdict); });
  return out;
}

void count(HackRate &rate, const ReportRun &r) {
  ++rate.runs;
  if (r.pred) {
    ++rate.audited;
    rate.flagged += r.flagged();
  }
  if (r.truth && labelOf(r.truth->verdict) != Label::Excluded) {
    ++rate.labelled;
    rate.humanHack += labelOf(r.truth->verdict) == Label::Hack;
  }
  rate.agree += r.agreement == Agreement::Agree || r.agreement == Agreement::ClassDiffers;
}

std::vector<HackRate> rates(const std::vector<ReportRun> &runs, const std::vector<std::string> &order,
                            std::string ReportRun::*key) {
  std::map<std::string, HackRate> by;
  for (const ReportRun &r : runs)
    count(by[r.*key], r);
  std::vector<HackRate> out;
  for (const std::string &k : order)
    if (auto it = by.find(k); it != by.end()) {
      it->second.key = k;
      out.push_back(it->second);
    }
  return out;
}

void humanMatrix(ReportModel &m) {
  const std::string none = "(none)";
  std::set<std::string> hv, kv;
  for (const ReportRun &r : m.runs) {
    const std::string h = r.truth ? r.truth->verdict : none, k = r.pred ? r.pred->verdict : none;
    hv.insert(h);
    kv.insert(k);
    ++m.matrix[{h, k}];
  }
  const auto ordered = [&](const std::set<std::string> &words) {
    std::vector<std::string> v(words.begin(), words.end());
    std::sort(v.begin(), v.end(), [&](const std::string &a, const std::string &b) {
      if ((a == none) != (b == none))
        return b == none;
      return verdictLess(a, b);
    });
    return v;
  };
  m.matrixHuman = ordered(hv);
  m.matrixKbaudit = ordered(kv);
}

std::vector<RuleRow> ruleRows(const std::vector<ReportRun> &runs, bool truthMode) {
  std::map<std::string, RuleRow> rows;
  std::map<std::string, std::set<std::string>> runsOf, decidedOf;
  std::map<std::string, const ReportRun *> byId;
  for (const ReportRun &r : runs) {
    byId[r.id] = &r;
    if (!r.pred)
      continue;
    for (const rules::Finding &f : r.pred->kbaudit.findings) {
      RuleRow &row = rows[f.rule];
      row.id = f.rule;
      row.name = f.name;
      row.cls = rules::verdictClassName(f.verdict);
      ++row.findings;
      runsOf[f.rule].insert(r.id);
      if (decisive(f)) {
        ++row.decisive;
        decidedOf[f.rule].insert(r.id);
      } else {
        ++row.low;
      }
    }
  }
  std::vector<RuleRow> out;
  for (auto &[id, row] : rows) {
    row.runs = static_cast<unsigned>(runsOf[id].size());
    row.decisiveRuns = static_cast<unsigned>(decidedOf[id].size());
    if (truthMode)
      for (const std::string &run : decidedOf[id]) {
        const ReportRun *r = byId[run];
        const Label l = r->truth ? labelOf(r->truth->verdict) : Label::Excluded;
        (l == Label::Hack ? row.humanHack : l == Label::Clean ? row.humanClean : row.humanOther) += 1;
      }
    out.push_back(row);
  }
  std::stable_sort(out.begin(), out.end(), [](const RuleRow &a, const RuleRow &b) {
    return std::make_tuple(b.decisiveRuns, b.findings) < std::make_tuple(a.decisiveRuns, a.findings);
  });
  // Rules that found nothing, so a maintainer sees which ones stayed silent.
  for (const rules::RuleMeta &meta : rules::catalogue())
    if (!rows.count(meta.id)) {
      RuleRow row;
      row.id = meta.id;
      row.name = meta.name;
      row.cls = rules::verdictClassName(meta.verdict);
      row.silent = true;
      out.push_back(row);
    }
  return out;
}

} // namespace

Interval wilsonInterval(unsigned k, unsigned n) {
  if (n == 0)
    return {0, 1};
  constexpr double z = 1.959963984540054; // the 97.5th percentile of the standard normal
  const double p = double(k) / n, z2n = z * z / n;
  const double centre = (p + z2n / 2) / (1 + z2n);
  const double half = z * std::sqrt(p * (1 - p) / n + z2n / (4.0 * n)) / (1 + z2n);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

std::string canonicalModel(const std::string &model, const std::map<std::string, std::string> &aliases) {
  if (auto it = aliases.find(model); it != aliases.end())
    return it->second;
  std::string name = model.substr(model.rfind('/') == std::string::npos ? 0 : model.rfind('/') + 1);
  for (std::size_t cut = name.find('_'); cut != std::string::npos && cut + 1 < name.size(); cut = name.find('_')) {
    if (!providers().count(lower(name.substr(0, cut))))
      break;
    name.erase(0, cut + 1);
  }
  if (name.empty())
    name = model;
  if (auto it = aliases.find(name); it != aliases.end())
    return it->second;
  return name;
}

bool verdictLess(const std::string &a, const std::string &b) {
  return std::make_tuple(verdictRank(a), a) < std::make_tuple(verdictRank(b), b);
}

std::string verdictAbbrev(const std::string &v) {
  if (v == "reward_hack") return "RH";
  if (v == "rubric_leak") return "RL";
  if (v == "clean") return "CL";
  if (v == "interesting") return "IN";
  if (v == "bug") return "BUG";
  // Other words: initials of a multi-word verdict, else its first three letters.
  std::string out;
  if (v.find('_') != std::string::npos) {
    bool start = true;
    for (const char c : v) {
      if (start && std::isalnum(static_cast<unsigned char>(c)))
        out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      start = c == '_';
    }
  } else {
    for (std::size_t i = 0; i < v.size() && out.size() < 3; ++i)
      out += static_cast<char>(std::toupper(static_cast<unsigned char>(v[i])));
  }
  return out.empty() ? "?" : out;
}

const char *agreementWord(Agreement a) {
  switch (a) {
  case Agreement::NoTruth: return "none";
  case Agreement::NoHumanLabel: return "unlabelled";
  case Agreement::NotAudited: return "unaudited";
  case Agreement::Excluded: return "excluded";
  case Agreement::Agree: return "agree";
  case Agreement::ClassDiffers: return "class";
  case Agreement::Disagree: return "disagree";
  }
  return "none";
}

const char *agreementText(Agreement a) {
  switch (a) {
  case Agreement::NoTruth: return "";
  case Agreement::NoHumanLabel: return "no human label";
  case Agreement::NotAudited: return "no kbaudit annotation";
  case Agreement::Excluded: return "human verdict not scored (neither hack nor clean)";
  case Agreement::Agree: return "agree";
  case Agreement::ClassDiffers: return "both hack, different class";
  case Agreement::Disagree: return "DISAGREE";
  }
  return "";
}

const char *labelWord(const Annotation *a) {
  if (!a)
    return "none";
  switch (labelOf(a->verdict)) {
  case Label::Hack: return "hack";
  case Label::Clean: return "clean";
  case Label::Excluded: return "excluded";
  }
  return "none";
}

bool ReportRun::flagged() const { return pred && labelOf(pred->verdict) == Label::Hack; }

std::string firstWord(const std::string &s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos)
    return "";
  const auto e = s.find_first_of(" \t\r\n", b);
  return s.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

ReportModel buildReportModel(const std::map<std::string, Annotation> &pred,
                             const std::map<std::string, Annotation> *truth, const ReportOptions &options) {
  ReportModel m;
  m.truthMode = truth != nullptr;
  m.minRuns = options.minRuns;
  m.predCount = pred.size();
  m.truthCount = truth ? truth->size() : 0;
  std::set<std::string> ids;
  for (const auto &[id, a] : pred)
    ids.insert(id);
  if (truth)
    for (const auto &[id, a] : *truth)
      ids.insert(id);
  std::set<std::string, CaseInsensitiveLess> models;
  std::set<std::string> problems, harnesses;
  std::vector<ReportRun> placed;
  for (const std::string &id : ids) {
    ReportRun r;
    r.id = id;
    if (auto it = pred.find(id); it != pred.end())
      r.pred = &it->second;
    if (truth)
      if (auto it = truth->find(id); it != truth->end())
        r.truth = &it->second;
    place(r);
    placed.push_back(std::move(r));
  }
  mergeModelSpellings(placed, options.modelAliases);
  for (ReportRun &r : placed) {
    ruleLists(r);
    r.agreement = agreementOf(r, m.truthMode);
    models.insert(r.model);
    problems.insert(r.problem);
    if (!r.harness.empty())
      harnesses.insert(r.harness);
    m.cells[{r.model, r.problem}].push_back(m.runs.size());
    m.runs.push_back(std::move(r));
  }
  m.models.assign(models.begin(), models.end());
  m.problems.assign(problems.begin(), problems.end());
  m.harnesses.assign(harnesses.begin(), harnesses.end());
  unsigned n = 0;
  for (const std::string &model : m.models)
    for (const std::string &problem : m.problems)
      if (m.cells.count({model, problem}))
        m.cellIndex[{model, problem}] = n++;

  m.kbauditVerdicts = verdictCounts(pred);
  if (truth) {
    m.humanVerdicts = verdictCounts(*truth);
    m.score = score(*truth, pred);
    for (const ReportRun &r : m.runs)
      m.unlabelled += r.agreement == Agreement::NoHumanLabel;
    humanMatrix(m);
  }
  m.byModel = rates(m.runs, m.models, &ReportRun::model);
  m.byHarness = rates(m.runs, m.harnesses, &ReportRun::harness);
  m.byProblem = rates(m.runs, m.problems, &ReportRun::problem);
  m.rules = ruleRows(m.runs, m.truthMode);
  return m;
}

} // namespace kbaudit::annotations

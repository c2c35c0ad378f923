#include "kbaudit/annotations/html_report.h"

#include "kbaudit/annotations/run_id.h"
#include "kbaudit/annotations/score.h"
#include "kbaudit/annotations/synthesis.h"
#include "kbaudit/rules/rule_meta.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>
#include <tuple>

namespace kbaudit::annotations {

std::string htmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (const char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&#39;"; break;
    case '\t':
    case '\n':
    case '\r': out += c; break;
    default:
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        out += "\xEF\xBF\xBD"; // U+FFFD: control characters are parse errors in HTML text
      else
        out += c;
    }
  }
  return out;
}

namespace {

using Esc = std::string;
Esc esc(std::string_view s) { return htmlEscape(s); }

// ---------------------------------------------------------------------------------------------
// Verdicts: a CSS class (known verdicts have their own colour), a short chip label, an order.

const std::vector<std::string> &knownVerdicts() {
  static const std::vector<std::string> v = {"reward_hack", "rubric_leak", "interesting", "clean", "bug"};
  return v;
}

bool known(const std::string &verdict) {
  const auto &v = knownVerdicts();
  return std::find(v.begin(), v.end(), verdict) != v.end();
}

std::string cssClass(const std::string *verdict) {
  if (!verdict)
    return "v-none";
  return known(*verdict) ? "v-" + *verdict : "v-other";
}

std::string abbrev(const std::string *verdict) {
  if (!verdict)
    return "&mdash;";
  const std::string &v = *verdict;
  if (v == "reward_hack") return "RH";
  if (v == "rubric_leak") return "RL";
  if (v == "clean") return "CL";
  if (v == "interesting") return "IN";
  if (v == "bug") return "BUG";
  if (v.empty()) return "?";
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
  return esc(out.empty() ? "?" : out);
}

int verdictRank(const std::string &v) {
  const auto &k = knownVerdicts();
  const auto it = std::find(k.begin(), k.end(), v);
  return it != k.end() ? static_cast<int>(it - k.begin()) : static_cast<int>(k.size());
}

bool verdictLess(const std::string &a, const std::string &b) {
  return std::make_tuple(verdictRank(a), a) < std::make_tuple(verdictRank(b), b);
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

// ---------------------------------------------------------------------------------------------
// Runs and the grid.

// How a run's human and kbaudit verdicts compare, as `kbaudit score` counts them: kbaudit flags
// a run when its verdict is a hack; runs whose human verdict is neither hack nor clean are
// excluded.
enum class Agreement { NoTruth, NoHumanLabel, NotAudited, Excluded, Agree, ClassDiffers, Disagree };

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

struct Run {
  std::string id;
  const Annotation *pred = nullptr;
  const Annotation *truth = nullptr;
  std::string model, problem, harness;
  Agreement agreement = Agreement::NoTruth;
};

// Human files hold prose in places ("01_fp8_gemm (problems-h100 deck, H100)"); the grid keys on
// the first word.
std::string firstWord(const std::string &s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos)
    return "";
  const auto e = s.find_first_of(" \t\r\n", b);
  return s.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

Agreement agreementOf(const Run &r, bool truthMode) {
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
void place(Run &r) {
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

struct CaseInsensitiveLess {
  bool operator()(const std::string &a, const std::string &b) const {
    const auto lower = [](std::string s) {
      for (char &c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return s;
    };
    const std::string la = lower(a), lb = lower(b);
    return la != lb ? la < lb : a < b;
  }
};

struct Grid {
  std::vector<Run> runs;
  std::vector<std::string> models, problems; // sorted
  /// (model, problem) -> run indices, in run id order (so by date for corpus ids)
  std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> cells;
  /// (model, problem) -> cell number used in element ids
  std::map<std::pair<std::string, std::string>, unsigned> cellIndex;
};

Grid buildGrid(const std::map<std::string, Annotation> &pred, const std::map<std::string, Annotation> *truth) {
  Grid g;
  std::set<std::string> ids;
  for (const auto &[id, a] : pred)
    ids.insert(id);
  if (truth)
    for (const auto &[id, a] : *truth)
      ids.insert(id);
  std::set<std::string, CaseInsensitiveLess> models;
  std::set<std::string> problems;
  for (const std::string &id : ids) {
    Run r;
    r.id = id;
    if (auto it = pred.find(id); it != pred.end())
      r.pred = &it->second;
    if (truth)
      if (auto it = truth->find(id); it != truth->end())
        r.truth = &it->second;
    place(r);
    r.agreement = agreementOf(r, truth != nullptr);
    models.insert(r.model);
    problems.insert(r.problem);
    g.cells[{r.model, r.problem}].push_back(g.runs.size());
    g.runs.push_back(std::move(r));
  }
  g.models.assign(models.begin(), models.end());
  g.problems.assign(problems.begin(), problems.end());
  unsigned n = 0;
  for (const std::string &m : g.models)
    for (const std::string &p : g.problems)
      if (g.cells.count({m, p}))
        g.cellIndex[{m, p}] = n++;
  return g;
}

// ---------------------------------------------------------------------------------------------
// Small renderers.

std::string number(double v, const char *fmt) {
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string percent(double v) { return number(100.0 * v, "%.1f%%"); }

std::string lines(const LineRange &r) {
  if (!r.valid())
    return "&mdash;";
  return r.begin == r.end ? std::to_string(r.begin) : std::to_string(r.begin) + "&ndash;" + std::to_string(r.end);
}

// Underscores are where long problem and model names may wrap.
std::string breakable(const std::string &s) {
  std::string out;
  for (const char c : esc(s)) {
    out += c;
    if (c == '_' || c == '/')
      out += "<wbr>";
  }
  return out;
}

std::string badge(const std::string &verdict, unsigned count, const char *side) {
  return "<span class=\"badge " + cssClass(&verdict) + "\" data-side=\"" + side + "\" data-verdict=\"" +
         esc(verdict) + "\" data-count=\"" + std::to_string(count) + "\">" + esc(verdict.empty() ? "(empty)" : verdict) +
         " <b>" + std::to_string(count) + "</b></span>";
}

std::string verdictTag(const std::string *verdict, const char *who) {
  return std::string("<span class=\"tag ") + cssClass(verdict) + "\">" + who + ": " +
         (verdict ? esc(*verdict) : std::string("no annotation")) + "</span>";
}

void quoteBlock(std::string &o, const Quote &q) {
  o += "<figure class=\"quote\"><figcaption><span class=\"qfile\">" + esc(q.file) + ":" + lines(q.lines) + "</span> " +
       esc(q.label) + "</figcaption><pre>";
  // Each line numbered from the quote's first line, when it has one.
  std::string_view text = q.text;
  unsigned ln = q.lines.valid() ? q.lines.begin : 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    o += "<span class=\"ln\">" + (ln ? std::to_string(ln++) : std::string()) + "</span>" + esc(line) + "\n";
    if (nl == std::string_view::npos)
      break;
    text.remove_prefix(nl + 1);
  }
  o += "</pre></figure>\n";
}

void paragraph(std::string &o, const char *cls, const std::string &text) {
  if (firstWord(text).empty())
    return;
  o += std::string("<p class=\"") + cls + "\">" + esc(text) + "</p>\n";
}

void runDetail(std::string &o, const Run &r, bool truthMode) {
  const Annotation *p = r.pred;
  o += "<article class=\"run-detail a-" + std::string(agreementWord(r.agreement)) + "\">\n<h3>" + esc(r.id) + "</h3>\n";
  o += "<div class=\"verdicts\">" + verdictTag(p ? &p->verdict : nullptr, "kbaudit");
  if (truthMode) {
    o += verdictTag(r.truth ? &r.truth->verdict : nullptr, "human");
    o += "<span class=\"agreement a-" + std::string(agreementWord(r.agreement)) + "\">" + agreementText(r.agreement) +
         "</span>";
  }
  o += "</div>\n<div class=\"meta\">";
  const Annotation *meta = p ? p : r.truth;
  if (meta) {
    o += "harness <b>" + esc(meta->harness) + "</b>";
    if (!meta->effort.empty())
      o += " &middot; effort <b>" + esc(meta->effort) + "</b>";
    if (meta->peakFraction)
      o += " &middot; peak fraction <b>" + number(*meta->peakFraction, "%.3f") + "</b>";
    if (r.truth && r.truth->model != r.model)
      o += " &middot; human model name <b>" + esc(r.truth->model) + "</b>";
    if (p && !p->kbaudit.version.empty())
      o += " &middot; kbaudit " + esc(p->kbaudit.version);
    if (p && !p->kbaudit.problemDir.empty())
      o += " &middot; problem dir <code>" + esc(p->kbaudit.problemDir) + "</code>";
  }
  o += "</div>\n";
  if (p) {
    paragraph(o, "summary", p->summary);
    paragraph(o, "implication", p->implication);
    const auto &fs = p->kbaudit.findings;
    o += "<details class=\"findings\"" + std::string(fs.empty() ? "" : " open") + "><summary>kbaudit findings (" +
         std::to_string(fs.size()) + ")</summary>\n";
    if (!fs.empty()) {
      o += "<table class=\"ftable\"><thead><tr><th>rule</th><th>confidence</th><th>class</th><th>lines</th>"
           "<th>message</th></tr></thead><tbody>\n";
      for (const rules::Finding &f : fs) {
        o += "<tr class=\"" + std::string(decisive(f) ? "decisive" : "lowconf") + "\"><td><b>" + esc(f.rule) +
             "</b><br><span class=\"muted\">" + esc(f.name) + "</span></td><td class=\"conf-" +
             rules::confidenceName(f.confidence) + "\">" + rules::confidenceName(f.confidence) + "</td><td>" +
             rules::verdictClassName(f.verdict) + "</td><td>" + (f.file != "solution.py" ? esc(f.file) + ":" : "") +
             lines(f.lines) + "</td><td>" + esc(f.message);
        if (!f.evidence.empty())
          o += "<div class=\"evidence\"><code>" + esc(f.evidence) + "</code></div>";
        o += "</td></tr>\n";
      }
      o += "</tbody></table>\n";
    }
    o += "</details>\n";
    if (!p->quotes.empty()) {
      o += "<details class=\"quotes\" open><summary>kbaudit quotes (" + std::to_string(p->quotes.size()) +
           ")</summary>\n";
      for (const Quote &q : p->quotes)
        quoteBlock(o, q);
      o += "</details>\n";
    }
    const auto &ds = p->kbaudit.diagnostics;
    if (!ds.empty()) {
      o += "<details class=\"diagnostics\"><summary>diagnostics (" + std::to_string(ds.size()) + ")</summary><ul>";
      for (const Diagnostic &d : ds)
        o += std::string("<li>") + severityName(d.severity) + " <b>" + esc(d.code) + "</b> " + esc(d.file) + ":" +
             lines(d.lines) + " " + esc(d.message) + "</li>";
      o += "</ul></details>\n";
    }
    const auto &sk = p->kbaudit.skipped;
    if (!sk.empty()) {
      o += "<details class=\"skipped\"><summary>skipped rules (" + std::to_string(sk.size()) + ")</summary><ul>";
      for (const rules::SkippedRule &s : sk)
        o += "<li><b>" + esc(s.rule) + "</b> " + esc(s.reason) + "</li>";
      o += "</ul></details>\n";
    }
  }
  if (r.truth) {
    o += "<details class=\"human\"" + std::string(r.agreement == Agreement::Agree ? "" : " open") +
         "><summary>human annotation</summary>\n";
    paragraph(o, "summary", r.truth->summary);
    paragraph(o, "implication", r.truth->implication);
    for (const Quote &q : r.truth->quotes)
      quoteBlock(o, q);
    o += "</details>\n";
  }
  o += "</article>\n";
}

std::string chip(const Run &r, bool truthMode) {
  const std::string *k = r.pred ? &r.pred->verdict : nullptr;
  const std::string *h = r.truth ? &r.truth->verdict : nullptr;
  std::string tip = r.id + "\nkbaudit: " + (k ? *k : "no annotation");
  std::set<std::string> fired, any;
  if (r.pred) {
    for (const rules::Finding &f : r.pred->kbaudit.findings) {
      any.insert(f.rule);
      if (decisive(f))
        fired.insert(f.rule);
    }
    std::string list;
    for (const std::string &f : fired)
      list += (list.empty() ? "" : ", ") + f;
    if (!list.empty())
      tip += " (" + list + ")";
  }
  if (truthMode)
    tip += std::string("\nhuman: ") + (h ? *h : "no annotation") + "\n" + agreementText(r.agreement);
  std::string o = "<span class=\"run a-" + std::string(agreementWord(r.agreement)) + "\" data-id=\"" + esc(r.id) +
                  "\" data-a=\"" + agreementWord(r.agreement) + "\" data-kl=\"" + labelWord(r.pred) +
                  "\" data-hl=\"" + labelWord(r.truth) + "\" data-rules=\"";
  for (const std::string &rule : any)
    o += " " + esc(rule);
  o += " \" title=\"" + esc(tip) + "\">";
  if (truthMode)
    o += "<span class=\"half h " + cssClass(h) + "\">" + abbrev(h) + "</span>";
  o += "<span class=\"half k " + cssClass(k) + "\">" + abbrev(k) + "</span></span>";
  return o;
}

// ---------------------------------------------------------------------------------------------
// Sections.

void summarySection(std::string &o, const Grid &g, const std::map<std::string, Annotation> &pred,
                    const std::map<std::string, Annotation> *truth) {
  std::map<std::string, unsigned> kCount, hCount;
  for (const auto &[id, a] : pred)
    ++kCount[a.verdict];
  if (truth)
    for (const auto &[id, a] : *truth)
      ++hCount[a.verdict];
  const auto sortedKeys = [](const std::map<std::string, unsigned> &m) {
    std::vector<std::string> v;
    for (const auto &[k, n] : m)
      v.push_back(k);
    std::sort(v.begin(), v.end(), verdictLess);
    return v;
  };

  o += "<section id=\"summary\">\n<div class=\"cards\">\n";
  o += "<div class=\"card\"><div class=\"big\" id=\"stat-runs\" data-count=\"" + std::to_string(g.runs.size()) + "\">" +
       std::to_string(g.runs.size()) + "</div>runs</div>\n";
  o += "<div class=\"card\"><div class=\"big\" id=\"stat-models\" data-count=\"" + std::to_string(g.models.size()) +
       "\">" + std::to_string(g.models.size()) + "</div>models</div>\n";
  o += "<div class=\"card\"><div class=\"big\" id=\"stat-problems\" data-count=\"" +
       std::to_string(g.problems.size()) + "\">" + std::to_string(g.problems.size()) + "</div>problems</div>\n";
  o += "<div class=\"card wide\"><h3>kbaudit verdicts <span class=\"muted\">(" + std::to_string(pred.size()) +
       " annotations)</span></h3><div class=\"badges\" id=\"kbaudit-verdicts\">";
  for (const std::string &v : sortedKeys(kCount))
    o += badge(v, kCount[v], "kbaudit");
  o += "</div>";
  if (truth) {
    o += "<h3>human verdicts <span class=\"muted\">(" + std::to_string(truth->size()) +
         " annotations)</span></h3><div class=\"badges\" id=\"human-verdicts\">";
    for (const std::string &v : sortedKeys(hCount))
      o += badge(v, hCount[v], "human");
    o += "</div>";
  }
  o += "</div>\n";

  if (truth) {
    const Score s = score(*truth, pred);
    unsigned unlabelled = 0;
    for (const Run &r : g.runs)
      unlabelled += r.agreement == Agreement::NoHumanLabel;
    const auto cell = [](const char *id, unsigned n, const char *cls) {
      return std::string("<td class=\"") + cls + "\" id=\"" + id + "\" data-count=\"" + std::to_string(n) + "\">" +
             std::to_string(n) + "</td>";
    };
    o += "<div class=\"card wide\" id=\"confusion\"><h3>agreement with human labels <span class=\"muted\">"
         "(hack = reward_hack or rubric_leak, as <code>kbaudit score</code> counts)</span></h3>\n"
         "<table class=\"confusion\"><tr><th></th><th>kbaudit hack</th><th>kbaudit not hack</th></tr>\n"
         "<tr><th>human hack</th>" +
         cell("cm-tp", s.truePositives, "good") + cell("cm-fn", s.falseNegatives, "bad") +
         "</tr>\n<tr><th>human clean</th>" + cell("cm-fp", s.falsePositives, "bad") +
         cell("cm-tn", s.trueNegatives, "good") + "</tr></table>\n";
    o += "<div class=\"rates\">precision <b>" + percent(s.precision()) + "</b> &middot; recall <b>" +
         percent(s.recall()) + "</b> &middot; false-flag rate <b>" + percent(s.falseFlagRate()) +
         "</b><br>same class among true positives <b>" + std::to_string(s.classAgreement) + "/" +
         std::to_string(s.truePositives) + "</b> &middot; not scored (human verdict neither hack nor clean) <b>" +
         std::to_string(s.excluded) + "</b> &middot; human-labelled but not audited <b>" +
         std::to_string(s.missingPredictions.size()) + "</b> &middot; audited but not human-labelled <b>" +
         std::to_string(unlabelled) + "</b></div>\n";

    // Every human verdict against every kbaudit verdict.
    std::set<std::string> hv, kv;
    std::map<std::pair<std::string, std::string>, unsigned> m;
    const std::string none = "(none)";
    for (const Run &r : g.runs) {
      const std::string h = r.truth ? r.truth->verdict : none, k = r.pred ? r.pred->verdict : none;
      hv.insert(h);
      kv.insert(k);
      ++m[{h, k}];
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
    o += "<details class=\"matrix\"><summary>human verdict &times; kbaudit verdict</summary><table "
         "class=\"confusion full\"><tr><th>human \\ kbaudit</th>";
    const auto kcols = ordered(kv);
    for (const std::string &k : kcols)
      o += "<th>" + esc(k) + "</th>";
    o += "</tr>\n";
    for (const std::string &h : ordered(hv)) {
      o += "<tr><th>" + esc(h) + "</th>";
      for (const std::string &k : kcols) {
        const auto it = m.find({h, k});
        const unsigned n = it == m.end() ? 0 : it->second;
        o += std::string("<td class=\"") + (h == k ? "diag" : n ? "off" : "zero") + "\">" + (n ? std::to_string(n) : "") +
             "</td>";
      }
      o += "</tr>\n";
    }
    o += "</table></details></div>\n";
  }
  o += "</div>\n</section>\n";
}

void legend(std::string &o, bool truthMode) {
  o += "<div class=\"legend\">";
  for (const std::string &v : knownVerdicts())
    o += "<span class=\"key\"><span class=\"sw " + cssClass(&v) + "\">" + abbrev(&v) + "</span>" + esc(v) + "</span>";
  o += "<span class=\"key\"><span class=\"sw v-other\">&hellip;</span>other verdict</span>";
  o += "<span class=\"key\"><span class=\"sw v-none\">&mdash;</span>no annotation</span>";
  if (truthMode)
    o += "<span class=\"key sep\">each run: <span class=\"lrun run a-agree\"><span class=\"half h v-clean\">human</span>"
         "<span class=\"half k v-clean\">kbaudit</span></span></span>"
         "<span class=\"key\"><span class=\"lrun run a-disagree\"><span class=\"half h v-clean\">CL</span><span "
         "class=\"half k v-reward_hack\">RH</span></span>disagree (hack vs not hack)</span>"
         "<span class=\"key\"><span class=\"lrun run a-class\"><span class=\"half h v-rubric_leak\">RL</span><span "
         "class=\"half k v-reward_hack\">RH</span></span>both hack, other class</span>";
  o += "</div>\n";
}

void gridSection(std::string &o, const Grid &g, bool truthMode) {
  o += "<section id=\"grid-section\"><h2>Model &times; problem</h2>\n";
  legend(o, truthMode);
  o += "<div class=\"controls\"><label>show <select id=\"filter\"><option value=\"all\">all runs</option>";
  if (truthMode)
    o += "<option value=\"disagree\">disagreements with humans</option><option value=\"human-hack\">human: "
         "hack</option>";
  o += "<option value=\"flagged\">kbaudit: hack</option>";
  std::set<std::string> ruleIds;
  for (const Run &r : g.runs)
    if (r.pred)
      for (const rules::Finding &f : r.pred->kbaudit.findings)
        ruleIds.insert(f.rule);
  if (!ruleIds.empty()) {
    o += "<optgroup label=\"runs with a finding of\">";
    for (const std::string &id : ruleIds)
      o += "<option value=\"rule:" + esc(id) + "\">" + esc(id) + "</option>";
    o += "</optgroup>";
  }
  o += "</select></label> <label>model or run id <input "
       "id=\"q\" type=\"search\" placeholder=\"filter\"></label> <span id=\"shown\"></span> <span "
       "class=\"muted\">click a cell for its runs, findings and quotes</span></div>\n";
  o += "<div class=\"grid-wrap\"><table id=\"grid\" data-models=\"" + std::to_string(g.models.size()) +
       "\" data-problems=\"" + std::to_string(g.problems.size()) + "\"><thead><tr><th class=\"corner\">model \\ "
       "problem</th>";
  for (const std::string &p : g.problems) {
    unsigned n = 0, flagged = 0;
    for (const auto &[key, idx] : g.cells)
      if (key.second == p)
        for (std::size_t i : idx) {
          ++n;
          flagged += g.runs[i].pred && labelOf(g.runs[i].pred->verdict) == Label::Hack;
        }
    o += "<th class=\"colh\" data-problem=\"" + esc(p) + "\"><div>" + breakable(p) + "</div><span class=\"muted\">" +
         std::to_string(n) + " runs" + (flagged ? ", " + std::to_string(flagged) + " flagged" : "") + "</span></th>";
  }
  o += "</tr></thead>\n<tbody>\n";
  for (const std::string &m : g.models) {
    std::set<std::string> harnesses;
    unsigned n = 0;
    for (const std::string &p : g.problems)
      if (auto it = g.cells.find({m, p}); it != g.cells.end())
        for (std::size_t i : it->second) {
          ++n;
          if (!g.runs[i].harness.empty())
            harnesses.insert(g.runs[i].harness);
        }
    std::string hs;
    for (const std::string &h : harnesses)
      hs += (hs.empty() ? "" : ", ") + esc(h);
    std::string lower = m;
    for (char &c : lower)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    o += "<tr data-model=\"" + esc(lower) + "\"><th class=\"rowh\"><div class=\"model\">" + breakable(m) +
         "</div><div class=\"muted\">" + hs + " &middot; " + std::to_string(n) + (n == 1 ? " run" : " runs") + "</div></th>";
    for (const std::string &p : g.problems) {
      const auto it = g.cells.find({m, p});
      if (it == g.cells.end()) {
        o += "<td class=\"cell empty\"></td>";
        continue;
      }
      const std::string idx = std::to_string(g.cellIndex.at({m, p}));
      bool disagree = false, classDiffers = false;
      for (std::size_t i : it->second) {
        disagree |= g.runs[i].agreement == Agreement::Disagree;
        classDiffers |= g.runs[i].agreement == Agreement::ClassDiffers;
      }
      const char *tint = disagree ? " has-disagree" : classDiffers ? " has-classdiff" : "";
      o += "<td class=\"cell" + std::string(tint) + "\" data-cell=\"" + idx + "\" data-runs=\"" + std::to_string(it->second.size()) +
           "\"><a class=\"cell-link\" href=\"#c" + idx + "\">";
      for (std::size_t i : it->second)
        o += chip(g.runs[i], truthMode);
      o += "</a></td>";
    }
    o += "</tr>\n";
  }
  o += "</tbody></table></div>\n</section>\n";
}

struct RuleStats {
  std::string name, category, cls;
  unsigned findings = 0, decisive = 0, low = 0;
  std::set<std::string> runs, decisiveRuns;
};

void rulesSection(std::string &o, const Grid &g, bool truthMode) {
  std::map<std::string, RuleStats> stats;
  for (const Run &r : g.runs) {
    if (!r.pred)
      continue;
    for (const rules::Finding &f : r.pred->kbaudit.findings) {
      RuleStats &s = stats[f.rule];
      s.name = f.name;
      s.category = f.category;
      s.cls = rules::verdictClassName(f.verdict);
      ++s.findings;
      s.runs.insert(r.id);
      if (decisive(f)) {
        ++s.decisive;
        s.decisiveRuns.insert(r.id);
      } else {
        ++s.low;
      }
    }
  }
  std::vector<std::string> ids;
  for (const auto &[id, s] : stats)
    ids.push_back(id);
  std::stable_sort(ids.begin(), ids.end(), [&](const std::string &a, const std::string &b) {
    return std::make_tuple(stats[b].decisiveRuns.size(), stats[b].findings) <
           std::make_tuple(stats[a].decisiveRuns.size(), stats[a].findings);
  });
  // Rules that found nothing, so a maintainer sees which ones stayed silent.
  std::vector<const rules::RuleMeta *> silent;
  for (const rules::RuleMeta &meta : rules::catalogue())
    if (!stats.count(meta.id))
      silent.push_back(&meta);

  std::map<std::string, const Run *> byId;
  for (const Run &r : g.runs)
    byId[r.id] = &r;

  o += "<section id=\"rules\"><h2>Findings per rule</h2>\n<p class=\"muted\">decisive: medium or high "
       "confidence with a hack class (they set the verdict); review: low confidence or class "
       "<code>review</code>, kept for a reader. Runs: distinct runs with a finding of the rule; click a rule to see them in the grid.";
  if (truthMode)
    o += " Human labels of the runs where the rule was decisive show how often it is right.";
  o += "</p>\n<table class=\"rtable\"><thead><tr><th>rule</th><th>name</th><th>class</th><th>findings</th>"
       "<th>decisive</th><th>review</th><th>runs</th><th>runs decided</th>";
  if (truthMode)
    o += "<th>&hellip; human hack</th><th>&hellip; human clean</th><th>&hellip; other / unlabelled</th>";
  o += "</tr></thead><tbody>\n";
  for (const std::string &id : ids) {
    const RuleStats &s = stats[id];
    o += "<tr data-rule=\"" + esc(id) + "\" data-findings=\"" + std::to_string(s.findings) + "\" data-decisive=\"" +
         std::to_string(s.decisive) + "\" data-low=\"" + std::to_string(s.low) + "\"><td><a class=\"rule-link\" href=\"#grid-section\" data-rule=\"" + esc(id) + "\"><b>" + esc(id) +
         "</b></a></td><td>" + esc(s.name) + "</td><td>" + esc(s.cls) + "</td><td class=\"num\">" +
         std::to_string(s.findings) + "</td><td class=\"num\">" + std::to_string(s.decisive) +
         "</td><td class=\"num\">" + std::to_string(s.low) + "</td><td class=\"num\">" + std::to_string(s.runs.size()) +
         "</td><td class=\"num\">" + std::to_string(s.decisiveRuns.size()) + "</td>";
    if (truthMode) {
      unsigned hack = 0, clean = 0, other = 0;
      for (const std::string &run : s.decisiveRuns) {
        const Run *r = byId[run];
        const Label l = r->truth ? labelOf(r->truth->verdict) : Label::Excluded;
        (l == Label::Hack ? hack : l == Label::Clean ? clean : other) += 1;
      }
      o += "<td class=\"num" + std::string(hack ? " good" : "") + "\">" + std::to_string(hack) + "</td><td class=\"num" + (clean ? " bad" : "") + "\">" +
           std::to_string(clean) + "</td><td class=\"num\">" + std::to_string(other) + "</td>";
    }
    o += "</tr>\n";
  }
  for (const rules::RuleMeta *meta : silent) {
    o += "<tr class=\"silent\" data-rule=\"" + esc(meta->id) + "\" data-findings=\"0\"><td>" + esc(meta->id) +
         "</td><td>" + esc(meta->name) + "</td><td>" + rules::verdictClassName(meta->verdict) +
         "</td><td class=\"num\">0</td><td class=\"num\">0</td><td class=\"num\">0</td><td class=\"num\">0</td><td "
         "class=\"num\">0</td>";
    if (truthMode)
      o += "<td></td><td></td><td></td>";
    o += "</tr>\n";
  }
  o += "</tbody></table>\n</section>\n";
}

void drawer(std::string &o, const Grid &g, bool truthMode) {
  o += "<aside id=\"drawer\" aria-label=\"cell details\"><a class=\"close\" href=\"#\" title=\"close "
       "(Esc)\">&times;</a>\n";
  for (const auto &[key, idx] : g.cellIndex) {
    const auto &runs = g.cells.at(key);
    o += "<section class=\"cell-detail\" id=\"c" + std::to_string(idx) + "\"><h2>" + esc(key.first) +
         " <span class=\"muted\">&times;</span> " + esc(key.second) + " <span class=\"muted\">(" +
         std::to_string(runs.size()) + (runs.size() == 1 ? " run" : " runs") + ")</span></h2>\n";
    for (std::size_t i : runs)
      runDetail(o, g.runs[i], truthMode);
    o += "</section>\n";
  }
  o += "</aside>\n";
}

constexpr const char *kStyle = R"CSS(
:root{--rh:#c62828;--rl:#ef8a17;--cl:#2e8b57;--in:#1f6fb2;--bug:#7b4fa0;--other:#8a8a8a;--ink:#1d232b;--muted:#67707c;--line:#d9dee5;--bg:#f6f7f9}
*{box-sizing:border-box}
body{margin:0;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--ink);background:var(--bg)}
header{background:#1d232b;color:#fff;padding:14px 24px}
header h1{margin:0;font-size:20px}
header .src{color:#b9c2cd;font-size:12px;margin-top:4px}
header code{color:#fff}
main{padding:16px 24px}
h2{font-size:17px;margin:22px 0 8px}
h3{font-size:13px;margin:0 0 6px;text-transform:uppercase;letter-spacing:.03em;color:#3c4550}
.muted{color:var(--muted);font-weight:normal;text-transform:none;letter-spacing:0}
code{font:12px/1.3 ui-monospace,"DejaVu Sans Mono",monospace}
.cards{display:flex;gap:12px;flex-wrap:wrap;align-items:flex-start}
.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 16px;min-width:90px}
.card.wide{flex:1 1 380px}
.card .big{font-size:28px;font-weight:700}
.card h3+.badges{margin-bottom:10px}
.badges{display:flex;flex-wrap:wrap;gap:6px}
.badge{display:inline-block;border-radius:12px;padding:2px 10px;color:#fff;font-size:13px}
.badge b{margin-left:4px}
.v-reward_hack{background:var(--rh);color:#fff}
.v-rubric_leak{background:var(--rl);color:#fff}
.v-clean{background:var(--cl);color:#fff}
.v-interesting{background:var(--in);color:#fff}
.v-bug{background:var(--bug);color:#fff}
.v-other{background:var(--other);color:#fff}
.v-none{background:#fff;color:#888;box-shadow:inset 0 0 0 1px #aaa}
table.confusion{border-collapse:collapse;margin:4px 0 8px}
table.confusion th,table.confusion td{border:1px solid var(--line);padding:4px 10px;text-align:center}
table.confusion td{font-weight:700;font-size:16px;min-width:70px}
table.confusion.full td{font-size:13px;min-width:40px}
td.good{background:#e3f3e8}td.bad{background:#fbe3e3}td.diag{background:#e3f3e8}td.off{background:#fbe3e3}
.rates{font-size:13px}
details.matrix summary{cursor:pointer;color:#2a5db0;margin-top:6px}
.legend{display:flex;flex-wrap:wrap;gap:14px;align-items:center;margin:6px 0;font-size:12px}
.legend .key{display:inline-flex;gap:5px;align-items:center}
.legend .sep{margin-left:12px}
.sw{display:inline-block;min-width:26px;text-align:center;border-radius:3px;font-weight:700;font-size:11px;padding:1px 3px}
.controls{margin:8px 0;font-size:13px;display:flex;gap:14px;align-items:center;flex-wrap:wrap}
.controls select,.controls input{font:inherit;padding:2px 4px}
#shown{font-weight:600}
.grid-wrap{overflow:auto;max-height:calc(100vh - 40px);background:#fff;border:1px solid var(--line);border-radius:8px}
#grid{border-collapse:separate;border-spacing:0;font-size:12px}
#grid th,#grid td{border-right:1px solid var(--line);border-bottom:1px solid var(--line)}
#grid thead th{position:sticky;top:0;background:#eef1f5;z-index:2;padding:6px 4px;vertical-align:bottom;text-align:left;font-weight:600}
#grid .colh{min-width:84px;max-width:120px}
#grid .colh span{font-size:11px;font-weight:normal}
#grid .corner{left:0;z-index:3;color:var(--muted);font-weight:normal}
#grid .rowh{position:sticky;left:0;background:#f9fafb;z-index:1;text-align:left;padding:4px 8px;min-width:170px;max-width:220px;font-weight:normal}
#grid .rowh .model{font-weight:700;font-size:12.5px}
#grid .rowh .muted{font-size:11px}
#grid td.cell{padding:3px;vertical-align:middle}
#grid td.cell.empty{background:repeating-linear-gradient(135deg,#fafbfc 0 6px,#f2f4f7 6px 7px)}
#grid td.cell.has-disagree{background:#fdeaea}
#grid td.cell.has-classdiff{background:#fff5e0}
#grid td.cell:hover{background:#eef4ff}
#grid td.cell.selected{background:#dbe8ff;box-shadow:inset 0 0 0 2px #2a5db0}
#grid td.cell.dimcell{opacity:.35}
a.cell-link{display:flex;flex-wrap:wrap;gap:3px;text-decoration:none;min-height:22px;align-items:center}
.run{display:inline-flex;border-radius:4px;overflow:hidden;line-height:18px;font-size:10px;font-weight:700;letter-spacing:.02em;cursor:pointer}
.run .half{display:inline-block;min-width:20px;text-align:center;padding:0 2px}
.run.a-disagree{outline:3px solid #111;outline-offset:0;margin:2px}
.run.a-class{outline:2px dashed #111;outline-offset:0;margin:2px}
.run.dim{opacity:.15}
tr[hidden]{display:none}
.rtable{border-collapse:collapse;background:#fff;font-size:13px}
.rtable th,.rtable td{border:1px solid var(--line);padding:3px 8px;text-align:left}
.rtable th{background:#eef1f5}
.rtable td.num{text-align:right;font-variant-numeric:tabular-nums}
.rtable tr.silent{color:#9aa3ad}
.rule-link{color:#2a5db0;text-decoration:none}.rule-link:hover{text-decoration:underline}
.errors{background:#fff4e5;border:1px solid #f0c36d;border-radius:8px;padding:8px 16px;margin-top:16px}
#drawer{display:none;position:fixed;top:0;right:0;bottom:0;width:min(52vw,920px);background:#fff;border-left:1px solid #b9c2cd;box-shadow:-8px 0 24px rgba(0,0,0,.15);overflow:auto;padding:12px 20px 40px;z-index:10}
body:not(.js) #drawer:has(.cell-detail:target),#drawer.open{display:block}
#drawer .close{position:sticky;top:0;float:right;font-size:26px;text-decoration:none;color:#333;background:#fff;padding:0 8px;border-radius:4px}
.cell-detail{display:none;scroll-margin-top:40px}
body:not(.js) .cell-detail:target,.cell-detail.open{display:block}
.cell-detail h2{margin-top:4px}
.run-detail{border:1px solid var(--line);border-radius:8px;padding:10px 14px;margin:10px 0}
.run-detail.a-disagree{border:2px solid #111}
.run-detail h3{text-transform:none;letter-spacing:0;font:600 13px ui-monospace,"DejaVu Sans Mono",monospace;color:var(--ink);word-break:break-all}
.verdicts{display:flex;gap:8px;flex-wrap:wrap;align-items:center;margin:4px 0}
.tag{border-radius:4px;padding:1px 8px;font-weight:600;font-size:12px}
.agreement{font-size:12px;font-weight:700}
.agreement.a-disagree{color:#b00020}.agreement.a-agree{color:#2e7d32}
.meta{font-size:12px;color:var(--muted)}
p.summary{margin:8px 0 4px}
p.implication{margin:4px 0;color:#46505c;font-style:italic}
details>summary{cursor:pointer;font-weight:600;margin:6px 0}
.ftable{border-collapse:collapse;width:100%;font-size:12.5px}
.ftable th,.ftable td{border-bottom:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
.ftable tr.lowconf{color:#6b7480}
.conf-high{color:#b00020;font-weight:700}.conf-medium{color:#a35c00;font-weight:600}
.evidence code{white-space:pre-wrap;word-break:break-word;background:#f3f4f6;padding:0 3px}
figure.quote{margin:6px 0;border:1px solid var(--line);border-radius:6px;overflow:hidden}
figure.quote figcaption{background:#eef1f5;padding:3px 8px;font-size:12px;font-weight:600}
.qfile{font:12px ui-monospace,"DejaVu Sans Mono",monospace;color:#2a5db0;margin-right:6px}
figure.quote pre{margin:0;padding:6px 8px;overflow:auto;max-height:360px;font:12px/1.35 ui-monospace,"DejaVu Sans Mono",monospace;background:#fbfbfc}
.ln{display:inline-block;width:3.2em;color:#a0a7b0;text-align:right;margin-right:10px;user-select:none}
.human{background:#f7f8fb;border-radius:6px;padding:0 10px 4px}
)CSS";

constexpr const char *kScript = R"JS(
(function () {
  'use strict';
  document.body.classList.add('js');
  var grid = document.getElementById('grid');
  var drawer = document.getElementById('drawer');
  var filter = document.getElementById('filter');
  var query = document.getElementById('q');
  var shown = document.getElementById('shown');
  var runs = grid ? grid.querySelectorAll('.run') : [];
  function matches(run, f) {
    var d = run.dataset;
    if (f === 'disagree') return d.a === 'disagree' || d.a === 'class';
    if (f === 'flagged') return d.kl === 'hack';
    if (f === 'human-hack') return d.hl === 'hack';
    if (f.indexOf('rule:') === 0) return d.rules.indexOf(' ' + f.slice(5) + ' ') >= 0;
    return true;
  }
  function apply() {
    if (!grid) return;
    var f = filter ? filter.value : 'all';
    var q = query ? query.value.trim().toLowerCase() : '';
    var n = 0;
    grid.querySelectorAll('tbody tr').forEach(function (tr) {
      var rowHit = !q || tr.dataset.model.indexOf(q) >= 0;
      var any = false;
      tr.querySelectorAll('.run').forEach(function (run) {
        var ok = matches(run, f) && (rowHit || run.dataset.id.toLowerCase().indexOf(q) >= 0);
        run.classList.toggle('dim', !ok);
        if (ok) { n++; any = true; }
      });
      tr.hidden = !!q && !any;
      tr.querySelectorAll('td.cell[data-cell]').forEach(function (td) {
        td.classList.toggle('dimcell', !td.querySelector('.run:not(.dim)'));
      });
    });
    shown.textContent = n + ' of ' + runs.length + ' runs shown';
  }
  function select() {
    var id = location.hash.slice(1);
    var section = id ? document.getElementById(id) : null;
    var isCell = !!section && section.classList.contains('cell-detail');
    document.querySelectorAll('.cell-detail.open').forEach(function (s) { s.classList.remove('open'); });
    document.querySelectorAll('td.cell.selected').forEach(function (td) { td.classList.remove('selected'); });
    drawer.classList.toggle('open', isCell);
    if (!isCell) return;
    section.classList.add('open');
    var td = grid.querySelector('td.cell[data-cell="' + id.slice(1) + '"]');
    if (td) td.classList.add('selected');
    drawer.scrollTop = 0;
  }
  function close() {
    try { history.pushState(null, '', location.pathname + location.search); } catch (e) { location.hash = ''; }
    select();
  }
  // ?filter=disagree|flagged|human-hack|rule:ID and ?q=TEXT preset the controls (shareable links).
  var params = new URLSearchParams(location.search);
  if (filter && params.get('filter')) {
    filter.value = params.get('filter');
    if (filter.value !== params.get('filter')) filter.value = 'all';
  }
  if (query && params.get('q')) query.value = params.get('q');
  if (filter) filter.addEventListener('change', apply);
  document.querySelectorAll('a.rule-link').forEach(function (a) {
    a.addEventListener('click', function () {
      var v = 'rule:' + a.dataset.rule;
      for (var i = 0; i < filter.options.length; i++)
        if (filter.options[i].value === v) { filter.value = v; apply(); }
    });
  });
  if (query) query.addEventListener('input', apply);
  window.addEventListener('hashchange', select);
  document.addEventListener('keydown', function (e) { if (e.key === 'Escape') close(); });
  drawer.querySelector('.close').addEventListener('click', function (e) { e.preventDefault(); close(); });
  apply();
  select();
  document.body.dataset.rendered = 'yes';
})();
)JS";

} // namespace

std::string renderHtmlReport(const std::map<std::string, Annotation> &pred,
                             const std::map<std::string, Annotation> *truth, const HtmlReportOptions &options) {
  const Grid g = buildGrid(pred, truth);
  const bool truthMode = truth != nullptr;
  std::string o;
  o.reserve(1 << 20);
  o += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
       "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
       "script-src 'unsafe-inline'\">\n<title>" +
       esc(options.title) + "</title>\n<style>" + kStyle + "</style></head>\n<body data-rendered=\"no\">\n";
  o += "<header><h1>" + esc(options.title) + "</h1><div class=\"src\">kbaudit annotations <code>" +
       esc(options.predSource) + "</code>";
  if (truthMode)
    o += " &middot; human annotations <code>" + esc(options.truthSource) + "</code>";
  o += "</div></header>\n<main>\n";
  summarySection(o, g, pred, truth);
  if (!options.loadErrors.empty()) {
    o += "<section class=\"errors\" id=\"load-errors\"><b>" + std::to_string(options.loadErrors.size()) +
         " annotation file(s) could not be read and are not shown:</b><ul>";
    for (const std::string &e : options.loadErrors)
      o += "<li><code>" + esc(e) + "</code></li>";
    o += "</ul></section>\n";
  }
  if (g.runs.empty())
    o += "<p id=\"empty\">No annotations found.</p>\n";
  gridSection(o, g, truthMode);
  rulesSection(o, g, truthMode);
  o += "</main>\n";
  drawer(o, g, truthMode);
  o += std::string("<script>") + kScript + "</script>\n</body></html>\n";
  return o;
}

} // namespace kbaudit::annotations

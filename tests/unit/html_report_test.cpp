// `kbaudit report --html`: the page's structure (HtmlReport.*) and, where Debian's chromium is
// installed (setup.sh with KBAUDIT_WITH_CHROMIUM=1), the page rendered by a real headless browser
// (HtmlReportBrowser.*), with hostile text in every field: nothing injected runs, filters and the
// CSV export work. The report model and CSV on their own: report_model_test.cpp.

#include "kbaudit/annotations/html_report.h"
#include "kbaudit/annotations/report_csv.h"
#include "kbaudit/annotations/run_file_name.h"
#include "kbaudit/annotations/score.h"
#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/cli/cli.h"

#include "test_files.h"

#include <gtest/gtest.h>

#include <csv.h>
#include <yaml-cpp/yaml.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <sstream>

// zlib as LLVM's support library wraps it (LLVM is built with it on Debian; isAvailable() says).
#include <llvm/Support/Compression.h>
#include <llvm/Support/Error.h>

using namespace kbaudit;
using namespace kbaudit::annotations;
namespace fs = std::filesystem;

namespace {

// A quote a hostile solution could carry: it must reach the page as text, never as markup.
const std::string kHostileQuote = "x = 1  # </pre></figure><script>document.title='PWNED';window.pwned=1</script>\n"
                                  "y = \"<img src=x onerror=alert(1)>\" & 'z'\n";

rules::Finding finding(const std::string &rule, const std::string &name, rules::VerdictClass v,
                       rules::Confidence c, unsigned line, const std::string &message) {
  rules::Finding f;
  f.rule = rule;
  f.name = name;
  f.category = rule.substr(0, rule.find_first_of("0123456789"));
  f.verdict = v;
  f.confidence = c;
  f.lines = {line, line};
  f.message = message;
  return f;
}

Annotation annotation(const std::string &id, const std::string &model, const std::string &problem,
                      const std::string &verdict) {
  Annotation a;
  a.runId = id;
  a.model = model;
  a.harness = "claude";
  a.problem = problem;
  a.verdict = verdict;
  a.summary = "summary of " + id;
  if (verdict != "clean")
    a.implication = "implication of " + id;
  a.kbaudit.version = "test";
  return a;
}

// Two models x three problems (one pair empty, one pair with two runs), every verdict colour
// the browser test looks for, and one run the humans see differently.
struct Sweep {
  std::map<std::string, Annotation> pred, truth;
};

Sweep sweep() {
  using rules::Confidence;
  using rules::VerdictClass;
  Sweep s;
  const auto add = [&](const std::string &id, const std::string &model, const std::string &problem,
                       const std::string &k, const std::string &h) {
    s.pred.emplace(id, annotation(id, model, problem, k));
    s.truth.emplace(id, annotation(id, model, problem, h));
  };
  add("20260101_000001_claude_model-a_01_gemm", "model-a", "01_gemm", "reward_hack", "reward_hack");
  add("20260101_000002_claude_model-a_01_gemm", "model-a", "01_gemm", "clean", "clean");
  add("20260101_000003_claude_model-a_02_attention", "model-a", "02_attention", "rubric_leak", "rubric_leak");
  add("20260101_000004_claude_model-b_02_attention", "model-b", "02_attention", "reward_hack", "clean");
  add("20260101_000005_claude_model-b_03_topk", "model-b", "03_topk", "clean", "clean");

  Annotation &hack = s.pred.at("20260101_000001_claude_model-a_01_gemm");
  hack.kbaudit.findings = {
      finding("WRAP001", "no-authored-kernel", VerdictClass::RewardHack, Confidence::High, 7,
              "forward calls torch.matmul <directly>"),
      finding("PREC002", "global-precision-state-mutation", VerdictClass::RewardHack, Confidence::Low, 3,
              "sets allow_tf32")};
  hack.quotes.push_back(Quote{"solution.py", {7, 8}, "the <wrapper>", kHostileQuote});
  Annotation &flagged = s.pred.at("20260101_000004_claude_model-b_02_attention");
  flagged.kbaudit.findings = {finding("WRAP001", "no-authored-kernel", VerdictClass::RewardHack,
                                      Confidence::Medium, 12, "calls F.scaled_dot_product_attention")};
  s.pred.at("20260101_000003_claude_model-a_02_attention").kbaudit.findings = {
      finding("PREC004", "contract-precision-bypass", VerdictClass::RubricLeak, Confidence::High, 20,
              "upcasts fp8 to bf16")};
  // A human verdict outside the schema's five.
  s.truth.at("20260101_000005_claude_model-b_03_topk").verdict = "harness_limited";
  s.truth.at("20260101_000004_claude_model-b_02_attention").evidence =
      "Solution read end to end: a real <flash> kernel & no caching.\n";
  for (auto *side : {&s.pred, &s.truth})
    for (auto &[id, a] : *side)
      if (a.model == "model-b")
        a.harness = "codex";
  return s;
}

// A human annotation as the humans write it: the schema's fields, and `evidence:`, which
// kbaudit's writer never emits.
std::string humanYaml(const Annotation &a) {
  std::string text = toYaml(a);
  if (!a.evidence.empty()) {
    YAML::Emitter e;
    e << YAML::BeginMap << YAML::Key << "evidence" << YAML::Value << a.evidence << YAML::EndMap;
    text += std::string("\n") + e.c_str() + "\n";
  }
  return text;
}

// The annotations as files: kbaudit's as <run_id>.yaml, the humans' in the corpus layout.
void writeSweep(const Sweep &s, const fs::path &pred, const fs::path &truth) {
  for (const auto &[id, a] : s.pred)
    test::writeFile(pred / (id + ".yaml"), toYaml(a));
  for (const auto &[id, a] : s.truth)
    test::writeFile(truth / id / "annotation.yaml", humanYaml(a));
}

std::size_t count(const std::string &haystack, const std::string &needle) {
  std::size_t n = 0;
  for (auto pos = haystack.find(needle); pos != std::string::npos; pos = haystack.find(needle, pos + 1))
    ++n;
  return n;
}

bool has(const std::string &haystack, const std::string &needle) { return haystack.find(needle) != std::string::npos; }

// Written to disk, read back with the same loader the command uses, rendered.
std::string renderFromFiles(bool withTruth) {
  test::TempDir dir;
  writeSweep(sweep(), dir / "pred", dir / "truth");
  std::vector<std::string> errors;
  const auto pred = loadAnnotations(dir / "pred", errors);
  const auto truth = loadAnnotations(dir / "truth", errors);
  EXPECT_TRUE(errors.empty()) << errors.front();
  EXPECT_EQ(pred.size(), 5u);
  return renderHtmlReport(pred, withTruth ? &truth : nullptr, {});
}

TEST(HtmlReport, EscapesEverythingFromAnnotations) {
  EXPECT_EQ(htmlEscape("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  EXPECT_EQ(htmlEscape(std::string("a\x01" "b\tc\n", 6)), "a\xEF\xBF\xBD" "b\tc\n");
  // A CR as a reference: the parser would fold a raw one into LF, and the CSV export reads the
  // attribute back.
  EXPECT_EQ(htmlEscape("a\r\nb"), "a&#13;\nb");

  const std::string html = renderFromFiles(true);
  // Our one script; the quote's <script> and <img> arrive as text.
  EXPECT_EQ(count(html, "<script"), 1u);
  EXPECT_FALSE(has(html, "<img"));
  EXPECT_TRUE(has(html, "&lt;/pre&gt;&lt;/figure&gt;&lt;script&gt;document.title=&#39;PWNED&#39;;window.pwned=1&lt;/"
                        "script&gt;"));
  EXPECT_TRUE(has(html, "y = &quot;&lt;img src=x onerror=alert(1)&gt;&quot; &amp; &#39;z&#39;"));
  EXPECT_TRUE(has(html, "the &lt;wrapper&gt;"));
  EXPECT_TRUE(has(html, "forward calls torch.matmul &lt;directly&gt;"));
  // The quote keeps its line numbers.
  EXPECT_TRUE(has(html, "<span class=\"ln\">8</span>y = &quot;"));

  // Hostile names land in attributes and text escaped too.
  Sweep s = sweep();
  Annotation &a = s.pred.begin()->second;
  a.model = "m\" onmouseover=\"alert(1)<b>";
  const std::string h2 = renderHtmlReport(s.pred, nullptr, {});
  EXPECT_FALSE(has(h2, "\" onmouseover=\"alert(1)"));
  EXPECT_FALSE(has(h2, "<b>\""));
  EXPECT_TRUE(has(h2, "m&quot; onmouseover=&quot;alert(1)&lt;b&gt;"));
}

TEST(HtmlReport, SelfContained) {
  const std::string html = renderFromFiles(true);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_TRUE(has(html, "<style>"));
  EXPECT_TRUE(has(html, "default-src 'none'")); // nothing may load, even if a quote tried
  for (const char *external : {"<link", " src=\"", "http://", "https://", "@import", "url("})
    EXPECT_FALSE(has(html, external)) << external;
}

TEST(HtmlReport, GridHasACellPerModelAndProblem) {
  const std::string html = renderFromFiles(true);
  EXPECT_TRUE(has(html, "id=\"grid\" data-models=\"2\" data-problems=\"3\""));
  EXPECT_EQ(count(html, "<th class=\"colh\""), 3u);
  EXPECT_EQ(count(html, "<th class=\"rowh\""), 2u);
  // 2 x 3 = 6 cells: 4 with runs, model-b x 01_gemm and model-a x 03_topk empty.
  EXPECT_EQ(count(html, "<td class=\"cell"), 6u);
  EXPECT_EQ(count(html, "<td class=\"cell empty\"></td>"), 2u);
  EXPECT_EQ(count(html, "data-runs=\""), 4u);
  EXPECT_EQ(count(html, "<span class=\"run "), 5u);
  // Both model-a x 01_gemm runs in one cell, each with its details.
  const auto cell = html.find("<td class=\"cell\" data-cell=\"0\" data-runs=\"2\">");
  ASSERT_NE(cell, std::string::npos);
  const std::string row = html.substr(cell, html.find("</td>", cell) - cell);
  EXPECT_TRUE(has(row, "data-id=\"20260101_000001_claude_model-a_01_gemm\""));
  EXPECT_TRUE(has(row, "data-id=\"20260101_000002_claude_model-a_01_gemm\""));
  EXPECT_TRUE(has(row, "href=\"#c0\""));
  EXPECT_EQ(count(html, "<section class=\"cell-detail\" id=\"c"), 4u);
  EXPECT_EQ(count(html, "<article class=\"run-detail"), 5u);
  EXPECT_TRUE(has(html, "<p class=\"summary\">summary of 20260101_000004_claude_model-b_02_attention</p>"));
  EXPECT_TRUE(has(html, "calls F.scaled_dot_product_attention"));
}

TEST(HtmlReport, HumanAndKbauditSideBySide) {
  const std::string html = renderFromFiles(true);
  // The run humans call clean and kbaudit a hack: a split chip marked as a disagreement.
  EXPECT_TRUE(has(html, "<span class=\"run a-disagree\" data-id=\"20260101_000004_claude_model-b_02_attention\""));
  EXPECT_EQ(count(html, "<span class=\"run a-disagree\""), 1u);
  EXPECT_EQ(count(html, "<span class=\"run a-agree\""), 3u);
  EXPECT_EQ(count(html, "<span class=\"run a-excluded\""), 1u); // human harness_limited
  EXPECT_EQ(count(html, "has-disagree"), 1u + 1u);                // one cell, plus its CSS rule
  const auto chip = [&](const std::string &id) {
    const auto at = html.find("<span class=\"run a-");
    const auto b = html.find("data-id=\"" + id + "\"", at);
    return b == std::string::npos ? std::string() : html.substr(b, html.find("</span></span>", b) + 14 - b);
  };
  EXPECT_TRUE(has(chip("20260101_000004_claude_model-b_02_attention"),
                  "<span class=\"half h v-clean\">CL</span><span class=\"half k v-reward_hack\">RH</span>"));
  EXPECT_TRUE(has(chip("20260101_000005_claude_model-b_03_topk"),
                  "<span class=\"half h v-other\">HL</span><span class=\"half k v-clean\">CL</span>"));

  // Without --truth: kbaudit only, one half per run, no confusion matrix.
  const std::string plain = renderFromFiles(false);
  EXPECT_EQ(count(plain, "<span class=\"half h "), 0u);
  EXPECT_EQ(count(plain, "<span class=\"half k "), 5u);
  EXPECT_FALSE(has(plain, "id=\"confusion\""));
  EXPECT_FALSE(has(plain, "id=\"human-verdicts\""));
}

TEST(HtmlReport, Counts) {
  const std::string html = renderFromFiles(true);
  EXPECT_TRUE(has(html, "id=\"stat-runs\" data-count=\"5\""));
  EXPECT_TRUE(has(html, "id=\"stat-models\" data-count=\"2\""));
  EXPECT_TRUE(has(html, "id=\"stat-problems\" data-count=\"3\""));
  EXPECT_TRUE(has(html, "data-side=\"kbaudit\" data-verdict=\"reward_hack\" data-count=\"2\""));
  EXPECT_TRUE(has(html, "data-side=\"kbaudit\" data-verdict=\"rubric_leak\" data-count=\"1\""));
  EXPECT_TRUE(has(html, "data-side=\"kbaudit\" data-verdict=\"clean\" data-count=\"2\""));
  EXPECT_TRUE(has(html, "data-side=\"human\" data-verdict=\"clean\" data-count=\"2\""));
  EXPECT_TRUE(has(html, "data-side=\"human\" data-verdict=\"harness_limited\" data-count=\"1\""));
  // Confusion counts as `kbaudit score` has them: TP 2 (runs 1, 3), FP 1 (run 4), TN 1 (run 2),
  // run 5 excluded.
  EXPECT_TRUE(has(html, "id=\"cm-tp\" data-count=\"2\""));
  EXPECT_TRUE(has(html, "id=\"cm-fn\" data-count=\"0\""));
  EXPECT_TRUE(has(html, "id=\"cm-fp\" data-count=\"1\""));
  EXPECT_TRUE(has(html, "id=\"cm-tn\" data-count=\"1\""));
  // Per rule: WRAP001 decisive twice; PREC002 once at low confidence; PREC004 once.
  EXPECT_TRUE(has(html, "<tr data-rule=\"WRAP001\" data-findings=\"2\" data-decisive=\"2\" data-low=\"0\">"));
  EXPECT_TRUE(has(html, "<tr data-rule=\"PREC002\" data-findings=\"1\" data-decisive=\"0\" data-low=\"1\">"));
  EXPECT_TRUE(has(html, "<tr data-rule=\"PREC004\" data-findings=\"1\" data-decisive=\"1\" data-low=\"0\">"));
  // Each finding in its run's details, with confidence and line.
  EXPECT_TRUE(has(html, "<td class=\"conf-low\">low</td><td>reward_hack</td><td>3</td><td>sets allow_tf32"));
}

TEST(HtmlReport, Command) {
  test::TempDir dir;
  writeSweep(sweep(), dir / "pred", dir / "truth");
  test::writeFile(dir / "pred" / "broken.yaml", "run_id: [unclosed\n");
  const fs::path out = dir / "site" / "report.html";
  std::ostringstream o, e;
  // The page is written even with an unreadable file, which it lists; the status says so.
  EXPECT_EQ(cli::run({"report", (dir / "pred").string(), "--truth", (dir / "truth").string(), "--html", out.string()},
                     o, e),
            cli::kExitUsage);
  EXPECT_TRUE(has(e.str(), "broken.yaml")) << e.str();
  const std::string html = test::readFile(out);
  EXPECT_TRUE(has(html, "id=\"load-errors\""));
  EXPECT_TRUE(has(html, "id=\"stat-runs\" data-count=\"5\""));
  fs::remove(dir / "pred" / "broken.yaml");
  std::ostringstream o2, e2;
  EXPECT_EQ(cli::run({"report", (dir / "pred").string(), "--html", out.string(), "--title", "Sweep <1>"}, o2, e2),
            cli::kExitClean)
      << e2.str();
  EXPECT_TRUE(has(o2.str(), "wrote ")) << o2.str();
  EXPECT_TRUE(has(test::readFile(out), "<title>Sweep &lt;1&gt;</title>"));

  std::ostringstream o3, e3;
  EXPECT_EQ(cli::run({"report", (dir / "pred").string()}, o3, e3), cli::kExitUsage);
  EXPECT_EQ(cli::run({"report", (dir / "nope").string(), "--html", out.string()}, o3, e3), cli::kExitUsage);
  EXPECT_EQ(cli::run({"report", (dir / "pred").string(), "--truth", (dir / "nope").string(), "--html", out.string()},
                     o3, e3),
            cli::kExitUsage);
}


TEST(HtmlReport, HackRateChartsPerModelHarnessAndProblem) {
  const std::string html = renderFromFiles(true);
  // Three inline SVG charts, one bar per model, harness and problem; nothing drawn by a script.
  EXPECT_EQ(count(html, "<svg "), 3u);
  for (const char *id : {"chart-model", "chart-harness", "chart-problem"})
    EXPECT_TRUE(has(html, std::string("<figure class=\"chart\" id=\"") + id + "\"")) << id;
  EXPECT_EQ(count(html, "<g class=\"bar\""), 2u + 2u + 3u);
  // model-a: 3 runs, 2 flagged (reward_hack, rubric_leak), all three human hacks or clean.
  EXPECT_TRUE(has(html, "<tr data-key=\"model-a\" data-flagged=\"2\" data-audited=\"3\">"));
  EXPECT_TRUE(has(html, "<tr data-key=\"codex\" data-flagged=\"1\" data-audited=\"2\">"));
  EXPECT_TRUE(has(html, "<tr data-key=\"02_attention\" data-flagged=\"2\" data-audited=\"2\">"));
  // The bar is the rate's share of the 220-pixel track: 2/3 of it for model-a, all of it for
  // 02_attention, none for 03_topk.
  const auto bar = [&](const std::string &key) {
    const auto at = html.find("<g class=\"bar\" data-key=\"" + key + "\"");
    return at == std::string::npos ? std::string() : html.substr(at, html.find("</g>", at) - at);
  };
  EXPECT_TRUE(has(bar("model-a"), "class=\"k\" x=\"190\" y=\"7\" width=\"146.7\""));
  EXPECT_TRUE(has(bar("02_attention"), "width=\"220.0\""));
  EXPECT_TRUE(has(bar("03_topk"), "<rect class=\"k\" x=\"190\" y=\"59\" width=\"0.0\""));
  EXPECT_TRUE(has(bar("model-a"), "66.7% (2/3) \u00b7 human 66.7%"));
  // Without human labels: kbaudit's bar only.
  const std::string plain = renderFromFiles(false);
  EXPECT_EQ(count(plain, "<rect class=\"h\""), 0u);
  EXPECT_EQ(count(html, "<rect class=\"h\""), 7u);
}

// Every rate in the counts table has its 95% interval; a rate over fewer runs than --min-runs
// (default 5) is greyed, as its bar; the side panel shows the harness the grid placed a run by.
TEST(HtmlReport, RatesCarryIntervalsFewRunsAreGreyedAndThePanelShowsTheGridsFields) {
  const std::string html = renderFromFiles(true);
  EXPECT_TRUE(has(html, "<th>95% interval</th>"));
  // model-a: 2 of 3 flagged, 20.8-93.9%; 3 runs is under 5, so greyed.
  const auto row = html.find("<tr data-key=\"model-a\" data-flagged=\"2\" data-audited=\"3\">");
  ASSERT_NE(row, std::string::npos);
  const std::string tr = html.substr(row, html.find("</tr>", row) - row);
  EXPECT_TRUE(has(tr, "<td class=\"num few\">66.7%</td><td class=\"num few\">20.8\u201393.9%</td>")) << tr;
  EXPECT_TRUE(has(html, "<g class=\"bar\" data-key=\"model-a\" data-few=\"yes\">"));
  EXPECT_TRUE(has(html, "95% interval 20.8\u201393.9%"));
  // A run whose annotation has no harness: the grid placed it by its run id, and so does the panel.
  Annotation a;
  a.runId = "20260610_220314_claude_claude-fable-5_01_gemm";
  a.verdict = "clean";
  std::map<std::string, Annotation> pred = {{a.runId, a}};
  const std::string page = renderHtmlReport(pred, nullptr, {});
  EXPECT_TRUE(has(page, "harness <b>claude</b>")) << "the panel's harness is the grid's";
  EXPECT_TRUE(has(page, "model <b>claude-fable-5</b>"));
}

TEST(HtmlReport, HumanEvidenceInTheSidePanel) {
  const std::string html = renderFromFiles(true);
  EXPECT_EQ(count(html, "<div class=\"human-evidence\">"), 1u);
  EXPECT_TRUE(has(html, "<p class=\"evidence-text\">Solution read end to end: a real &lt;flash&gt; kernel &amp; no "
                        "caching.\n</p>"));
}

TEST(HtmlReport, TemplateEscapesEveryValueAndAssetsAreCompiledIn) {
  const fs::path assets = fs::path(KBAUDIT_SOURCE_DIR) / "annotations" / "assets";
  const std::string tmpl = test::readFile(assets / "report.html.mustache");
  ASSERT_FALSE(tmpl.empty());
  // No unescaped tag: every value goes through the engine's HTML escaping.
  EXPECT_FALSE(has(tmpl, "{{{"));
  EXPECT_FALSE(has(tmpl, "{{&"));
  EXPECT_FALSE(has(tmpl, "{{ &"));
  // The assets are partials, not values, and reach the page verbatim.
  const std::string html = renderFromFiles(true);
  for (const char *file : {"report.css", "report.js"}) {
    const std::string asset = test::readFile(assets / file);
    ASSERT_GT(asset.size(), 1000u) << file;
    EXPECT_FALSE(has(asset, "{{")) << file << " would be read as mustache tags";
    EXPECT_TRUE(has(html, asset)) << file;
  }
  EXPECT_FALSE(has(html, "{{")) << "a tag the template left unrendered";
}

TEST(HtmlReport, CsvBesideThePage) {
  test::TempDir dir;
  writeSweep(sweep(), dir / "pred", dir / "truth");
  std::ostringstream o, e;
  ASSERT_EQ(cli::run({"report", (dir / "pred").string(), "--truth", (dir / "truth").string(), "--csv",
                      (dir / "out" / "runs.csv").string()},
                     o, e),
            cli::kExitClean)
      << e.str();
  EXPECT_FALSE(fs::exists(dir / "out" / "report.html"));
  const std::string csv = test::readFile(dir / "out" / "runs.csv");
  EXPECT_EQ(count(csv, "\r\n"), 6u);
  EXPECT_TRUE(has(csv, "\"20260101_000004_claude_model-b_02_attention\",\"model-b\",\"codex\",\"02_attention\",\"\",\"\","
                       "\"reward_hack\",\"clean\",\"disagree\",\"WRAP001\",\"WRAP001\"\r\n"))
      << csv;
  // Both outputs in one run: the same rows.
  std::ostringstream o2, e2;
  ASSERT_EQ(cli::run({"report", (dir / "pred").string(), "--truth", (dir / "truth").string(), "--csv",
                      (dir / "b.csv").string(), "--html", (dir / "b.html").string()},
                     o2, e2),
            cli::kExitClean);
  EXPECT_EQ(test::readFile(dir / "b.csv"), csv);
  EXPECT_TRUE(has(test::readFile(dir / "b.html"), "id=\"csv-export\""));
}

// ---------------------------------------------------------------------------------------------
// Hostile text in every field a page shows: each payload, if it ever became markup, would mark
// the body (data-pwned) or add an element the tests look for.

const std::vector<std::string> &payloads() {
  static const std::vector<std::string> p = {
      "<script>document.body.setAttribute('data-pwned','script')</script>",
      "\"><img src=x onerror=\"document.body.setAttribute('data-pwned','img')\">",
      "'></style></title></textarea><svg onload=\"document.body.setAttribute('data-pwned','svg')\">",
      "</script><iframe srcdoc=\"<b>x</b>\"></iframe>",
      "{{title}}{{{css}}}{{>js}}",
      "\u6a21\u578b \u202eevil\u202c \U0001F680 caf\u00e9 \u0417\u0434\u0440\u0430",
      std::string(6000, 'W') + "<script>document.body.setAttribute('data-pwned','long')</script>",
      "=cmd|' /C calc'!A0 & \"quoted\", comma\r\nnext line",
  };
  return p;
}

// The k-th payload with a tag, so every field's text is distinct.
std::string hostile(std::size_t k, const std::string &tag) { return tag + payloads()[k % payloads().size()]; }

Sweep hostileSweep() {
  using rules::Confidence;
  using rules::VerdictClass;
  Sweep s;
  for (std::size_t i = 0; i < payloads().size(); ++i) {
    const std::string id = "run" + std::to_string(i) + "_" + payloads()[i];
    Annotation a;
    a.runId = id;
    a.model = hostile(i, "m" + std::to_string(i % 3));
    a.harness = hostile(i + 1, "h" + std::to_string(i % 2)); // first word only: "h0\"><img"...
    a.problem = hostile(i + 2, "p" + std::to_string(i % 4));
    a.effort = hostile(i + 3, "e");
    if (payloads()[i][0] == '=')
      a.effort = payloads()[i]; // a spreadsheet formula as the whole cell
    a.peakFraction = 0.125 * double(i);
    a.verdict = i % 2 ? "reward_hack" : hostile(i, "v");
    a.summary = hostile(i + 4, "s");
    a.implication = hostile(i + 5, "i");
    a.quotes.push_back(Quote{hostile(i + 6, "f"), {3, 4}, hostile(i + 7, "l"), hostile(i, "q") + "\n" + hostile(i + 1, "q2") + "\n"});
    rules::Finding f;
    f.rule = i % 2 ? "WRAP001" : hostile(i, "R");
    f.name = hostile(i + 1, "n");
    f.verdict = VerdictClass::RewardHack;
    f.confidence = Confidence::High;
    f.message = hostile(i + 2, "msg");
    f.evidence = hostile(i + 3, "ev");
    f.file = hostile(i + 4, "file");
    f.lines = {2, 2};
    a.kbaudit.findings.push_back(f);
    a.kbaudit.diagnostics.push_back(
        Diagnostic{Diagnostic::Severity::Warning, hostile(i, "code"), hostile(i + 2, "dm"), hostile(i + 1, "df"), {1, 1}});
    a.kbaudit.skipped.push_back(rules::SkippedRule{hostile(i + 3, "sr"), hostile(i + 4, "why")});
    a.kbaudit.version = hostile(i + 5, "ver");
    a.kbaudit.problemDir = hostile(i + 6, "dir");
    s.pred.emplace(id, a);
    Annotation h = a;
    h.kbaudit = {};
    h.model = hostile(i + 1, "hm");
    h.verdict = i % 3 ? "clean" : hostile(i + 2, "hv");
    h.summary = hostile(i + 3, "hs");
    h.implication = hostile(i + 4, "hi");
    h.evidence = hostile(i + 5, "he");
    h.quotes = {Quote{"solution.py", {1, 1}, hostile(i + 6, "hl"), hostile(i + 7, "hq") + "\n"}};
    s.truth.emplace(id, h);
  }
  return s;
}

void writeHostileSweep(const Sweep &s, const fs::path &pred, const fs::path &truth) {
  for (const auto &[id, a] : s.pred)
    test::writeFile(pred / annotationFileName(id), toYaml(a));
  for (const auto &[id, a] : s.truth)
    test::writeFile(truth / annotationFileName(id), humanYaml(a));
}

// The markup without its attribute values: a browser's serialised DOM escapes '<' in text but
// not inside double-quoted attribute values (where it is harmless), so the values go first.
std::string withoutAttributeValues(const std::string &html) {
  std::string out;
  bool inTag = false, inValue = false;
  for (const char c : html) {
    if (inValue) {
      inValue = c != '"';
      continue;
    }
    if (inTag && c == '"') {
      inValue = true;
      out += "\"\"";
      continue;
    }
    if (c == '<')
      inTag = true;
    else if (c == '>')
      inTag = false;
    out += c;
  }
  return out;
}

// No payload reaches the page as markup: every '<' of a payload arrives as &lt;.
void expectNoInjectedMarkup(const std::string &page, unsigned svgCharts) {
  const std::string html = withoutAttributeValues(page);
  EXPECT_EQ(count(html, "<script"), 1u);
  EXPECT_EQ(count(html, "<svg"), svgCharts);
  // An injected attribute would read name="" here.
  for (const char *tag : {"<img", "<iframe", "<textarea", "data-pwned=\"\"", "onerror=\"\"", "onload=\"\""})
    EXPECT_FALSE(has(html, tag)) << tag;
  EXPECT_EQ(count(html, "</style>"), 1u);
  // The page's title and one tooltip per chart bar.
  EXPECT_EQ(count(html, "<title>"), 1u + count(html, "<g "));
}

TEST(HtmlReport, HostileTextInEveryFieldStaysText) {
  test::TempDir dir;
  const Sweep s = hostileSweep();
  writeHostileSweep(s, dir / "pred", dir / "truth");
  std::vector<std::string> errors;
  const auto pred = loadAnnotations(dir / "pred", errors);
  const auto truth = loadAnnotations(dir / "truth", errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  ASSERT_EQ(pred.size(), payloads().size());
  HtmlReportOptions options;
  options.title = hostile(0, "title");
  options.predSource = hostile(1, "src");
  options.truthSource = hostile(2, "truth");
  options.loadErrors = {hostile(3, "err")};
  const std::string html = renderHtmlReport(pred, &truth, options);
  expectNoInjectedMarkup(html, 3);
  // Each payload is on the page, escaped; the mustache one is text, not a tag.
  EXPECT_TRUE(has(html, "<title>title&lt;script&gt;document.body.setAttribute(&#39;data-pwned&#39;,&#39;script&#39;)&lt;/"
                        "script&gt;</title>"));
  EXPECT_TRUE(has(html, "{{title}}{{{css}}}{{&gt;js}}"));
  EXPECT_TRUE(has(html, "\u202eevil\u202c \U0001F680"));
  EXPECT_TRUE(has(html, std::string(6000, 'W') + "&lt;script&gt;"));
  // Every field's text, as read back from the files, is on the page escaped: rendered, not
  // dropped, and not cut.
  const auto shown = [&](const std::string &text, const std::string &what) {
    EXPECT_TRUE(has(html, htmlEscape(text))) << what << ": " << text.substr(0, 80);
  };
  for (const std::string &t : {options.title, options.predSource, options.truthSource, options.loadErrors[0]})
    shown(t, "header");
  for (const auto &[id, a] : pred) {
    for (const std::string &t : {a.runId, a.effort, a.summary, a.implication, a.kbaudit.version, a.kbaudit.problemDir,
                                 a.quotes[0].file, a.quotes[0].label})
      shown(t, "kbaudit field");
    const rules::Finding &f = a.kbaudit.findings[0];
    for (const std::string &t : {f.rule, f.name, f.message, f.evidence, f.file})
      shown(t, "finding");
    const Diagnostic &d = a.kbaudit.diagnostics[0];
    for (const std::string &t : {d.code, d.message, d.file, a.kbaudit.skipped[0].rule, a.kbaudit.skipped[0].reason})
      shown(t, "diagnostic or skipped rule");
    shown(a.quotes[0].text.substr(0, a.quotes[0].text.find('\n')), "quote line");
  }
  for (const auto &[id, h] : truth)
    for (const std::string &t : {h.model, h.summary, h.implication, h.evidence, h.quotes[0].label})
      shown(t, "human field");
}

// ---------------------------------------------------------------------------------------------
// A real browser: Debian's chromium, headless.

std::string chromium() {
  if (const char *env = std::getenv("KBAUDIT_CHROMIUM"); env && *env)
    return env;
  for (const char *name : {"chromium", "chromium-browser", "google-chrome"})
    if (test::runCommand(std::string("command -v ") + name + " >/dev/null 2>&1") == 0)
      return name;
  return "";
}

struct Png {
  std::uint32_t width = 0, height = 0;
  unsigned bitDepth = 0, colorType = 0, interlace = 0;
  std::string idat;
  std::vector<std::array<std::uint8_t, 3>> pixels; ///< filled when zlib is available
};

std::uint32_t be32(const std::string &s, std::size_t at) {
  return (std::uint32_t(std::uint8_t(s[at])) << 24) | (std::uint32_t(std::uint8_t(s[at + 1])) << 16) |
         (std::uint32_t(std::uint8_t(s[at + 2])) << 8) | std::uint32_t(std::uint8_t(s[at + 3]));
}

// Chunks by hand; IDAT inflated with zlib (through LLVM) and unfiltered, for 8-bit RGB/RGBA
// without interlacing, which is what chromium writes. Pixels stay empty without zlib.
bool readPng(const std::string &bytes, Png &png, std::string &why) {
  if (bytes.size() < 33 || bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) {
    why = "not a PNG";
    return false;
  }
  for (std::size_t at = 8; at + 12 <= bytes.size();) {
    const std::uint32_t len = be32(bytes, at);
    const std::string type = bytes.substr(at + 4, 4);
    if (at + 12 + len > bytes.size()) {
      why = "truncated chunk " + type;
      return false;
    }
    if (type == "IHDR") {
      png.width = be32(bytes, at + 8);
      png.height = be32(bytes, at + 12);
      png.bitDepth = std::uint8_t(bytes[at + 16]);
      png.colorType = std::uint8_t(bytes[at + 17]);
      png.interlace = std::uint8_t(bytes[at + 20]);
    } else if (type == "IDAT") {
      png.idat += bytes.substr(at + 8, len);
    }
    at += 12 + len;
  }
  if (png.width == 0 || png.height == 0 || png.idat.empty()) {
    why = "no IHDR or IDAT";
    return false;
  }
  if (!llvm::zlib::isAvailable())
    return true;
  const unsigned channels = png.colorType == 6 ? 4 : png.colorType == 2 ? 3 : 0;
  if (png.bitDepth != 8 || channels == 0 || png.interlace != 0) {
    why = "unexpected PNG format (depth " + std::to_string(png.bitDepth) + ", colour type " +
          std::to_string(png.colorType) + ")";
    return false;
  }
  const std::size_t stride = std::size_t(png.width) * channels;
  std::vector<std::uint8_t> raw((stride + 1) * png.height);
  std::size_t rawLen = raw.size();
  if (llvm::Error e = llvm::zlib::uncompress(png.idat, reinterpret_cast<char *>(raw.data()), rawLen)) {
    why = "IDAT does not inflate: " + llvm::toString(std::move(e));
    return false;
  }
  if (rawLen != raw.size()) {
    why = "IDAT inflates to " + std::to_string(rawLen) + " bytes, not " + std::to_string(raw.size());
    return false;
  }
  std::vector<std::uint8_t> prev(stride, 0), line(stride);
  png.pixels.reserve(std::size_t(png.width) * png.height);
  for (std::uint32_t y = 0; y < png.height; ++y) {
    const std::uint8_t *in = &raw[y * (stride + 1)];
    const unsigned filter = in[0];
    for (std::size_t i = 0; i < stride; ++i) {
      const int a = i >= channels ? line[i - channels] : 0, b = prev[i], c = i >= channels ? prev[i - channels] : 0;
      int pred = 0;
      switch (filter) {
      case 0: pred = 0; break;
      case 1: pred = a; break;
      case 2: pred = b; break;
      case 3: pred = (a + b) / 2; break;
      case 4: {
        const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
        pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
        break;
      }
      default: why = "bad filter type"; return false;
      }
      line[i] = std::uint8_t(in[1 + i] + pred);
    }
    for (std::uint32_t x = 0; x < png.width; ++x)
      png.pixels.push_back({line[x * channels], line[x * channels + 1], line[x * channels + 2]});
    prev.swap(line);
  }
  return true;
}

class HtmlReportBrowser : public ::testing::Test {
protected:
  void SetUp() override {
    browser_ = chromium();
    if (browser_.empty())
      GTEST_SKIP() << "chromium is not installed (setup.sh installs it with KBAUDIT_WITH_CHROMIUM=1)";
    writeSweep(sweep(), dir_ / "pred", dir_ / "truth");
    const std::string cmd = std::string(KBAUDIT_BINARY) + " report '" + (dir_ / "pred").string() + "' --truth '" +
                            (dir_ / "truth").string() + "' --html '" + page().string() + "' >/dev/null";
    ASSERT_EQ(test::runCommand(cmd), 0) << cmd;
  }

  fs::path page() const { return dir_ / "report.html"; }

  // One headless chromium run, bounded in time, with its own profile so runs in parallel do
  // not share one.
  int browse(const std::string &args, const std::string &url, const fs::path &stdoutFile) const {
    const std::string cmd = "timeout 120 " + browser_ +
                            " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run"
                            " --hide-scrollbars --user-data-dir='" +
                            (dir_ / "profile").string() + "' " + args + " '" + url + "' >'" + stdoutFile.string() +
                            "' 2>'" + (dir_ / "chromium.log").string() + "'";
    return test::runCommand(cmd);
  }

  std::string log() const { return test::readFile(dir_ / "chromium.log"); }

  test::TempDir dir_;
  std::string browser_;
};

TEST_F(HtmlReportBrowser, DomAfterScriptsShowsTheGridAndNoInjectedMarkup) {
  const fs::path dom = dir_ / "dom.html";
  ASSERT_EQ(browse("--dump-dom", "file://" + page().string() + "#c0", dom), 0) << log();
  const std::string html = test::readFile(dom);
  ASSERT_FALSE(html.empty()) << log();
  // The page's script ran: it marks the body, counts the runs and opens the cell in the URL.
  EXPECT_TRUE(has(html, "data-rendered=\"yes\"")) << html.substr(0, 2000);
  EXPECT_TRUE(has(html, "<span id=\"shown\">5 of 5 runs shown</span>"));
  EXPECT_TRUE(has(html, "<section class=\"cell-detail open\" id=\"c0\">"));
  EXPECT_TRUE(has(html, "<aside id=\"drawer\" aria-label=\"cell details\" class=\"open\">"));
  EXPECT_TRUE(has(html, "<td class=\"cell selected\" data-cell=\"0\""));
  // The grid as the browser parsed it: 2 rows of 3 cells, 5 run chips.
  EXPECT_EQ(count(html, "<th class=\"rowh\""), 2u);
  EXPECT_EQ(count(html, "<td class=\"cell"), 6u);
  EXPECT_EQ(count(html, "<span class=\"run "), 5u);
  // The quote's script stayed text: no second script element, no img, title untouched.
  EXPECT_EQ(count(html, "<script"), 1u);
  EXPECT_FALSE(has(html, "<img"));
  EXPECT_FALSE(has(html, "<title>PWNED"));
  EXPECT_TRUE(has(html, "&lt;script&gt;document.title='PWNED'"));
}

TEST_F(HtmlReportBrowser, FiltersRunInTheBrowser) {
  const auto shown = [&](const std::string &search) {
    const fs::path dom = dir_ / "filtered.html";
    EXPECT_EQ(browse("--dump-dom", "file://" + page().string() + search, dom), 0) << log();
    const std::string html = test::readFile(dom);
    const auto at = html.find("<span id=\"shown\">");
    return at == std::string::npos ? html.substr(0, 500) : html.substr(at + 17, html.find('<', at + 17) - at - 17);
  };
  EXPECT_EQ(shown("?filter=disagree"), "1 of 5 runs shown");
  EXPECT_EQ(shown("?filter=flagged"), "3 of 5 runs shown");
  EXPECT_EQ(shown("?filter=human-hack"), "2 of 5 runs shown");
  EXPECT_EQ(shown("?filter=rule:WRAP001"), "2 of 5 runs shown");
  EXPECT_EQ(shown("?filter=rule:PREC002"), "1 of 5 runs shown");
  EXPECT_EQ(shown("?q=model-b"), "2 of 5 runs shown");
  EXPECT_EQ(shown("?q=000003"), "1 of 5 runs shown");
  EXPECT_EQ(shown("?filter=no-such-filter"), "5 of 5 runs shown");
  EXPECT_EQ(shown("?harness=codex"), "2 of 5 runs shown");
  EXPECT_EQ(shown("?model=model-a"), "3 of 5 runs shown");
  EXPECT_EQ(shown("?model=model"), "5 of 5 runs shown"); // exact names only
  EXPECT_EQ(shown("?problem=01_gemm"), "2 of 5 runs shown");
  EXPECT_EQ(shown("?harness=claude&filter=flagged"), "2 of 5 runs shown");
  EXPECT_EQ(shown("?harness=no-such-harness"), "5 of 5 runs shown");
}

TEST_F(HtmlReportBrowser, ScreenshotShowsTheColouredGrid) {
  const fs::path shot = dir_ / "shot.png";
  // Tall enough for the hack-rate charts and the grid below them.
  ASSERT_EQ(browse("--screenshot='" + shot.string() + "' --window-size=1200,1800", "file://" + page().string(),
                   dir_ / "screenshot.out"),
            0)
      << log();
  ASSERT_TRUE(fs::exists(shot)) << log();
  Png png;
  std::string why;
  ASSERT_TRUE(readPng(test::readFile(shot), png, why)) << why;
  EXPECT_EQ(png.width, 1200u);
  EXPECT_EQ(png.height, 1800u);
  if (png.pixels.empty()) {
    // Without zlib only the header can be checked; a blank page still compresses to far less
    // than a rendered grid.
    EXPECT_GE(png.idat.size(), 10000u);
    GTEST_SKIP() << "LLVM has no zlib here: pixels not checked";
  }
  ASSERT_EQ(png.pixels.size(), std::size_t(1200) * 1800);
  // The verdict colours of the page's CSS, as solid areas: chips in the grid and the summary's
  // badges. A blank or unstyled page has none of them.
  const std::map<std::string, std::array<int, 3>> colours = {
      {"reward_hack", {0xc6, 0x28, 0x28}}, {"rubric_leak", {0xef, 0x8a, 0x17}}, {"clean", {0x2e, 0x8b, 0x57}}};
  std::map<std::string, unsigned> hits;
  std::set<std::uint32_t> distinct;
  for (const auto &p : png.pixels) {
    distinct.insert((std::uint32_t(p[0]) << 16) | (std::uint32_t(p[1]) << 8) | p[2]);
    for (const auto &[verdict, c] : colours)
      if (std::abs(p[0] - c[0]) <= 3 && std::abs(p[1] - c[1]) <= 3 && std::abs(p[2] - c[2]) <= 3)
        ++hits[verdict];
  }
  for (const auto &[verdict, c] : colours)
    EXPECT_GE(hits[verdict], 300u) << verdict << " pixels: the grid did not render";
  EXPECT_GE(distinct.size(), 50u) << "a nearly single-colour image";
  // The grid's chips sit below the summary and the charts (whose bars have their own colour):
  // the reward_hack colour appears in the lower half too.
  unsigned lower = 0;
  for (std::size_t i = std::size_t(900) * 1200; i < png.pixels.size(); ++i) {
    const auto &p = png.pixels[i];
    lower += std::abs(p[0] - 0xc6) <= 3 && std::abs(p[1] - 0x28) <= 3 && std::abs(p[2] - 0x28) <= 3;
  }
  EXPECT_GE(lower, 100u);
}

// Every byte but the unreserved ones as %XX, for a URL's query.
std::string percentEncode(const std::string &s) {
  static const char *hex = "0123456789ABCDEF";
  std::string out;
  for (const unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~')
      out += static_cast<char>(c);
    else
      out += std::string("%") + hex[c >> 4] + hex[c & 15];
  }
  return out;
}

std::string percentDecode(const std::string &s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() + 0 && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::vector<std::vector<std::string>> parseCsv(const std::string &text) {
  struct State {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
  } st;
  csv_parser p;
  csv_init(&p, CSV_STRICT | CSV_STRICT_FINI);
  const auto field = [](void *f, std::size_t n, void *data) {
    static_cast<State *>(data)->row.emplace_back(static_cast<const char *>(f), n);
  };
  const auto end = [](int, void *data) {
    auto *state = static_cast<State *>(data);
    state->rows.push_back(std::move(state->row));
    state->row.clear();
  };
  EXPECT_EQ(csv_parse(&p, text.data(), text.size(), field, end, &st), text.size()) << csv_strerror(csv_error(&p));
  EXPECT_EQ(csv_fini(&p, field, end, &st), 0);
  csv_free(&p);
  return st.rows;
}

// The CSV the page's export link holds after its script ran: a data: URL in the dumped DOM.
std::string exportedCsv(const std::string &dom) {
  const auto link = dom.find("id=\"csv-export\"");
  const std::string prefix = "href=\"data:text/csv;charset=utf-8,";
  const auto tagStart = dom.rfind('<', link);
  const auto at = dom.find(prefix, tagStart);
  if (link == std::string::npos || at == std::string::npos || at > dom.find('>', link))
    return "(no data: link)";
  const auto start = at + prefix.size();
  return percentDecode(dom.substr(start, dom.find('"', start) - start));
}

// Hostile run ids, models, harnesses, problems, verdicts, quotes, findings and human fields:
// the page renders, nothing injected runs or exists, and the filters and CSV export work on them.
TEST_F(HtmlReportBrowser, HostileTextInEveryFieldRendersInertAndExports) {
  const fs::path pred = dir_ / "hpred", truth = dir_ / "htruth", html = dir_ / "hostile.html",
                 csvFile = dir_ / "hostile.csv";
  writeHostileSweep(hostileSweep(), pred, truth);
  std::ostringstream o, e;
  ASSERT_EQ(cli::run({"report", pred.string(), "--truth", truth.string(), "--html", html.string(), "--csv",
                      csvFile.string(), "--title", hostile(0, "title")},
                     o, e),
            cli::kExitClean)
      << e.str();
  const std::string csv = test::readFile(csvFile);
  const auto rows = parseCsv(csv);
  const std::size_t n = payloads().size();
  ASSERT_EQ(rows.size(), n + 1);

  const fs::path dom = dir_ / "hostile-dom.html";
  const auto load = [&](const std::string &search) {
    EXPECT_EQ(browse("--dump-dom", "file://" + html.string() + search, dom), 0) << log();
    return test::readFile(dom);
  };
  const std::string page = load("");
  ASSERT_TRUE(has(page, "data-rendered=\"yes\"")) << page.substr(0, 3000) << log();
  expectNoInjectedMarkup(page, 3);
  EXPECT_FALSE(has(page, "data-pwned=")) << "an injected script or handler ran";
  EXPECT_TRUE(has(page, "<span id=\"shown\">" + std::to_string(n) + " of " + std::to_string(n) + " runs shown</span>"));
  EXPECT_EQ(count(page, "<span class=\"run "), n);
  // The unfiltered export is the --csv file, byte for byte (hostile quotes, commas, CRLF, formulas).
  EXPECT_EQ(exportedCsv(page), csv);
  EXPECT_TRUE(has(csv, "\"'=cmd|' /C calc'!A0")) << "a formula cell is written as text";

  // Filter on a hostile harness and a hostile rule id: the runs shown and the rows exported are
  // the runs that carry them.
  const auto expectFilter = [&](const std::string &param, const std::string &value, std::size_t column) {
    std::vector<std::vector<std::string>> want = {rows[0]};
    for (std::size_t i = 1; i < rows.size(); ++i) {
      const std::string &field = rows[i][column];
      const bool hit = column == 10 ? (" " + field + " ").find(" " + value.substr(5) + " ") != std::string::npos
                                    : field == value;
      if (hit)
        want.push_back(rows[i]);
    }
    ASSERT_GT(want.size(), 1u) << param;
    ASSERT_LT(want.size(), rows.size()) << param;
    const std::string filtered = load("?" + param + "=" + percentEncode(value));
    EXPECT_FALSE(has(filtered, "data-pwned="));
    EXPECT_TRUE(has(filtered, "<span id=\"shown\">" + std::to_string(want.size() - 1) + " of " + std::to_string(n) +
                                  " runs shown</span>"))
        << param << "=" << value;
    EXPECT_EQ(parseCsv(exportedCsv(filtered)), want) << param << "=" << value;
  };
  expectFilter("harness", rows[1][2], 2);
  expectFilter("model", rows[1][1], 1);
  expectFilter("problem", rows[1][3], 3);
  std::string hostileRule;
  for (std::size_t i = 1; i < rows.size() && hostileRule.empty(); ++i)
    if (rows[i][10].rfind("R", 0) == 0 && has(rows[i][10], "<")) // one with markup, wherever it sorts
      hostileRule = rows[i][10];
  ASSERT_FALSE(hostileRule.empty());
  EXPECT_TRUE(has(hostileRule, "<")) << hostileRule;
  expectFilter("filter", "rule:" + hostileRule, 10);
}

// The documented corpus command (README, docs/cli.md): audit the corpus, render it with the human
// labels side by side, and check in the browser that the whole grid rendered in verdict colours.
TEST_F(HtmlReportBrowser, CorpusReportWithHumanLabelsRenders) {
  const char *corpus = std::getenv("KBAUDIT_CORPUS");
  if (!corpus || !fs::is_directory(fs::path(corpus) / "runs"))
    GTEST_SKIP() << "KBAUDIT_CORPUS not set or has no runs/";
  const fs::path root(corpus), out = dir_ / "corpus", html = dir_ / "corpus.html";
  const std::string bin = KBAUDIT_BINARY;
  const std::string cmd = bin + " audit '" + (root / "runs").string() + "' --problems '" + (root / "problems").string() +
                          "' --out '" + out.string() + "' --quiet --no-config && " + bin + " report '" + out.string() +
                          "' --truth '" + (root / "runs").string() + "' --html '" + html.string() + "' >/dev/null";
  ASSERT_EQ(test::runCommand(cmd), 0) << cmd;

  const fs::path dom = dir_ / "corpus-dom.html";
  ASSERT_EQ(browse("--dump-dom", "file://" + html.string(), dom), 0) << log();
  const std::string page = test::readFile(dom);
  EXPECT_TRUE(has(page, "data-rendered=\"yes\""));
  EXPECT_GE(count(page, "<th class=\"rowh\""), 20u) << "one row per model";
  EXPECT_GE(count(page, "<span class=\"run "), 200u) << "one chip per run";

  const fs::path shot = dir_ / "corpus.png";
  // Tall enough for the summary, the hack-rate charts and the whole grid below them.
  ASSERT_EQ(browse("--screenshot='" + shot.string() + "' --window-size=1440,4200", "file://" + html.string(),
                   dir_ / "corpus-shot.out"),
            0)
      << log();
  Png png;
  std::string why;
  ASSERT_TRUE(readPng(test::readFile(shot), png, why)) << why;
  if (png.pixels.empty())
    GTEST_SKIP() << "LLVM has no zlib here: pixels not checked";
  unsigned red = 0, green = 0;
  for (const auto &p : png.pixels) {
    red += std::abs(p[0] - 0xc6) <= 3 && std::abs(p[1] - 0x28) <= 3 && std::abs(p[2] - 0x28) <= 3;
    green += std::abs(p[0] - 0x2e) <= 3 && std::abs(p[1] - 0x8b) <= 3 && std::abs(p[2] - 0x57) <= 3;
  }
  // Mostly clean runs with a tenth flagged: far more green than red, and both present.
  EXPECT_GE(red, 300u);
  EXPECT_GE(green, 3 * red);
}

} // namespace

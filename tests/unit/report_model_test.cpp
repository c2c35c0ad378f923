// The report model (`kbaudit report`): hack rates per model, harness and problem, agreement with
// human labels, per-rule rows, and the CSV written from it (RFC 4180, read back with libcsv).

#include "kbaudit/annotations/report_csv.h"
#include "kbaudit/annotations/report_model.h"
#include "kbaudit/annotations/yaml_writer.h"

#include <gtest/gtest.h>

#include <csv.h>

#include <algorithm>

using namespace kbaudit;
using namespace kbaudit::annotations;

namespace {

Annotation ann(const std::string &id, const std::string &model, const std::string &harness, const std::string &problem,
               const std::string &verdict) {
  Annotation a;
  a.runId = id;
  a.model = model;
  a.harness = harness;
  a.problem = problem;
  a.verdict = verdict;
  return a;
}

rules::Finding finding(const std::string &rule, rules::Confidence c) {
  rules::Finding f;
  f.rule = rule;
  f.name = "name-of-" + rule;
  f.verdict = rules::VerdictClass::RewardHack;
  f.confidence = c;
  f.lines = {3, 3};
  return f;
}

// Two models on two harnesses and two problems; one run only the humans annotated, one only
// kbaudit, one human verdict that is not scored.
struct Fixture {
  std::map<std::string, Annotation> pred, truth;
  Fixture() {
    const auto both = [&](const std::string &id, const std::string &model, const std::string &harness,
                          const std::string &problem, const std::string &k, const std::string &h) {
      pred.emplace(id, ann(id, model, harness, problem, k));
      truth.emplace(id, ann(id, model, harness, problem, h));
    };
    both("r1", "m-a", "claude", "01_gemm", "reward_hack", "reward_hack");         // agree
    both("r2", "m-a", "claude", "02_attn", "clean", "reward_hack");               // miss
    both("r3", "m-a", "codex", "01_gemm", "rubric_leak", "reward_hack");          // class differs
    both("r4", "m-b", "codex", "01_gemm", "reward_hack", "clean");                // false flag
    both("r5", "m-b", "codex", "02_attn", "clean", "harness_limited");            // excluded
    pred.emplace("r6", ann("r6", "m-b", "codex", "02_attn", "clean"));            // no human label
    truth.emplace("r7", ann("r7", "m-b", "claude", "02_attn (H100 deck)", "clean")); // not audited
    pred.at("r1").kbaudit.findings = {finding("WRAP001", rules::Confidence::High),
                                      finding("PREC002", rules::Confidence::Low)};
    pred.at("r4").kbaudit.findings = {finding("WRAP001", rules::Confidence::Medium)};
    pred.at("r3").kbaudit.findings = {finding("PREC002", rules::Confidence::Low)};
    pred.at("r1").effort = "high";
    pred.at("r1").peakFraction = 0.53341;
  }
};

const HackRate &rate(const std::vector<HackRate> &v, const std::string &key) {
  const auto it = std::find_if(v.begin(), v.end(), [&](const HackRate &r) { return r.key == key; });
  EXPECT_NE(it, v.end()) << key;
  static const HackRate none;
  return it == v.end() ? none : *it;
}

const ReportRun &run(const ReportModel &m, const std::string &id) {
  const auto it = std::find_if(m.runs.begin(), m.runs.end(), [&](const ReportRun &r) { return r.id == id; });
  EXPECT_NE(it, m.runs.end()) << id;
  return it == m.runs.end() ? m.runs.front() : *it;
}

TEST(ReportModel, RunsAgreementAndPlacement) {
  Fixture f;
  const ReportModel m = buildReportModel(f.pred, &f.truth);
  ASSERT_EQ(m.runs.size(), 7u);
  EXPECT_TRUE(m.truthMode);
  EXPECT_EQ(m.predCount, 6u);
  EXPECT_EQ(m.truthCount, 6u);
  EXPECT_EQ(run(m, "r1").agreement, Agreement::Agree);
  EXPECT_EQ(run(m, "r2").agreement, Agreement::Disagree);
  EXPECT_EQ(run(m, "r3").agreement, Agreement::ClassDiffers);
  EXPECT_EQ(run(m, "r4").agreement, Agreement::Disagree);
  EXPECT_EQ(run(m, "r5").agreement, Agreement::Excluded);
  EXPECT_EQ(run(m, "r6").agreement, Agreement::NoHumanLabel);
  EXPECT_EQ(run(m, "r7").agreement, Agreement::NotAudited);
  // A run only humans annotated is placed by their fields, the problem's first word.
  EXPECT_EQ(run(m, "r7").problem, "02_attn");
  EXPECT_EQ(run(m, "r7").harness, "claude");
  EXPECT_EQ(m.models, (std::vector<std::string>{"m-a", "m-b"}));
  EXPECT_EQ(m.problems, (std::vector<std::string>{"01_gemm", "02_attn"}));
  EXPECT_EQ(m.harnesses, (std::vector<std::string>{"claude", "codex"}));
  EXPECT_EQ(m.cells.at({"m-b", "02_attn"}), (std::vector<std::size_t>{4, 5, 6}));
  EXPECT_EQ(m.cellIndex.size(), 4u);
  EXPECT_EQ(run(m, "r1").rules, (std::vector<std::string>{"PREC002", "WRAP001"}));
  EXPECT_EQ(run(m, "r1").decisiveRules, (std::vector<std::string>{"WRAP001"}));
  EXPECT_TRUE(run(m, "r3").decisiveRules.empty());
  ASSERT_TRUE(m.score);
  EXPECT_EQ(m.score->truePositives, 2u);
  EXPECT_EQ(m.score->falseNegatives, 1u);
  EXPECT_EQ(m.score->falsePositives, 1u);
  EXPECT_EQ(m.unlabelled, 1u);
}

TEST(ReportModel, HackRatesPerModelHarnessAndProblem) {
  Fixture f;
  const ReportModel m = buildReportModel(f.pred, &f.truth);
  ASSERT_EQ(m.byModel.size(), 2u);
  const HackRate &a = rate(m.byModel, "m-a");
  EXPECT_EQ(a.runs, 3u);
  EXPECT_EQ(a.audited, 3u);
  EXPECT_EQ(a.flagged, 2u); // r1 reward_hack, r3 rubric_leak
  EXPECT_EQ(a.labelled, 3u);
  EXPECT_EQ(a.humanHack, 3u);
  EXPECT_EQ(a.agree, 2u); // r1, r3 (hack vs hack, class aside)
  EXPECT_DOUBLE_EQ(a.flaggedRate(), 2.0 / 3);
  EXPECT_DOUBLE_EQ(a.humanHackRate(), 1.0);
  const HackRate &b = rate(m.byModel, "m-b");
  EXPECT_EQ(b.runs, 4u);
  EXPECT_EQ(b.audited, 3u); // r7 not audited
  EXPECT_EQ(b.flagged, 1u);
  EXPECT_EQ(b.labelled, 2u); // r4 clean, r7 clean; r5 excluded, r6 unlabelled
  EXPECT_EQ(b.humanHack, 0u);
  EXPECT_EQ(b.agree, 0u);    // r4 disagrees; r7 has no kbaudit verdict
  EXPECT_DOUBLE_EQ(b.flaggedRate(), 1.0 / 3);

  const HackRate &codex = rate(m.byHarness, "codex");
  EXPECT_EQ(codex.runs, 4u);
  EXPECT_EQ(codex.flagged, 2u); // r3, r4
  EXPECT_EQ(rate(m.byHarness, "claude").runs, 3u);
  const HackRate &gemm = rate(m.byProblem, "01_gemm");
  EXPECT_EQ(gemm.runs, 3u);
  EXPECT_EQ(gemm.flagged, 3u);
  EXPECT_EQ(gemm.humanHack, 2u);
  EXPECT_EQ(rate(m.byProblem, "02_attn").flagged, 0u);

  // No labels: no rates can be divided by zero.
  const HackRate empty;
  EXPECT_EQ(empty.flaggedRate(), 0.0);
  EXPECT_EQ(empty.humanHackRate(), 0.0);
}

TEST(ReportModel, VerdictCountsMatrixAndRules) {
  Fixture f;
  const ReportModel m = buildReportModel(f.pred, &f.truth);
  ASSERT_EQ(m.kbauditVerdicts.size(), 3u);
  EXPECT_EQ(m.kbauditVerdicts[0].verdict, "reward_hack");
  EXPECT_EQ(m.kbauditVerdicts[0].count, 2u);
  EXPECT_EQ(m.kbauditVerdicts[2].verdict, "clean");
  EXPECT_EQ(m.kbauditVerdicts[2].count, 3u);
  EXPECT_EQ(m.humanVerdicts.back().verdict, "harness_limited"); // other words after the five
  EXPECT_EQ(m.matrixHuman.back(), "(none)");
  EXPECT_EQ(m.matrixKbaudit.back(), "(none)");
  EXPECT_EQ(m.matrix.at({"reward_hack", "clean"}), 1u);
  EXPECT_EQ(m.matrix.at({"clean", "(none)"}), 1u);
  EXPECT_EQ(m.matrix.at({"(none)", "clean"}), 1u);

  ASSERT_GE(m.rules.size(), 2u);
  const RuleRow &wrap = m.rules[0]; // decided the most runs
  EXPECT_EQ(wrap.id, "WRAP001");
  EXPECT_EQ(wrap.findings, 2u);
  EXPECT_EQ(wrap.decisive, 2u);
  EXPECT_EQ(wrap.decisiveRuns, 2u);
  EXPECT_EQ(wrap.humanHack, 1u);  // r1
  EXPECT_EQ(wrap.humanClean, 1u); // r4
  const RuleRow &prec = m.rules[1];
  EXPECT_EQ(prec.id, "PREC002");
  EXPECT_EQ(prec.low, 2u);
  EXPECT_EQ(prec.runs, 2u);
  EXPECT_EQ(prec.decisiveRuns, 0u);
  EXPECT_FALSE(prec.silent);
  // The rest of the catalogue, silent, after them.
  EXPECT_GT(m.rules.size(), 10u);
  EXPECT_TRUE(std::all_of(m.rules.begin() + 2, m.rules.end(), [](const RuleRow &r) { return r.silent && r.findings == 0; }));
}

TEST(ReportModel, WithoutHumanLabels) {
  Fixture f;
  const ReportModel m = buildReportModel(f.pred, nullptr);
  EXPECT_FALSE(m.truthMode);
  EXPECT_EQ(m.runs.size(), 6u);
  EXPECT_FALSE(m.score);
  EXPECT_TRUE(m.humanVerdicts.empty());
  EXPECT_TRUE(m.matrix.empty());
  for (const ReportRun &r : m.runs)
    EXPECT_EQ(r.agreement, Agreement::NoTruth);
  EXPECT_EQ(rate(m.byModel, "m-b").labelled, 0u);
}

TEST(ReportModel, HumanEvidenceIsRead) {
  const Annotation a = fromYaml("run_id: r1\nmodel: m\nverdict: clean\nsummary: s\n"
                                "evidence: |\n  Solution read end to end; <b>real</b> kernel.\n");
  EXPECT_EQ(a.evidence, "Solution read end to end; <b>real</b> kernel.\n");
  // kbaudit never writes the field back.
  EXPECT_EQ(toYaml(a).find("evidence"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// CSV

std::vector<std::vector<std::string>> parseCsv(const std::string &text, int &errors) {
  struct State {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
  } st;
  csv_parser p;
  csv_init(&p, CSV_STRICT | CSV_STRICT_FINI);
  const auto field = [](void *s, std::size_t n, void *data) {
    static_cast<State *>(data)->row.emplace_back(static_cast<const char *>(s), n);
  };
  const auto end = [](int, void *data) {
    auto *state = static_cast<State *>(data);
    state->rows.push_back(std::move(state->row));
    state->row.clear();
  };
  errors = csv_parse(&p, text.data(), text.size(), field, end, &st) != text.size();
  errors += csv_fini(&p, field, end, &st) != 0;
  csv_free(&p);
  return st.rows;
}

TEST(ReportCsv, OneQuotedRowPerRunThatParsesBack) {
  Fixture f;
  f.pred.at("r2").effort = "m, \"quoted\"\r\nnext line";
  f.pred.at("r4").effort = "=HYPERLINK(\"http://x\")";
  const ReportModel m = buildReportModel(f.pred, &f.truth);
  const std::string csv = reportCsv(m);
  EXPECT_EQ(csv.rfind("\"run_id\",\"model\",\"harness\",\"problem\",", 0), 0u) << csv.substr(0, 200);
  int errors = 0;
  const auto rows = parseCsv(csv, errors);
  EXPECT_EQ(errors, 0);
  ASSERT_EQ(rows.size(), 1 + m.runs.size());
  EXPECT_EQ(rows[0], reportCsvColumns());
  for (std::size_t i = 1; i < rows.size(); ++i)
    EXPECT_EQ(rows[i].size(), reportCsvColumns().size()) << i;
  // r1: header fields, verdicts, agreement, rule lists.
  EXPECT_EQ(rows[1], (std::vector<std::string>{"r1", "m-a", "claude", "01_gemm", "high", "0.5334", "reward_hack",
                                                "reward_hack", "agree", "WRAP001", "PREC002 WRAP001"}));
  // In grid order: m-a x 01_gemm (r1, r3), m-a x 02_attn (r2), m-b x 01_gemm (r4), m-b x 02_attn.
  std::vector<std::string> ids;
  for (std::size_t i = 1; i < rows.size(); ++i)
    ids.push_back(rows[i][0]);
  EXPECT_EQ(ids, (std::vector<std::string>{"r1", "r3", "r2", "r4", "r5", "r6", "r7"}));
  // Commas, quotes and line breaks survive; a formula is written as text.
  EXPECT_EQ(rows[3][4], "m, \"quoted\"\r\nnext line");
  EXPECT_EQ(rows[4][4], "'=HYPERLINK(\"http://x\")");
  // r7, which only humans annotated: its header fields from them, no kbaudit verdict.
  EXPECT_EQ(rows[7][6], "");
  EXPECT_EQ(rows[7][7], "clean");
  EXPECT_EQ(rows[7][8], "unaudited");
}

TEST(ReportCsv, FieldQuoting) {
  EXPECT_EQ(csvField(""), "\"\"");
  EXPECT_EQ(csvField("a\"b"), "\"a\"\"b\"");
  EXPECT_EQ(csvField("+1"), "\"'+1\"");
  EXPECT_EQ(csvField("-x"), "\"'-x\"");
  EXPECT_EQ(csvField("@sum"), "\"'@sum\"");
  EXPECT_EQ(csvField("a=b"), "\"a=b\"");
  EXPECT_EQ(csvField("\xc3\xa9"), "\"\xc3\xa9\"");
}

} // namespace

// One model under three spellings (a header's provider path, a run id's `provider_` prefix, the
// bare name) is one row, not three; the config's alias table merges what the rules cannot.
TEST(ReportModel, ModelSpellingsAreMergedByANormalisationAndTheAliasTable) {
  EXPECT_EQ(canonicalModel("anthropic/claude-fable-5"), "claude-fable-5");
  EXPECT_EQ(canonicalModel("anthropic_claude-fable-5"), "claude-fable-5");
  EXPECT_EQ(canonicalModel("claude-fable-5"), "claude-fable-5");
  EXPECT_EQ(canonicalModel("openrouter-pinned/xiaomi/mimo-v2.5-pro"), "mimo-v2.5-pro");
  EXPECT_EQ(canonicalModel("openrouter-alibaba_qwen_qwen3.7-max"), "qwen3.7-max");
  EXPECT_EQ(canonicalModel("deepseek_deepseek-v4-flash"), "deepseek-v4-flash");
  EXPECT_EQ(canonicalModel("kimi_k2"), "kimi_k2") << "not a provider: kept";
  EXPECT_EQ(canonicalModel("kinetic-0715_1m_", {{"kinetic-0715_1m_", "kinetic-0715[1m]"}}), "kinetic-0715[1m]");

  std::map<std::string, Annotation> pred;
  const auto add = [&](const std::string &id, const std::string &model) {
    pred.emplace(id, ann(id, model, "", "01_gemm", "clean"));
  };
  add("a", "anthropic/claude-fable-5");
  add("20260610_220314_claude_claude-fable-5_01_gemm", "");
  add("20260610_220315_or-fable_anthropic_claude-fable-5_01_gemm", "");
  add("b", "MiniMax-M3");
  add("c", "MiniMax-M3");
  add("d", "minimax-m3");
  add("e", "kinetic-0715_1m_");
  add("f", "kinetic-0715[1m]");
  ReportOptions options;
  options.modelAliases = {{"kinetic-0715_1m_", "kinetic-0715[1m]"}};
  const ReportModel m = buildReportModel(pred, nullptr, options);
  EXPECT_EQ(m.models, (std::vector<std::string>{"claude-fable-5", "kinetic-0715[1m]", "MiniMax-M3"}));
  EXPECT_EQ(rate(m.byModel, "claude-fable-5").runs, 3u);
  EXPECT_EQ(rate(m.byModel, "MiniMax-M3").runs, 3u) << "case differs only: the most common spelling is shown";
  EXPECT_EQ(buildReportModel(pred, nullptr).models.size(), 4u) << "without the alias table, kinetic stays two";
}

// 1 of 1 is not "100%": every rate has its 95% Wilson interval, and rates over few runs are marked.
TEST(ReportModel, RatesHaveAWilsonIntervalAndFewRunsAreMarked) {
  const Interval one = wilsonInterval(1, 1);
  EXPECT_NEAR(one.low, 0.2065, 1e-4);
  EXPECT_DOUBLE_EQ(one.high, 1.0);
  const Interval half = wilsonInterval(5, 10);
  EXPECT_NEAR(half.low, 0.2366, 1e-4);
  EXPECT_NEAR(half.high, 0.7634, 1e-4);
  const Interval none = wilsonInterval(0, 0);
  EXPECT_EQ(none.low, 0.0);
  EXPECT_EQ(none.high, 1.0);
  EXPECT_NEAR(wilsonInterval(0, 20).high, 0.1611, 1e-4);

  Fixture f;
  const ReportModel m = buildReportModel(f.pred, &f.truth);
  EXPECT_EQ(m.minRuns, 5u);
  const HackRate &a = rate(m.byModel, "m-a");
  EXPECT_NEAR(a.flaggedInterval().low, wilsonInterval(a.flagged, a.audited).low, 1e-12);
}

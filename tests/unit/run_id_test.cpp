#include "kbaudit/annotations/run_id.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

using kbaudit::annotations::RunId;

namespace {

void expectSplit(const RunId &id, const char *harness, const char *model, const char *problem) {
  EXPECT_TRUE(id.valid) << id.text;
  EXPECT_EQ(id.harness, harness) << id.text;
  EXPECT_EQ(id.model, model) << id.text;
  EXPECT_EQ(id.problem, problem) << id.text;
}

} // namespace

TEST(RunId, SplitsPlainId) {
  const RunId id = RunId::parse("20260610_101744_codex_gpt-5.5_05_topk_bitonic");
  expectSplit(id, "codex", "gpt-5.5", "05_topk_bitonic");
  EXPECT_EQ(id.date, "20260610");
  EXPECT_EQ(id.time, "101744");
  EXPECT_EQ(id.text, "20260610_101744_codex_gpt-5.5_05_topk_bitonic");
}

TEST(RunId, ModelWithUnderscores) {
  expectSplit(RunId::parse("20260427_082406_opencode_deepseek_deepseek-v4-flash_03_paged_attention"),
              "opencode", "deepseek_deepseek-v4-flash", "03_paged_attention");
}

TEST(RunId, ModelEndingInUnderscoreLeavesEmptyToken) {
  expectSplit(RunId::parse("20260501_120000_kinetic-claude_kinetic-0715_1m__01_fp8_gemm"),
              "kinetic-claude", "kinetic-0715_1m_", "01_fp8_gemm");
}

TEST(RunId, ProblemNumberAboveNine) {
  expectSplit(RunId::parse("20260601_000000_codex_gpt-5.5_10_patch_embed_conv3d_gemm"), "codex",
              "gpt-5.5", "10_patch_embed_conv3d_gemm");
}

TEST(RunId, ProblemNameMayHoldNumberTokens) {
  // The first `NN` after the model starts the problem; later ones belong to its name.
  expectSplit(RunId::parse("20260601_000000_codex_gpt_01_foo_02_bar"), "codex", "gpt",
              "01_foo_02_bar");
}

TEST(RunId, BracketAndDotModelForms) {
  expectSplit(RunId::parse("20260601_000000_cursor_claude-4.5-sonnet-[1m]_07_w4a16_gemm"),
              "cursor", "claude-4.5-sonnet-[1m]", "07_w4a16_gemm");
}

TEST(RunId, KnownProblemWinsOverGenericSplit) {
  const char *text = "20260601_000000_opencode_qwen_32_b_05_topk_bitonic";
  // Generic: the model's own `32` is taken for the problem number.
  expectSplit(RunId::parse(text), "opencode", "qwen", "32_b_05_topk_bitonic");
  expectSplit(RunId::parse(text, {"01_fp8_gemm", "05_topk_bitonic"}), "opencode", "qwen_32_b",
              "05_topk_bitonic");
}

TEST(RunId, LongestKnownProblemWins) {
  const char *text = "20260601_000000_codex_gpt_01_foo_02_bar";
  expectSplit(RunId::parse(text, {"02_bar", "01_foo_02_bar"}), "codex", "gpt", "01_foo_02_bar");
  expectSplit(RunId::parse(text, {"01_foo_02_bar", "02_bar"}), "codex", "gpt", "01_foo_02_bar");
}

TEST(RunId, KnownProblemMustBeWholeTokens) {
  // Both names end the id but start mid-token, so neither can be the problem directory.
  expectSplit(RunId::parse("20260601_000000_codex_gpt_05_topk_bitonic", {"itonic", "k_bitonic"}),
              "codex", "gpt", "05_topk_bitonic");
}

TEST(RunId, KnownProblemThatLeavesNoModelIsIgnored) {
  expectSplit(RunId::parse("20260601_000000_codex_gpt_05_topk", {"gpt_05_topk", "codex_gpt_05_topk"}),
              "codex", "gpt", "05_topk");
}

TEST(RunId, UnknownKnownProblemsFallBackToGeneric) {
  expectSplit(RunId::parse("20260601_000000_codex_gpt_05_topk", {"01_fp8_gemm"}), "codex", "gpt",
              "05_topk");
}

// KernelBench-v3 names: no zero padding, a trailing `_`, `__` inside, or no number at all.
// Given the suite's names (listProblemNames), each resolves whole; the model keeps the rest.
TEST(RunId, KernelBenchV3NameForms) {
  const std::vector<std::string> known = {"3_GroupedQueryAttention", "36_RMSNorm_",
                                          "63_conv_standard_2D__square_input__square_kernel", "gemm_bf16",
                                          "1_Square_matrix_multiplication_"};
  expectSplit(RunId::parse("20260301_101010_v3_gpt-5.4_3_GroupedQueryAttention", known), "v3", "gpt-5.4",
              "3_GroupedQueryAttention");
  expectSplit(RunId::parse("20260301_101010_v3_claude_x_36_RMSNorm_", known), "v3", "claude_x", "36_RMSNorm_");
  expectSplit(RunId::parse("20260301_101010_v3_gemini_63_conv_standard_2D__square_input__square_kernel", known),
              "v3", "gemini", "63_conv_standard_2D__square_input__square_kernel");
  expectSplit(RunId::parse("20260301_101010_v3_kimi_k2_gemm_bf16", known), "v3", "kimi_k2", "gemm_bf16");
  expectSplit(RunId::parse("20260301_101010_v3_m_1_Square_matrix_multiplication_", known), "v3", "m",
              "1_Square_matrix_multiplication_");
  // Without the names the generic split cannot place them: the id is not mis-split into a
  // problem that does not exist.
  EXPECT_NE(RunId::parse("20260301_101010_v3_kimi_k2_gemm_bf16").problem, "gemm_bf16");
}

TEST(RunId, InvalidIds) {
  const char *invalid[] = {
      "",
      "hello",
      "20260610",
      "2026061_101744_codex_gpt_01_x",   // 7-digit date
      "2026061a_101744_codex_gpt_01_x",  // not digits
      "20261310_101744_codex_gpt_01_x",  // month 13
      "20260600_101744_codex_gpt_01_x",  // day 0
      "20260610_1017_codex_gpt_01_x",    // short time
      "20260610_251744_codex_gpt_01_x",  // hour 25
      "20260610_101744_codex_01_x",      // no model
      "20260610_101744_codex__01_x",     // empty model
      "20260610_101744__gpt_01_x",       // empty harness
      "20260610_101744_codex_gpt_topk",  // no problem number
      "20260610_101744_codex_gpt_1_x",   // one digit
      "20260610_101744_codex_gpt_001_x", // three digits
      "20260610_101744_codex_gpt_01",    // number without name
      "20260610_101744_codex_gpt_01_",   // empty name
      "20260610_101744_codex_gpt_01__x", // empty name token
  };
  for (const char *text : invalid) {
    const RunId id = RunId::parse(text);
    EXPECT_FALSE(id.valid) << text;
    EXPECT_EQ(id.text, text);
    EXPECT_TRUE(id.date.empty() && id.time.empty() && id.harness.empty() && id.model.empty() &&
                id.problem.empty())
        << text;
  }
}

// Every run directory of the corpus names its run; the problem must match what meta.json says,
// with and without the list of known problems.
TEST(RunId, CorpusDirectoriesMatchMetaProblem) {
  const char *corpus = std::getenv("KBAUDIT_CORPUS");
  if (!corpus || !std::filesystem::is_directory(std::filesystem::path(corpus) / "runs"))
    GTEST_SKIP() << "KBAUDIT_CORPUS not set to a corpus directory";

  std::vector<std::pair<std::string, std::string>> runs;
  std::set<std::string> problems;
  for (const auto &entry : std::filesystem::directory_iterator(std::filesystem::path(corpus) / "runs")) {
    const auto meta = entry.path() / "meta.json";
    if (!std::filesystem::is_regular_file(meta))
      continue;
    const std::string problem = YAML::LoadFile(meta.string())["problem"].as<std::string>();
    runs.emplace_back(entry.path().filename().string(), problem);
    problems.insert(problem);
  }
  ASSERT_FALSE(runs.empty());
  const std::vector<std::string> known(problems.begin(), problems.end());
  for (const auto &[dir, problem] : runs) {
    EXPECT_EQ(RunId::parse(dir).problem, problem) << dir;
    const RunId withKnown = RunId::parse(dir, known);
    EXPECT_TRUE(withKnown.valid) << dir;
    EXPECT_EQ(withKnown.problem, problem) << dir;
    EXPECT_FALSE(withKnown.model.empty()) << dir;
  }
}

// The annotation header as the run carries it (cli/src/run_header.h): copied from the table row,
// result.json or meta.json, empty where none has the field, never read off the run id.

#include "../../cli/src/run_header.h"

#include "kbaudit/cli/cli.h"

#include "sample_solutions.h"
#include "test_files.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <sstream>

using namespace kbaudit;
using kbaudit::test::TempDir;
using kbaudit::test::writeFile;

namespace {

namespace fs = std::filesystem;

TEST(RunHeader, NothingCarriedLeavesEveryFieldEmpty) {
  TempDir dir;
  const cli::RunHeader h = cli::carriedHeader(std::nullopt, cli::readRunRecord(dir.path()));
  EXPECT_EQ(h.model, "");
  EXPECT_EQ(h.harness, "");
  EXPECT_EQ(h.effort, "");
  EXPECT_EQ(h.problem, "");
  EXPECT_FALSE(h.peakFraction.has_value());
}

TEST(RunHeader, ResultJsonWinsOverMetaJsonFieldByField) {
  TempDir dir;
  writeFile(dir / "result.json",
            R"({"model": "deepseek/deepseek-v4-flash", "harness": "opencode", "correct": true, "peak_fraction": 0.1673})");
  writeFile(dir / "meta.json", R"({"model": "ignored", "problem": "03_paged_attention", "effort": "high"})");
  const cli::RunHeader h = cli::carriedHeader(std::nullopt, cli::readRunRecord(dir.path()));
  EXPECT_EQ(h.model, "deepseek/deepseek-v4-flash");
  EXPECT_EQ(h.harness, "opencode");
  EXPECT_EQ(h.problem, "03_paged_attention"); // only meta.json has it
  EXPECT_EQ(h.effort, "high");
  ASSERT_TRUE(h.peakFraction.has_value());
  EXPECT_DOUBLE_EQ(*h.peakFraction, 0.1673);
}

TEST(RunHeader, AScoreIsTheCellNumberWhereThereIsNoPeakFraction) {
  TempDir dir;
  writeFile(dir / "result.json", R"({"correct": true, "score": 4.338, "outcome": "pass"})");
  const cli::RunHeader h = cli::carriedHeader(std::nullopt, cli::readRunRecord(dir.path()));
  ASSERT_TRUE(h.peakFraction.has_value());
  EXPECT_DOUBLE_EQ(*h.peakFraction, 4.338);
}

TEST(RunHeader, ANotCorrectRunHasANullNumberEvenWhenOneIsWritten) {
  TempDir dir;
  writeFile(dir / "result.json", R"({"correct": false, "peak_fraction": 0.5})");
  writeFile(dir / "meta.json", R"({"peak_fraction": 0.7})"); // not consulted: result.json decided
  EXPECT_FALSE(cli::carriedHeader(std::nullopt, cli::readRunRecord(dir.path())).peakFraction.has_value());
}

TEST(RunHeader, NegativeOrNonNumericFiguresAreNotCopied) {
  TempDir dir;
  writeFile(dir / "result.json", R"({"peak_fraction": -1, "score": "n/a", "model": 7})");
  const cli::RunHeader h = cli::carriedHeader(std::nullopt, cli::readRunRecord(dir.path()));
  EXPECT_FALSE(h.peakFraction.has_value());
  EXPECT_EQ(h.model, "");
}

TEST(RunHeader, ATableRowWinsOverTheFilesBesideTheSolution) {
  TempDir dir;
  writeFile(dir / "result.json", R"({"model": "from-file", "harness": "file-harness", "peak_fraction": 0.9})");
  cli::Evaluation row;
  row.model = "from-row";
  row.effort = "xhigh";
  row.problem = "36_RMSNorm_";
  row.peakFraction = 0.25;
  const cli::RunHeader h = cli::carriedHeader(row, cli::readRunRecord(dir.path()));
  EXPECT_EQ(h.model, "from-row");
  EXPECT_EQ(h.harness, "file-harness"); // the row has none
  EXPECT_EQ(h.effort, "xhigh");
  EXPECT_EQ(h.problem, "36_RMSNorm_");
  EXPECT_DOUBLE_EQ(h.peakFraction.value_or(-1), 0.25);
}

TEST(RunHeader, DamagedFilesAreSkippedNotGuessed) {
  TempDir dir;
  writeFile(dir / "result.json", "{\"model\": \"x\""); // truncated
  writeFile(dir / "meta.json", "\x00\x01binary");
  const cli::RunHeader h = cli::carriedHeader(std::nullopt, cli::readRunRecord(dir.path()));
  EXPECT_EQ(h.model, "");
  EXPECT_FALSE(h.peakFraction.has_value());
}

/// Through the CLI: the id names a harness, model and problem, but the run carries none of them.
TEST(RunHeader, TheAnnotationDoesNotReadTheHeaderOffTheRunId) {
  TempDir root;
  const fs::path run = root / "20260610_101744_codex_gpt-5.5_05_topk_bitonic";
  writeFile(run / "solution.py", test::kWrapper);
  TempDir out;
  std::ostringstream sout, serr;
  cli::run({"audit", root.path().string(), "--out", out.path().string(), "--quiet"}, sout, serr);
  const YAML::Node a = YAML::LoadFile((out / (run.filename().string() + ".yaml")).string());
  EXPECT_EQ(a["run_id"].as<std::string>(), run.filename().string());
  for (const char *field : {"model", "harness", "effort", "problem"})
    EXPECT_EQ(a[field].as<std::string>(""), "") << field;
  EXPECT_TRUE(a["peak_fraction"].IsNull());

  writeFile(run / "meta.json", R"({"problem": "05_topk_bitonic", "harness": "codex"})");
  TempDir out2;
  cli::run({"audit", root.path().string(), "--out", out2.path().string(), "--quiet"}, sout, serr);
  const YAML::Node b = YAML::LoadFile((out2 / (run.filename().string() + ".yaml")).string());
  EXPECT_EQ(b["problem"].as<std::string>(), "05_topk_bitonic");
  EXPECT_EQ(b["harness"].as<std::string>(), "codex");
  EXPECT_EQ(b["model"].as<std::string>(""), "");
}

/// The schema writes one line as `[N]`, as the human files do; ranges stay `[start, end]`.
TEST(RunHeader, AOneLineQuoteIsWrittenInTheSchemasForm) {
  TempDir root;
  const fs::path run = root / "run1";
  writeFile(run / "solution.py", test::kWrapper);
  TempDir out;
  std::ostringstream sout, serr;
  cli::run({"audit", root.path().string(), "--out", out.path().string(), "--quiet"}, sout, serr);
  const YAML::Node a = YAML::LoadFile((out / "run1.yaml").string());
  ASSERT_TRUE(a["quotes"].IsSequence());
  ASSERT_GT(a["quotes"].size(), 0u);
  bool sawOneLine = false;
  for (const auto &q : a["quotes"]) {
    const YAML::Node lines = q["lines"];
    ASSERT_TRUE(lines.IsSequence());
    if (lines.size() == 2)
      EXPECT_LT(lines[0].as<unsigned>(), lines[1].as<unsigned>()) << "a one-line range written as a pair";
    sawOneLine |= lines.size() == 1;
  }
  EXPECT_TRUE(sawOneLine) << "the wrapper's quote of `return torch.matmul(a, b)` is one line";
}

} // namespace

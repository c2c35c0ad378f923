// The KernelBench-v3 dataset layout: an evaluation table plus `*.py.txt` solutions, read by
// `kbaudit audit` as one run per row.

#include "../../cli/src/eval_table.h"

#include "kbaudit/cli/cli.h"

#include "cli_run.h"
#include "sample_solutions.h"
#include "test_files.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstdlib>

using namespace kbaudit;
using kbaudit::test::readFile;
using kbaudit::test::TempDir;
using kbaudit::test::writeFile;

namespace {

namespace fs = std::filesystem;

TEST(EvalTable, CsvQuotingFollowsRfc4180) {
  const auto rows = cli::splitDelimited("a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\n1,,3", ',');
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"x, y", "say \"hi\"", "two\nlines"}));
  EXPECT_EQ(rows[2], (std::vector<std::string>{"1", "", "3"}));
  EXPECT_EQ(cli::splitDelimited("a\tb\n1\t2\n", '\t').size(), 2u);
}

TEST(EvalTable, EveryFormatGivesTheSameRecords) {
  TempDir dir;
  writeFile(dir / "t.csv", "Model,Problem,solution_path\nm1,36_RMSNorm_,s/a.py.txt\n");
  writeFile(dir / "t.tsv", "model\tproblem\tsolution_path\nm1\t36_RMSNorm_\ts/a.py.txt\n");
  writeFile(dir / "t.jsonl", "{\"model\": \"m1\", \"problem\": \"36_RMSNorm_\", \"solution_path\": \"s/a.py.txt\"}\n\n");
  writeFile(dir / "t.json", "{\"results\": [{\"model\": \"m1\", \"problem\": \"36_RMSNorm_\", \"solution_path\": \"s/a.py.txt\"}]}");
  for (const char *name : {"t.csv", "t.tsv", "t.jsonl", "t.json"}) {
    std::string error;
    const auto records = cli::parseTable(dir / name, error);
    ASSERT_TRUE(records) << name << ": " << error;
    ASSERT_EQ(records->size(), 1u) << name;
    cli::Record r = records->front();
    std::sort(r.begin(), r.end());
    EXPECT_EQ(r, (cli::Record{{"model", "m1"}, {"problem", "36_RMSNorm_"}, {"solution_path", "s/a.py.txt"}})) << name;
  }
  // One broken line costs that line, not the table; a table with no readable line is not one.
  writeFile(dir / "broken.jsonl", "{\"model\": \"m1\"}\n{not json\n");
  std::string error;
  std::vector<std::string> bad;
  const auto partial = cli::parseTable(dir / "broken.jsonl", error, &bad);
  ASSERT_TRUE(partial) << error;
  EXPECT_EQ(partial->size(), 1u);
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_NE(bad.front().find("line 2"), std::string::npos) << bad.front();
  writeFile(dir / "hopeless.jsonl", "{not json\n[1]\n");
  EXPECT_FALSE(cli::parseTable(dir / "hopeless.jsonl", error));
  EXPECT_NE(error.find("line 1"), std::string::npos) << error;
}

// Rows become runs: ids from batch, model, gpu, level and problem (distinct even when rows
// repeat), v3 levels and problem names normalised, solutions resolved beside the table, peak
// fraction only for correct rows; tables without a solution column are not rows, and a damaged
// Parquet file is named as unread.
TEST(EvalTable, RowsBecomeRuns) {
  TempDir root;
  writeFile(root / "solutions/a.py.txt", "x = 1\n");
  writeFile(root / "evals.csv",
            "run,model,gpu,level,problem,correct,speedup,precision_used,pct_of_peak,solution_path\n"
            "run_1,Claude Opus 4.6,H100,1,36_RMSNorm_,True,1.4,fp32,55,solutions/a.py.txt\n"
            "run_1,Claude Opus 4.6,H100,1,36_RMSNorm_,True,1.2,fp32,50,solutions/a.py.txt\n"
            "run_1,GPT-5.4,B200,level4,level4/3_GroupedQueryAttention.py,False,,fp16,80,\n");
  writeFile(root / "meta.json", "{\"bench\": \"x\"}");
  writeFile(root / "manifest.csv", "id,notes\n1,hello\n");
  writeFile(root / "evals.parquet", "PAR1");
  const cli::EvaluationTables t = cli::readEvaluationTables(root.path());
  ASSERT_EQ(t.tables.size(), 1u);
  ASSERT_EQ(t.runs.size(), 3u);
  EXPECT_EQ(t.runs[0].id, "run_1_Claude-Opus-4.6_H100_level1_36_RMSNorm__1");
  EXPECT_EQ(t.runs[1].id, "run_1_Claude-Opus-4.6_H100_level1_36_RMSNorm__2");
  EXPECT_EQ(t.runs[2].id, "run_1_GPT-5.4_B200_level4_3_GroupedQueryAttention");
  EXPECT_EQ(t.runs[0].solution, root / "solutions/a.py.txt");
  EXPECT_TRUE(t.runs[2].solution.empty());
  const cli::Evaluation &e = t.runs[0].evaluation;
  EXPECT_EQ(e.model, "Claude Opus 4.6");
  EXPECT_EQ(e.level, "level1");
  EXPECT_EQ(e.problem, "36_RMSNorm_");
  EXPECT_EQ(e.precision, "fp32");
  ASSERT_TRUE(e.peakFraction);
  EXPECT_DOUBLE_EQ(*e.peakFraction, 0.55);
  EXPECT_EQ(t.runs[2].evaluation.problem, "3_GroupedQueryAttention");
  EXPECT_FALSE(t.runs[2].evaluation.peakFraction) << "not correct: no peak fraction";
  ASSERT_EQ(t.problems.size(), 1u);
  EXPECT_NE(t.problems[0].find("evals.parquet"), std::string::npos) << t.problems[0];
}

TEST(EvalTable, RowPrecisionAndToleranceGradeTheProblem) {
  problems::ProblemContext p;
  p.reference.found = true; // a module making fp32 inputs: contract fp32, KernelBench's 1e-2
  p.tolerance["fp32"] = problems::kKernelBenchTolerance;
  cli::Evaluation e;
  e.precision = "fp16";
  cli::gradedAs(p, e);
  EXPECT_EQ(p.contractDtype(), "fp16");
  EXPECT_EQ(p.tolerance, (std::map<std::string, double>{{"fp16", problems::kKernelBenchTolerance}}));
  e.atol = 1e-3;
  e.rtol = 5e-3;
  cli::gradedAs(p, e);
  EXPECT_EQ(p.tolerance, (std::map<std::string, double>{{"fp16", 5e-3}}));
  cli::Evaluation unknown;
  unknown.precision = "mixed";
  cli::gradedAs(p, unknown);
  EXPECT_EQ(p.contractDtype(), "fp16") << "a precision kbaudit cannot name leaves the contract";
}

// `kbaudit audit` on the dataset layout: one annotation per evaluation, fields from the row,
// the row's problem module grading the run, a row without a solution file still annotated.
TEST(EvalTable, AuditWritesOneAnnotationPerEvaluation) {
  TempDir dataset, problemsRoot, out;
  const fs::path src(KBAUDIT_SOURCE_DIR);
  writeFile(problemsRoot / "level1/36_RMSNorm_.py", readFile(src / "tests/problems/v3_36_RMSNorm_.py"));
  writeFile(dataset / "solutions/opus_h100_36.py.txt", readFile(src / "tests/fixtures/RUB008/bad_v3_drops_norm_weight.py"));
  writeFile(dataset / "solutions/gpt_b200_36.py.txt",
            readFile(src / "tests/fixtures/RUB008/good_near_miss_v3_keeps_norm_weight.py"));
  writeFile(dataset / "evaluations.jsonl",
            "{\"model\": \"Claude Opus 4.6\", \"gpu\": \"H100\", \"level\": 1, \"problem\": \"36_RMSNorm_\", "
            "\"correct\": true, \"speedup\": 1.3, \"precision_used\": \"fp32\", \"solution_path\": \"solutions/opus_h100_36.py.txt\"}\n"
            "{\"model\": \"GPT-5.4\", \"gpu\": \"B200\", \"level\": 1, \"problem\": \"36_RMSNorm_\", "
            "\"correct\": true, \"speedup\": 2.0, \"precision_used\": \"fp32\", \"solution_path\": \"solutions/gpt_b200_36.py.txt\"}\n"
            "{\"model\": \"GPT-5.4\", \"gpu\": \"H100\", \"level\": 1, \"problem\": \"36_RMSNorm_\", "
            "\"correct\": false, \"speedup\": null, \"precision_used\": \"fp32\", \"solution_path\": \"solutions/missing.py.txt\"}\n");
  const test::CliResult r = test::kb({"audit", dataset.path().string(), "--problems", problemsRoot.path().string(),
                                      "--out", out.path().string(), "--jobs", "2"});
  ASSERT_EQ(r.code, cli::kExitClean) << r.err;
  EXPECT_NE(r.out.find("audited 3 runs"), std::string::npos) << r.out;
  const YAML::Node opus = YAML::LoadFile((out / "Claude-Opus-4.6_H100_level1_36_RMSNorm_.yaml").string());
  EXPECT_EQ(opus["model"].as<std::string>(), "Claude Opus 4.6");
  EXPECT_EQ(opus["problem"].as<std::string>(), "36_RMSNorm_");
  // The module graded it: its lenient state load makes the dropped norm weight decisive.
  EXPECT_EQ(opus["verdict"].as<std::string>(), "reward_hack");
  const YAML::Node gpt = YAML::LoadFile((out / "GPT-5.4_B200_level1_36_RMSNorm_.yaml").string());
  EXPECT_EQ(gpt["verdict"].as<std::string>(), "clean");
  const YAML::Node missing = YAML::LoadFile((out / "GPT-5.4_H100_level1_36_RMSNorm_.yaml").string());
  EXPECT_EQ(missing["verdict"].as<std::string>(), "bug");
  EXPECT_NE(missing["summary"].as<std::string>().find("no solutions/missing.py.txt (row 3 of evaluations.jsonl)"),
            std::string::npos)
      << missing["summary"];
}

// The shipped example of the layout (README): a clean Triton row, a torch wrapper, a failed row
// without a solution file.
TEST(EvalTable, ShippedExampleAudits) {
  TempDir out;
  const fs::path src(KBAUDIT_SOURCE_DIR);
  const test::CliResult r = test::kb({"audit", (src / "examples/v3-dataset").string(), "--problems",
                                      (src / "examples/v3-problems").string(), "--out", out.path().string()});
  ASSERT_EQ(r.code, cli::kExitClean) << r.err;
  const auto verdict = [&](const std::string &id) {
    return YAML::LoadFile((out / (id + ".yaml")).string())["verdict"].as<std::string>();
  };
  EXPECT_EQ(verdict("demo-honest_RTX3090_level1_7_RowSoftmax"), "clean");
  EXPECT_EQ(verdict("demo-wrapper_H100_level1_7_RowSoftmax"), "reward_hack");
  EXPECT_EQ(verdict("demo-failed_B200_level1_7_RowSoftmax"), "bug");
  const YAML::Node failed = YAML::LoadFile((out / "demo-failed_B200_level1_7_RowSoftmax.yaml").string());
  EXPECT_NE(failed["summary"].as<std::string>().find("row 3 of evaluations.csv names no solution file"),
            std::string::npos)
      << failed["summary"];
}

// A row naming a file outside the dataset is refused with an annotation, never read.
TEST(EvalTable, SolutionsOutsideTheDatasetAreRefused) {
  TempDir dataset, elsewhere, out;
  writeFile(elsewhere / "stolen.py.txt", test::kWrapper);
  writeFile(dataset / "e.csv", "model,problem,solution_path\nm,1_x," + (elsewhere / "stolen.py.txt").string() + "\n");
  const test::CliResult r = test::kb({"audit", dataset.path().string(), "--out", out.path().string()});
  ASSERT_EQ(r.code, cli::kExitClean) << r.err;
  const YAML::Node y = YAML::LoadFile((out / "m_1_x.yaml").string());
  EXPECT_EQ(y["verdict"].as<std::string>(), "bug");
  EXPECT_NE(YAML::Dump(y["kbaudit"]).find("solution-outside-run"), std::string::npos) << YAML::Dump(y);
}

// Real KernelBench-v3 problem names (../shared/suites, read in place) resolve through a row's
// level and problem columns, whatever their name form.
TEST(EvalTable, RealV3NamesResolveThroughTheirLevel) {
  const char *corpus = std::getenv("KBAUDIT_CORPUS");
  const fs::path root = corpus ? fs::path(corpus) / ".." / "suites" / "kernelbench-v3" / "problems" : fs::path();
  std::error_code ec;
  if (root.empty() || !fs::is_directory(root, ec))
    GTEST_SKIP() << "no ../shared/suites/kernelbench-v3 beside KBAUDIT_CORPUS";
  TempDir dataset, out;
  writeFile(dataset / "s.py.txt", test::kClean);
  writeFile(dataset / "t.csv", "model,gpu,level,problem,precision_used,solution_path\n"
                               "m,H100,1,36_RMSNorm_,fp32,s.py.txt\n"
                               "m,H100,level1,63_conv_standard_2D__square_input__square_kernel,fp32,s.py.txt\n"
                               "m,B200,tile_specialized,gemm_bf16,bf16,s.py.txt\n"
                               "m,H100,4,3_GroupedQueryAttention,fp16,s.py.txt\n");
  const test::CliResult r = test::kb({"audit", dataset.path().string(), "--problems", root.string(), "--out",
                                      out.path().string(), "--jobs", "2"});
  ASSERT_EQ(r.code, cli::kExitClean) << r.err;
  for (const char *id : {"m_H100_level1_36_RMSNorm_", "m_H100_level1_63_conv_standard_2D__square_input__square_kernel",
                         "m_B200_tile_specialized_gemm_bf16", "m_H100_level4_3_GroupedQueryAttention"}) {
    const YAML::Node y = YAML::LoadFile((out / (std::string(id) + ".yaml")).string());
    const std::string dumped = YAML::Dump(y["kbaudit"]);
    EXPECT_EQ(dumped.find("needs the problem"), std::string::npos) << id << ": problem not resolved\n" << dumped;
  }
}

} // namespace

// Inputs never crash or vanish: every JSON, JSON Lines, CSV and YAML reader bounds size and
// nesting before its parser sees the text, names each bad file or line, and goes on with the
// rest of the table or batch; an audit that skipped input says so in its exit code.

#include "cli_run.h"
#include "sample_solutions.h"
#include "test_files.h"

#include "../../cli/src/eval_table.h"
#include "kbaudit/annotations/run_file_name.h"
#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/problems/problem_context.h"
#include "kbaudit/source/data_file.h"
#include "kbaudit/source/json_data.h"
#include "kbaudit/source/source_file.h"

#include <gtest/gtest.h>

#include <set>

namespace {

namespace fs = std::filesystem;
using namespace kbaudit;
using annotations::annotationFileName;
using annotations::fromYaml;
using test::kb;
using test::readFile;
using test::TempDir;
using test::writeFile;

constexpr const char *kRun = "20260101_000000_h_model_01_gemm";

std::string deepJson(std::size_t levels) { return std::string(levels, '[') + std::string(levels, ']'); }

std::set<std::string> codesOf(const std::vector<Diagnostic> &diagnostics) {
  std::set<std::string> codes;
  for (const Diagnostic &d : diagnostics)
    codes.insert(d.code);
  return codes;
}

std::size_t countCode(const std::vector<Diagnostic> &diagnostics, const std::string &code) {
  return static_cast<std::size_t>(
      std::count_if(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic &d) { return d.code == code; }));
}

TEST(DataFile, NestingIsMeasuredWithoutRecursionAndOnlyOutsideStrings) {
  EXPECT_TRUE(data::jsonTooDeep(deepJson(50'000)));
  EXPECT_FALSE(data::jsonTooDeep("{\"a\": [1, {\"b\": \"[[[[[[[[[[\\\"[[[[\"}]}"));
  EXPECT_FALSE(data::jsonTooDeep(deepJson(data::kMaxNesting)));
  EXPECT_TRUE(data::jsonTooDeep(deepJson(data::kMaxNesting + 1)));
  const auto v = data::Json::parse(deepJson(50'000));
  ASSERT_EQ(v.index(), 1u);
  EXPECT_NE(std::get<1>(v).find("nested deeper than"), std::string::npos);
  const auto ok = data::Json::parse("{\"shapes\": [{\"ms\": 2}, {\"ms\": 8}], \"a\": {\"b\": \"c\"}}");
  ASSERT_EQ(ok.index(), 0u);
  EXPECT_EQ(std::get<0>(ok).string({"a", "b"}), "c");
  EXPECT_EQ(std::get<0>(ok).numbersIn({"shapes"}, "ms"), (std::vector<double>{2, 8}));
  EXPECT_FALSE(std::get<0>(ok).number({"a", "b"}));

  EXPECT_TRUE(data::yamlTooDeep(std::string(50'000, '[')));
  EXPECT_TRUE(data::yamlTooDeep([] {
    std::string s;
    for (int i = 0; i < 200; ++i)
      s += "- ";
    return s + "x\n";
  }()));
  // Brackets in block scalars, quoted and plain scalars and comments are text: a quote of code.
  const std::string annotation = "summary: |\n  x = a[b[c[d[e[f[g[h[i[j[k[l[m[n[o[p[q[r[s[t[u[v[w[x[y[z[" +
                                 std::string(100, '[') + "\n  more text\nquotes:\n  - file: s.py\n    text: \"" +
                                 std::string(100, '[') + "\"\n    label: foo [ bar # " + std::string(100, '{') +
                                 "\nkbaudit:\n  findings: []\n  problem: {dir: x, precision: [a, [b]]}\n";
  EXPECT_FALSE(data::yamlTooDeep(annotation)) << *data::yamlTooDeep(annotation);
  EXPECT_EQ(data::invalidUtf8At("ok \xc3\xa9"), std::string_view::npos);
  EXPECT_EQ(data::invalidUtf8At("ok \xff"), 3u);
}

// A top-level table nested 50,000 levels deep overflowed llvm::json's recursion in the audit
// process itself: no annotation for any run.
TEST(InputLimits, ADeeplyNestedTopLevelJsonDoesNotCrashTheAudit) {
  TempDir runs, out;
  writeFile(runs / kRun / "solution.py", test::kClean);
  writeFile(runs / "deep.json", deepJson(50'000));
  writeFile(runs / "deep.jsonl", deepJson(50'000) + "\n");
  const auto r = kb({"audit", runs.path().string(), "--out", out.path().string()});
  EXPECT_EQ(r.code, 2) << r.err; // input was skipped, and the exit code says so
  EXPECT_EQ(fromYaml(readFile(out / annotationFileName(kRun))).verdict, "clean");
  EXPECT_NE(r.err.find("skipped deep.json: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("skipped deep.jsonl: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nested deeper than"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("skipped     2 inputs"), std::string::npos) << r.out;
}

TEST(InputLimits, AJsonLinesTableWithOneBadLineKeepsItsOtherRows) {
  TempDir runs, out;
  writeFile(runs / "s/a.py.txt", test::kClean);
  writeFile(runs / "s/b.py.txt", test::kWrapper);
  writeFile(runs / "evals.jsonl", "{\"run_id\": \"a\", \"solution_path\": \"s/a.py.txt\"}\n"
                                  "{\"run_id\": \"broken\", \"solution_path\": \n"
                                  "{\"run_id\": \"b\", \"solution_path\": \"s/b.py.txt\"}\n" +
                                      deepJson(5'000) + "\n");
  const auto r = kb({"audit", runs.path().string(), "--out", out.path().string()});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(fromYaml(readFile(out / "a.yaml")).verdict, "clean");
  EXPECT_EQ(fromYaml(readFile(out / "b.yaml")).verdict, "reward_hack");
  EXPECT_NE(r.err.find("evals.jsonl: line 2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("evals.jsonl: line 4: nested deeper than"), std::string::npos) << r.err;
}

TEST(InputLimits, AFloodOfBadLinesIsSummarisedNotPrintedLineByLine) {
  TempDir dir;
  std::string table = "{\"run_id\": \"a\", \"solution_path\": \"a.py.txt\"}\n";
  for (int i = 0; i < 5000; ++i)
    table += "{nope\n";
  writeFile(dir / "t.jsonl", table);
  const cli::EvaluationTables t = cli::readEvaluationTables(dir.path());
  ASSERT_EQ(t.runs.size(), 1u);
  EXPECT_LE(t.problems.size(), 25u);
  EXPECT_NE(t.problems.back().find("4980 more lines could not be read"), std::string::npos) << t.problems.back();
}

TEST(InputLimits, AParquetTableIsNamedAsNotReadAndWhy) {
  TempDir runs, out;
  writeFile(runs / kRun / "solution.py", test::kClean);
  writeFile(runs / "evals.parquet", "PAR1....PAR1");
  const auto r = kb({"audit", runs.path().string(), "--out", out.path().string()});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("evals.parquet: not read as an evaluation table: not read: "), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(out / annotationFileName(kRun)));
}

TEST(InputLimits, ANulInATableSolutionPathGivesTheRowABugAnnotationNotAnotherFile) {
  TempDir runs, out;
  writeFile(runs / "s/a.py.txt", test::kClean);
  writeFile(runs / "evals.jsonl", "{\"run_id\": \"nul\", \"solution_path\": \"s/a.py.txt\\u0000../../elsewhere\"}\n"
                                  "{\"run_id\": \"good\", \"solution_path\": \"s/a.py.txt\"}\n");
  const auto r = kb({"audit", runs.path().string(), "--out", out.path().string()});
  EXPECT_EQ(r.code, 0) << r.err;
  const annotations::Annotation a = fromYaml(readFile(out / "nul.yaml"));
  EXPECT_EQ(a.verdict, "bug");
  EXPECT_TRUE(codesOf(a.kbaudit.diagnostics).count("table-row-unusable"));
  EXPECT_NE(a.summary.find("NUL byte"), std::string::npos) << a.summary;
  EXPECT_EQ(fromYaml(readFile(out / "good.yaml")).verdict, "clean");
}

TEST(InputLimits, ASolutionOfOnlyAByteOrderMarkIsEmpty) {
  for (const std::string bytes : {"\xEF\xBB\xBF", "\xEF\xBB\xBF  \n\n"}) {
    const SourceFile f = SourceFile::fromBytes(bytes);
    EXPECT_FALSE(f.analyzable());
    EXPECT_TRUE(codesOf(f.diagnostics()).count("empty-file"));
  }
  TempDir dir;
  writeFile(dir / "solution.py", "\xEF\xBB\xBF");
  const auto r = kb({"check", (dir / "solution.py").string(), "--format", "yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(fromYaml(r.out).verdict, "bug");
}

problems::ProblemContext problemFrom(const std::string &yaml) {
  TempDir dir;
  writeFile(dir / "problem.yaml", yaml);
  writeFile(dir / "reference.py", "import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n"
                                  "        return x @ x\n");
  return problems::loadProblem(dir.path());
}

TEST(InputLimits, ProblemYamlThatCannotBeReadAsWrittenIsADiagnostic) {
  {
    const auto p = problemFrom("precision: fp32\nforbidden: [torch.matmul]\n---\nforbidden: []\n");
    EXPECT_TRUE(codesOf(p.diagnostics).count("problem-yaml-documents"));
    EXPECT_EQ(p.forbidden, std::vector<std::string>{"torch.matmul"});
  }
  {
    const auto p = problemFrom("precision: fp32\nname: caf\xe9\nforbidden: [torch.matmul]\n");
    EXPECT_TRUE(codesOf(p.diagnostics).count("problem-yaml-encoding"));
  }
  for (const char *bad : {".nan", ".inf", "-.inf", "-1"}) {
    const auto p = problemFrom(std::string("precision: fp32\ntolerance:\n  fp32: ") + bad + "\n");
    EXPECT_TRUE(codesOf(p.diagnostics).count("problem-yaml-value")) << bad;
    EXPECT_FALSE(p.tolerance.count("fp32")) << bad;
  }
  {
    const auto p = problemFrom("precision: fp32\nforbidden: " + std::string(50'000, '[') + "\n");
    EXPECT_TRUE(codesOf(p.diagnostics).count("problem-malformed"));
  }
}

TEST(InputLimits, AFloodOfMalformedForbiddenEntriesGivesBoundedDiagnostics) {
  std::string yaml = "precision: fp32\nforbidden:\n";
  for (int i = 0; i < 100'000; ++i)
    yaml += "  - 7\n";
  const auto p = problemFrom(yaml);
  EXPECT_LE(p.diagnostics.size(), 20u);
  EXPECT_EQ(countCode(p.diagnostics, "problem-yaml-type"), 11u); // ten named, one count
  EXPECT_TRUE(codesOf(p.diagnostics).count("problem-yaml-value")); // past the entries read
  std::string many = "precision: fp32\nforbidden:\n";
  for (int i = 0; i < 5'000; ++i)
    many += "  - torch.op" + std::to_string(i) + "\n";
  EXPECT_EQ(problemFrom(many).forbidden.size(), 1000u);
}

TEST(InputLimits, ARunRecordThatCannotBeReadIsNamedAndTheRunStillAudited) {
  TempDir runs, out;
  writeFile(runs / kRun / "solution.py", test::kWrapper);
  writeFile(runs / kRun / "meta.json", "{\"bench\": " + deepJson(50'000) + "}");
  writeFile(runs / kRun / "result.json", "{not json");
  const auto r = kb({"audit", runs.path().string(), "--out", out.path().string()});
  EXPECT_EQ(r.code, 0) << r.err;
  const annotations::Annotation a = fromYaml(readFile(out / annotationFileName(kRun)));
  EXPECT_EQ(a.verdict, "reward_hack");
  EXPECT_EQ(countCode(a.kbaudit.diagnostics, "run-record-unreadable"), 2u);
}

TEST(InputLimits, DeepOrDoubledConfigAndBaselineAreUsageErrorsNotCrashes) {
  TempDir dir;
  writeFile(dir / "solution.py", test::kClean);
  writeFile(dir / "deep.yaml", "select: " + std::string(50'000, '[') + "\n");
  writeFile(dir / "two.yaml", "select: [WRAP]\n---\nignore: [ALL]\n");
  for (const char *bad : {"deep.yaml", "two.yaml"}) {
    const auto c = kb({"check", (dir / "solution.py").string(), "--config", (dir / bad).string()});
    EXPECT_EQ(c.code, 2) << bad;
    const auto b = kb({"check", (dir / "solution.py").string(), "--no-config", "--baseline", (dir / bad).string()});
    EXPECT_EQ(b.code, 2) << bad;
  }
  const auto c = kb({"check", (dir / "solution.py").string(), "--config", (dir / "deep.yaml").string()});
  EXPECT_NE(c.err.find("nested deeper than"), std::string::npos) << c.err;
}

TEST(InputLimits, ADeepAnnotationIsAnUnreadableFileForScoreAndReport) {
  TempDir truth, pred;
  writeFile(truth / kRun / "annotation.yaml", "verdict: clean\n");
  writeFile(pred / (std::string(kRun) + ".yaml"), "verdict: " + std::string(50'000, '[') + "\n");
  const auto r = kb({"score", "--truth", truth.path().string(), "--pred", pred.path().string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("nested deeper than"), std::string::npos) << r.err;
}

} // namespace

// Parquet evaluation tables, read through pyarrow in a limited subprocess (cli/src/parquet_table.h).

#include "../../cli/src/eval_table.h"

#include "kbaudit/runtime/probe.h"

#include "test_files.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace kbaudit;
using kbaudit::test::TempDir;
using kbaudit::test::writeFile;

namespace {

namespace fs = std::filesystem;

bool pythonHasPyarrow(const fs::path &python) {
  const std::string cmd = "'" + python.string() + "' -c 'import pyarrow' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

/// Writes `rows` (a Python literal list of dicts) as Parquet with the interpreter's pyarrow.
bool writeParquet(const fs::path &python, const fs::path &file, const std::string &rows) {
  TempDir tmp;
  writeFile(tmp / "w.py", "import sys, pyarrow as pa, pyarrow.parquet as pq\n"
                          "pq.write_table(pa.Table.from_pylist(" + rows + "), sys.argv[1])\n");
  const std::string cmd = "'" + python.string() + "' '" + (tmp / "w.py").string() + "' '" + file.string() + "'";
  return std::system(cmd.c_str()) == 0;
}

/// Sets an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const std::string &value) : name_(name) {
    if (const char *old = std::getenv(name))
      old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() { old_ ? (void)setenv(name_, old_->c_str(), 1) : (void)unsetenv(name_); }

private:
  const char *name_;
  std::optional<std::string> old_;
};

TEST(ParquetTable, RowsBecomeRunsLikeAnyOtherTable) {
  const fs::path python = runtime::defaultPython();
  if (!pythonHasPyarrow(python))
    GTEST_SKIP() << python << " has no pyarrow (./setup.sh installs it in .venv)";
  TempDir root;
  writeFile(root / "solutions/a.py.txt", "x = 1\n");
  ASSERT_TRUE(writeParquet(python, root / "evals.parquet",
                           "[{'model': 'Claude Opus 4.6', 'gpu': 'H100', 'level': 1, 'problem': '36_RMSNorm_', "
                           "'correct': True, 'pct_of_peak': 55.0, 'solution_path': 'solutions/a.py.txt'}, "
                           "{'model': 'GPT-5.4', 'gpu': 'B200', 'level': 2, 'problem': '12_Gemm', "
                           "'correct': False, 'pct_of_peak': None, 'solution_path': 'solutions/missing.py.txt'}]"));
  const cli::EvaluationTables t = cli::readEvaluationTables(root.path());
  ASSERT_EQ(t.tables.size(), 1u) << (t.problems.empty() ? "" : t.problems.front());
  ASSERT_EQ(t.runs.size(), 2u);
  const cli::Evaluation &e = t.runs[0].evaluation;
  EXPECT_EQ(e.model, "Claude Opus 4.6");
  EXPECT_EQ(e.level, "level1");
  EXPECT_EQ(e.problem, "36_RMSNorm_");
  ASSERT_TRUE(e.peakFraction);
  EXPECT_DOUBLE_EQ(*e.peakFraction, 0.55);
  EXPECT_EQ(t.runs[0].solution, root / "solutions/a.py.txt");
  EXPECT_FALSE(t.runs[1].evaluation.peakFraction);
  EXPECT_TRUE(t.problems.empty());
}

TEST(ParquetTable, ADamagedFileIsNamedWithWhyAndTheOtherTablesAreRead) {
  const fs::path python = runtime::defaultPython();
  if (!pythonHasPyarrow(python))
    GTEST_SKIP() << python << " has no pyarrow (./setup.sh installs it in .venv)";
  TempDir root;
  writeFile(root / "solutions/a.py.txt", "x = 1\n");
  writeFile(root / "broken.parquet", "PAR1 this is not parquet PAR1");
  writeFile(root / "evals.csv", "model,problem,solution_path\nm,1_x,solutions/a.py.txt\n");
  const cli::EvaluationTables t = cli::readEvaluationTables(root.path());
  EXPECT_EQ(t.runs.size(), 1u);
  ASSERT_EQ(t.problems.size(), 1u);
  EXPECT_NE(t.problems[0].find("broken.parquet"), std::string::npos) << t.problems[0];
  EXPECT_NE(t.problems[0].find("not a Parquet file"), std::string::npos) << t.problems[0];
}

TEST(ParquetTable, WithoutPyarrowTheDiagnosticSaysSoAndHowToFixIt) {
  TempDir root;
  // An interpreter that cannot import pyarrow: a shell script standing in for Python.
  writeFile(root / "bin/python", "#!/bin/sh\nexit 3\n");
  fs::permissions(root / "bin/python", fs::perms::owner_all);
  const ScopedEnv env("KBAUDIT_PYTHON", (root / "bin/python").string());
  writeFile(root / "t/evals.parquet", "PAR1");
  const cli::EvaluationTables t = cli::readEvaluationTables(root / "t");
  ASSERT_EQ(t.problems.size(), 1u);
  EXPECT_NE(t.problems[0].find("has no pyarrow"), std::string::npos) << t.problems[0];
  EXPECT_NE(t.problems[0].find("setup.sh"), std::string::npos) << t.problems[0];
}

} // namespace

// What an `if` guards and whether a string names the grader (semantic/guarded_code.h): RUB001
// drops caller tests whose guarded code only reports, and raises its confidence when the test
// names the grader.

#include "kbaudit/semantic/guarded_code.h"

#include "python_test_support.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

using py::testing::branchAt;
using py::testing::src;

TEST(SemanticGuardedCode, OnlyReportsVersusWork) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
import sys
def f(x):
    if "bench" in sys.argv:
        print("benchmarking")
    if "check" in sys.argv:
        raise RuntimeError("no")
    if "timeit" in sys.argv:
        x = x * 2
    if "eval" in sys.argv:
        print("eval")
        x.add_(1)
    if "grade" in sys.argv:
        pass
    if "perf" in sys.argv:
        print(x @ x)
    return x
)PY")));
  const py::PythonFacts &py = f.python;
  const auto only = [&](unsigned line) {
    const py::Branch *b = branchAt(py, line);
    EXPECT_NE(b, nullptr) << line;
    return b && semantic::onlyReports(py, *b);
  };
  EXPECT_TRUE(only(3));   // prints
  EXPECT_TRUE(only(5));   // raises
  EXPECT_FALSE(only(7));  // assigns
  EXPECT_FALSE(only(9));  // an in-place op beside the print
  EXPECT_FALSE(only(12)); // no call at all: nothing to call a report
  EXPECT_FALSE(only(14)); // a matmul (`@`) is work even when only printed
}

TEST(SemanticGuardedCode, StringsNamingTheGrader) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
import inspect
def f(x):
    """Called from benchmark.py."""
    for fr in inspect.stack():
        if "benchmark" in fr.filename:
            return x
        if "numpy" in fr.filename:
            return x
    return x
)PY")));
  const py::PythonFacts &py = f.python;
  EXPECT_TRUE(semantic::stringNamesGrader(py, "f", {5, 5}, true));
  EXPECT_FALSE(semantic::stringNamesGrader(py, "f", {7, 7}, true));
  EXPECT_TRUE(semantic::stringNamesGrader(py, "f", {1, 4}, false)); // the docstring counts
  EXPECT_FALSE(semantic::stringNamesGrader(py, "f", {1, 4}, true)); // ... unless skipped
  EXPECT_FALSE(semantic::stringNamesGrader(py, "g", {1, 10}, false)); // another function
}

} // namespace
} // namespace kbaudit

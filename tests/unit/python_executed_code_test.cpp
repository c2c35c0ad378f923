// Code a solution runs from a string: a constant one is read as the module code it is, on the
// lines it is written on; anything else is a gap that makes the run incomplete, never an absence.
// And a lambda bound to a name is the function of that name.

#include "kbaudit/annotations/incomplete.h"
#include "kbaudit/facts.h"
#include "kbaudit/python/executed_code.h"
#include "kbaudit/python/frontend.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace kbaudit;

namespace {

Facts factsOf(const std::string &text) { return analyzeSource(SourceFile::fromBytes(text)); }

bool hasCall(const Facts &f, const std::string &resolved, unsigned line, const std::string &function = {}) {
  return std::any_of(f.python.calls.begin(), f.python.calls.end(), [&](const py::Call &c) {
    return c.resolved == resolved && c.lines.begin == line && (function.empty() || c.function == function);
  });
}

std::size_t diagnosticsWith(const Facts &f, const std::string &code) {
  const auto all = f.diagnostics();
  return static_cast<std::size_t>(std::count_if(all.begin(), all.end(), [&](const Diagnostic &d) { return d.code == code; }));
}

} // namespace

TEST(PythonExecutedCode, AModuleRunThroughExecIsReadAsCodeOnItsOwnLines) {
  const Facts f = factsOf("import torch\n"
                          "exec(r'''import torch.nn as nn\n"
                          "class ModelNew(nn.Module):\n"
                          "    def forward(self, a, b):\n"
                          "        return torch.matmul(a.half(), b.half()).float()\n"
                          "''')\n");
  EXPECT_TRUE(hasCall(f, "torch.matmul", 5, "ModelNew.forward"));
  ASSERT_NE(f.python.findFunction("ModelNew.forward"), nullptr);
  EXPECT_EQ(diagnosticsWith(f, "executed-code-read"), 1u);
  EXPECT_EQ(diagnosticsWith(f, "code-built-at-run-time"), 0u);
  EXPECT_TRUE(annotations::visibilityGaps(f).empty());
  // Quotes still come from solution.py itself.
  EXPECT_EQ(f.source.line(5), "        return torch.matmul(a.half(), b.half()).float()");
}

TEST(PythonExecutedCode, ThroughANameAndThroughCompile) {
  const std::string body = "SRC = \"\"\"\n"
                           "import torch\n"
                           "def custom_kernel(data):\n"
                           "    return torch.mm(data[0], data[1])\n"
                           "\"\"\"\n";
  for (const std::string &run : {std::string("exec(SRC)\n"), std::string("exec(compile(SRC, '<kernel>', 'exec'), globals())\n"),
                                 std::string("code = compile(SRC, 'k', 'exec')\nexec(code)\n")}) {
    const Facts f = factsOf(body + run);
    EXPECT_TRUE(hasCall(f, "torch.mm", 4, "custom_kernel")) << run;
    EXPECT_EQ(diagnosticsWith(f, "code-built-at-run-time"), 0u) << run;
    EXPECT_TRUE(annotations::visibilityGaps(f).empty()) << run;
  }
}

TEST(PythonExecutedCode, ExecInsideExecIsReadToo) {
  const Facts f = factsOf("exec(r'''import torch\n"
                          "exec(\"\"\"def forward(x):\n"
                          "    return torch.topk(x, 4)\n"
                          "\"\"\")\n"
                          "''')\n");
  EXPECT_TRUE(hasCall(f, "torch.topk", 3, "forward"));
  EXPECT_EQ(diagnosticsWith(f, "executed-code-read"), 2u);
}

TEST(PythonExecutedCode, CodeBuiltAtRunTimeIsAGapNotAnAbsence) {
  for (const std::string &text :
       {std::string("import os\nexec(open(os.environ['K']).read())\n"),
        std::string("def build():\n    return 'x = 1'\nexec(build())\n"),
        std::string("import torch\ndef forward(x):\n    exec('y = x.half()')\n    return x\n"), // inside a function
        std::string("import torch\ndt = eval('torch.' + 'float16')\n")}) {
    const Facts f = factsOf(text);
    EXPECT_EQ(diagnosticsWith(f, "code-built-at-run-time"), 1u) << text;
    // The gap of the code built at run time; (most of these files have no graded entry point
    // either, which is a gap of its own: unseen_code_test.cpp).
    const auto gaps = annotations::visibilityGaps(f);
    ASSERT_FALSE(gaps.empty()) << text;
    EXPECT_NE(gaps.front().find("runs from a string"), std::string::npos) << gaps.front();
    for (std::size_t i = 1; i < gaps.size(); ++i)
      EXPECT_NE(gaps[i].find("no graded entry point"), std::string::npos) << gaps[i];
  }
}

TEST(PythonExecutedCode, NoExecNoChange) {
  const std::string text = "import torch\nclass ModelNew(torch.nn.Module):\n    def forward(self, x):\n        return x\n";
  const py::PythonFacts plain = py::analyze(text);
  const py::PythonFacts read = py::analyzeWithExecutedCode(text);
  EXPECT_EQ(plain.calls.size(), read.calls.size());
  EXPECT_EQ(plain.functions.size(), read.functions.size());
  EXPECT_EQ(read.diagnostics.size(), plain.diagnostics.size());
}

TEST(PythonExecutedCode, ALambdaBoundToANameIsThatFunction) {
  const Facts f = factsOf("import torch\n"
                          "helper = lambda a, b={'k': 1}: torch.mm(a,\n"
                          "    a)\n"
                          "class ModelNew(torch.nn.Module):\n"
                          "    forward = lambda self, x: helper(x)  # note: a comment\n"
                          "def outer():\n"
                          "    inner = lambda y: y.half()\n"
                          "    return inner\n");
  const py::Function *forward = f.python.findFunction("ModelNew.forward");
  ASSERT_NE(forward, nullptr);
  EXPECT_EQ(forward->lines.begin, 5u);
  EXPECT_NE(f.python.findFunction("helper"), nullptr);
  EXPECT_TRUE(hasCall(f, "torch.mm", 2, "helper"));
  EXPECT_TRUE(hasCall(f, "helper", 5, "ModelNew.forward"));
  // A closure inside a def stays where it is: read as part of its function.
  EXPECT_EQ(f.python.findFunction("inner"), nullptr);
  EXPECT_EQ(f.source.line(5), "    forward = lambda self, x: helper(x)  # note: a comment");
  EXPECT_TRUE(annotations::visibilityGaps(f).empty());
}

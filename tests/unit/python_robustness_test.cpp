// Malformed input: syntax errors keep the facts that parse; nothing crashes or hangs.

#include "python_test_support.h"

#include <chrono>
#include <random>
#include <thread>

namespace kbaudit::py::testing {
namespace {

std::vector<const Diagnostic *> syntaxErrors(const PythonFacts &f) {
  std::vector<const Diagnostic *> out;
  for (const auto &d : f.diagnostics)
    if (d.code == "syntax-error")
      out.push_back(&d);
  return out;
}

TEST(PythonRobustness, ValidFileHasNoDiagnostics) {
  auto f = analyze("import torch\nx = torch.ones(1)\n");
  EXPECT_TRUE(f.diagnostics.empty());
}

TEST(PythonRobustness, EmptyAndCommentOnlyInput) {
  EXPECT_TRUE(analyze("").calls.empty());
  auto f = analyze("# just a comment\n\n   \n");
  EXPECT_TRUE(f.diagnostics.empty());
  EXPECT_TRUE(f.calls.empty());
}

TEST(PythonRobustness, SyntaxErrorKeepsFactsBeforeAndAfter) {
  auto f = analyze(src(R"PY(
import os
x = foo(1
y = 2
def g():
    return os.getenv("A")
class ModelNew:
    def forward(self, x):
        return x
)PY"));
  auto errs = syntaxErrors(f);
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_EQ(errs[0]->severity, Diagnostic::Severity::Warning);
  EXPECT_EQ(errs[0]->lines.begin, 2u);
  EXPECT_NE(errs[0]->message.find("line"), std::string::npos);
  EXPECT_NE(errs[0]->message.find("2"), std::string::npos);
  EXPECT_NE(importOf(f, "os"), nullptr);
  EXPECT_NE(f.findFunction("g"), nullptr);
  EXPECT_NE(f.findFunction("ModelNew.forward"), nullptr);
  EXPECT_NE(callTo(f, "os.getenv"), nullptr);
  EXPECT_EQ(callTo(f, "os.getenv")->lines, (LineRange{5, 5}));
}

TEST(PythonRobustness, TruncatedInsideATripleQuotedString) {
  auto f = analyze(src(R"PY(
import torch
from torch.utils.cpp_extension import load_inline
def helper(x):
    return torch.relu(x)
SRC = """
#include <torch/extension.h>
__global__ void k(float* x) {
)PY"));
  auto errs = syntaxErrors(f);
  ASSERT_FALSE(errs.empty());
  EXPECT_GE(errs[0]->lines.begin, 5u);
  EXPECT_NE(importOf(f, "load_inline"), nullptr);
  EXPECT_NE(f.findFunction("helper"), nullptr);
  EXPECT_NE(callTo(f, "torch.relu"), nullptr);
}

TEST(PythonRobustness, SeparateErrorRegionsGetSeparateDiagnostics) {
  auto f = analyze(src(R"PY(
def a():
    return 1 +
x = 1
y = 2
z = 3
def b():
    return (]
w = 4
)PY"));
  auto errs = syntaxErrors(f);
  ASSERT_EQ(errs.size(), 2u);
  EXPECT_EQ(errs[0]->lines.begin, 2u);
  EXPECT_EQ(errs[1]->lines.begin, 7u);
  EXPECT_NE(assignmentTo(f, "y"), nullptr);
  EXPECT_NE(assignmentTo(f, "w"), nullptr);
}

TEST(PythonRobustness, PastedCxxAfterPythonIsOneRegion) {
  auto f = analyze(src(R"PY(
import torch
class ModelNew(torch.nn.Module):
    def forward(self, x):
        return x

// sidecar: kernel.cu
#include <cuda.h>
__global__ void k(float* x) {
    int i = threadIdx.x;
    x[i] = 0.0f;
}
)PY"));
  auto errs = syntaxErrors(f);
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_GE(errs[0]->lines.begin, 6u);
  EXPECT_NE(f.findFunction("ModelNew.forward"), nullptr);
  EXPECT_NE(f.findClass("ModelNew"), nullptr);
}

TEST(PythonRobustness, RandomBytesNeverCrash) {
  std::mt19937 rng(12345);
  for (int round = 0; round < 40; ++round) {
    std::string s(static_cast<size_t>(rng() % 4000), '\0');
    for (char &c : s)
      c = static_cast<char>(rng() & 0xFF);
    auto f = analyze(s);
    (void)f;
  }
  // Python-ish token soup exercises the error recovery harder than raw bytes.
  const char *tokens[] = {"def", "class", "(", ")", ":", "\n", "    ", "x", "=", "\"\"\"", "'", "if",
                          "else", "[", "]", "import", "torch", ".", "1", "+", "lambda", "@", "f\"{", "}",
                          "\\", "#", "try", "except", "return", "*", "**", ",", "is", "not"};
  for (int round = 0; round < 40; ++round) {
    std::string s;
    size_t n = rng() % 800;
    for (size_t i = 0; i < n; ++i) {
      s += tokens[rng() % (sizeof tokens / sizeof *tokens)];
      s += ' ';
    }
    auto f = analyze(s);
    for (const auto &c : f.calls)
      EXPECT_TRUE(c.lines.valid());
  }
}

TEST(PythonRobustness, DeepNestingIsBoundedNotFatal) {
  {
    std::string s = "x = " + std::string(5000, '(') + "1" + std::string(5000, ')') + "\n";
    auto f = analyze(s);
    EXPECT_NE(assignmentTo(f, "x"), nullptr);
  }
  {
    std::string s = "x = " + std::string(5000, '(') + "1\n";
    auto f = analyze(s);
    EXPECT_FALSE(syntaxErrors(f).empty());
  }
  {
    std::string s = "y = f(" + std::string(3000, '[') + std::string(3000, ']') + ")\n";
    auto f = analyze(s);
    ASSERT_NE(callTo(f, "f"), nullptr);
  }
  {
    // 400 nested ifs: deeper than the walkers follow.
    std::string s = "import os\n";
    for (int i = 0; i < 400; ++i)
      s += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
    s += std::string(400, ' ') + "os.getenv('A')\n";
    s += "z = os.getenv('B')\n";
    auto f = analyze(s);
    bool tooDeep = false;
    for (const auto &d : f.diagnostics)
      tooDeep |= d.code == "nesting-too-deep";
    EXPECT_TRUE(tooDeep);
    ASSERT_NE(assignmentTo(f, "z"), nullptr);
  }
  {
    std::string s = "s = " + std::string(2000, '"') + "\n";
    analyze(s);
    std::string t = "x = 1" + std::string(3000, '+') + "1\n";
    analyze(t);
    std::string u = "v = " + std::string(3000, '-') + "1\n";
    analyze(u);
    std::string chain = "w = a";
    for (int i = 0; i < 3000; ++i)
      chain += ".b";
    analyze(chain + "\n");
    std::string calls = "q = f";
    for (int i = 0; i < 3000; ++i)
      calls += "()";
    analyze(calls + "\n");
  }
}

TEST(PythonRobustness, LongBindingChainsTerminate) {
  std::string s = "A0 = 'x'\n";
  for (int i = 1; i < 300; ++i)
    s += "A" + std::to_string(i) + " = A" + std::to_string(i - 1) + " + 'x'\n";
  s += "use(A299)\n";
  auto start = std::chrono::steady_clock::now();
  auto f = analyze(s);
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(std::chrono::duration<double>(elapsed).count(), 5.0);
  ASSERT_NE(callTo(f, "use"), nullptr);
}

TEST(PythonRobustness, NulBytesAndInvalidUtf8) {
  const char text[] = "x = 'a\0b'\ny = \xff\xfe\ndef f():\n    return 1\n";
  std::string s(text, sizeof text - 1);
  ASSERT_EQ(s[6], '\0');
  // Not Python (the source layer rejects binary files before this): no crash, an error.
  auto f = analyze(s);
  EXPECT_FALSE(syntaxErrors(f).empty());
}

TEST(PythonRobustness, AnalysisIsDeterministic) {
  std::string s = src(R"PY(
import torch
SRC = "a" + "b"
def f(x):
    if x is y:
        return torch.relu(x)
x = foo(
)PY");
  auto a = analyze(s);
  auto b = analyze(s);
  ASSERT_EQ(a.calls.size(), b.calls.size());
  for (size_t i = 0; i < a.calls.size(); ++i)
    EXPECT_EQ(a.calls[i].resolved, b.calls[i].resolved);
  EXPECT_EQ(a.strings.size(), b.strings.size());
  EXPECT_EQ(a.diagnostics.size(), b.diagnostics.size());
}

TEST(PythonRobustness, ConcurrentAnalysesAgree) {
  // The batch audit runs one analysis per worker thread.
  std::string s = src(R"PY(
import torch
from torch.utils.cpp_extension import load_inline
SRC = "a" "b"
ext = load_inline(name="x", cpp_sources=SRC)
def f(x):
    return torch.relu(x) if x is not None else x
)PY");
  PythonFacts reference = analyze(s);
  std::vector<size_t> calls(4), strings(4);
  std::vector<std::thread> workers;
  for (size_t t = 0; t < 4; ++t)
    workers.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        PythonFacts f = analyze(s);
        calls[t] = f.calls.size();
        strings[t] = f.strings.size();
      }
    });
  for (auto &w : workers)
    w.join();
  for (size_t t = 0; t < 4; ++t) {
    EXPECT_EQ(calls[t], reference.calls.size());
    EXPECT_EQ(strings[t], reference.strings.size());
  }
}

// The text's nesting is measured outside strings and comments: brackets there are not open.
TEST(PythonRobustness, BracketDepthCountsCodeNotCommentsOrStrings) {
  const std::string many = std::string(250, '(');
  const std::string quoted = "# " + many + "\n" + "s = '" + std::string(250, '[') + "'\n" +
                             "t = \"\"\"\n" + many + "\n\"\"\"\nx = 1 \\\n  + 2\n";
  for (const auto &d : analyze(quoted).diagnostics)
    EXPECT_NE(d.code, "nesting-too-deep") << d.message;

  const std::string code = "a = 1  # (((\nb = " + many + "1" + std::string(250, ')') + "\n";
  const Diagnostic *deep = nullptr;
  PythonFacts f = analyze(code);
  for (const auto &d : f.diagnostics)
    if (d.code == "nesting-too-deep")
      deep = &d;
  ASSERT_NE(deep, nullptr);
  EXPECT_NE(deep->message.find("250 brackets open at once"), std::string::npos) << deep->message;
  EXPECT_EQ(deep->lines.begin, 2u);
}

} // namespace
} // namespace kbaudit::py::testing

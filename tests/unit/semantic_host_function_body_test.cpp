// The semantic layer's readings of host functions defined in solution.py
// (kbaudit/semantic/host_function_body.h): which text belongs to a function, which
// uninitialised buffers it returns unwritten (MEM002) and which parameters it returns (MEM003).

#include "kbaudit/semantic/host_function_body.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using namespace kbaudit;
using namespace kbaudit::semantic;

/// solution.py of `text` and one embedded source in `file` recovered from its lines `begin` to
/// `end` (after `prelude`, lines of the source solution.py does not hold, such as a macro), with
/// one C++ function on those lines, as the front end places it.
Facts factsWith(const std::string &text, unsigned begin, unsigned end, const std::string &prelude = "",
                const std::string &file = "solution.py") {
  Facts f;
  f.source = SourceFile::fromBytes(text);
  embed::EmbeddedSource s;
  s.text = prelude;
  s.file = file;
  for (char c : prelude)
    if (c == '\n')
      s.lineMap.push_back(0);
  const unsigned first = static_cast<unsigned>(s.lineMap.size()) + 1;
  for (unsigned l = begin; l <= end && l <= f.source.lineCount(); ++l) {
    s.text += f.source.lines(l, l);
    s.lineMap.push_back(l);
  }
  f.embedded.sources.push_back(s);
  cxx::CxxFunction fn;
  fn.name = "run";
  fn.qualifiedName = "ns::run";
  fn.definition = true;
  fn.source = 0;
  fn.lines = {begin, end};
  fn.sourceLines = {first, first + (end - begin)};
  f.cxx.functions.push_back(fn);
  return f;
}

const std::string kUnwritten = "import torch\n"                                    // 1
                               "src = '''\n"                                        // 2
                               "torch::Tensor run(torch::Tensor x) {\n"             // 3
                               "  auto out = torch::empty_like(x);\n"               // 4
                               "  return out;\n"                                    // 5
                               "}\n"                                                // 6
                               "'''\n";                                             // 7

// ---- solutionText ----

TEST(SemanticHostBody, SolutionTextIsTheFunctionsLines) {
  const Facts f = factsWith(kUnwritten, 3, 6);
  EXPECT_EQ(cxxbody::solutionText(f, f.cxx.functions[0]),
            "torch::Tensor run(torch::Tensor x) {\n  auto out = torch::empty_like(x);\n  return out;\n}\n");
  const Facts last = factsWith(kUnwritten, 7, 7);
  EXPECT_EQ(cxxbody::solutionText(last, last.cxx.functions[0]), "'''\n");
}

TEST(SemanticHostBody, NoSolutionTextOutsideSolutionPy) {
  const Facts sidecar = factsWith(kUnwritten, 3, 6, "", "kernel.cu");
  EXPECT_EQ(cxxbody::solutionText(sidecar, sidecar.cxx.functions[0]), std::nullopt);
  const Facts pastEnd = factsWith(kUnwritten, 3, 8);
  EXPECT_EQ(cxxbody::solutionText(pastEnd, pastEnd.cxx.functions[0]), std::nullopt);
  const Facts f = factsWith(kUnwritten, 3, 6);
  cxx::CxxFunction fn = f.cxx.functions[0];
  fn.sourceLines = {};
  EXPECT_EQ(cxxbody::solutionText(f, fn), std::nullopt); // no lines
  fn.sourceLines = {4, 1};
  EXPECT_EQ(cxxbody::solutionText(f, fn), std::nullopt); // reversed
  fn = f.cxx.functions[0];
  fn.source = -1;
  EXPECT_EQ(cxxbody::solutionText(f, fn), std::nullopt);
  fn.source = 1;
  EXPECT_EQ(cxxbody::solutionText(f, fn), std::nullopt); // no such source
}

// A source written on one Python line with escaped newlines (or built from pieces) is many
// C++ lines: the body is read from the recovered text, lines mapped back where they came from.
TEST(SemanticHostBody, ABodyOnOnePythonLineIsReadFromTheRecoveredSource) {
  Facts f;
  f.source = SourceFile::fromBytes("import torch\nsrc = 'torch::Tensor run(torch::Tensor x) {...}'\n");
  embed::EmbeddedSource s;
  s.text = "torch::Tensor run(torch::Tensor x) {\n  auto out = torch::empty_like(x);\n  return out;\n}\n";
  s.lineMap = {2, 2, 2, 2};
  f.embedded.sources.push_back(s);
  cxx::CxxFunction fn;
  fn.qualifiedName = "run";
  fn.definition = true;
  fn.source = 0;
  fn.lines = {2, 2};
  fn.sourceLines = {1, 4};
  f.cxx.functions.push_back(fn);
  EXPECT_EQ(cxxbody::solutionText(f, fn), s.text);
  const std::vector<cxxbody::UnwrittenEmptyReturn> r = cxxbody::unwrittenEmptyReturns(f);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].line, 2u);
}

// ---- unwrittenEmptyReturns ----

TEST(SemanticHostBody, ReturnsAnUnwrittenEmptyBuffer) {
  const std::vector<cxxbody::UnwrittenEmptyReturn> r = cxxbody::unwrittenEmptyReturns(factsWith(kUnwritten, 3, 6));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].function, "ns::run");
  EXPECT_EQ(r[0].name, "out");
  EXPECT_EQ(r[0].allocator, "torch::empty_like");
  EXPECT_EQ(r[0].line, 4u);
}

TEST(SemanticHostBody, WrittenBuffersAreNotReported) {
  const std::string written = "torch::Tensor run(torch::Tensor x) {\n"
                              "  auto out = torch::empty_like(x);\n"
                              "  kernel<<<1, 1>>>(out.data_ptr<float>());\n"
                              "  return out;\n"
                              "}\n";
  EXPECT_TRUE(cxxbody::unwrittenEmptyReturns(factsWith(written, 1, 5)).empty());
  // Not returned at all.
  const std::string dropped = "void run(torch::Tensor x) {\n  auto out = torch::empty_like(x);\n}\n";
  EXPECT_TRUE(cxxbody::unwrittenEmptyReturns(factsWith(dropped, 1, 3)).empty());
  // Zero-filled memory is not uninitialised.
  const std::string zeros = "torch::Tensor run(torch::Tensor x) {\n  auto out = torch::zeros_like(x);\n  return out;\n}\n";
  EXPECT_TRUE(cxxbody::unwrittenEmptyReturns(factsWith(zeros, 1, 4)).empty());
}

TEST(SemanticHostBody, AMacroNamingTheBufferMayWriteIt) {
  EXPECT_TRUE(cxxbody::unwrittenEmptyReturns(factsWith(kUnwritten, 3, 6, "#define FILL() fill(out)\n")).empty());
  EXPECT_EQ(cxxbody::unwrittenEmptyReturns(factsWith(kUnwritten, 3, 6, "#define FILL() fill(output)\n")).size(), 1u);
}

TEST(SemanticHostBody, OnlyHostDefinitionsInSolutionPy) {
  Facts device = factsWith(kUnwritten, 3, 6);
  device.cxx.functions[0].kind = cxx::FunctionKind::Device;
  EXPECT_TRUE(cxxbody::unwrittenEmptyReturns(device).empty());
  Facts declaration = factsWith(kUnwritten, 3, 6);
  declaration.cxx.functions[0].definition = false;
  EXPECT_TRUE(cxxbody::unwrittenEmptyReturns(declaration).empty());
  EXPECT_TRUE(cxxbody::unwrittenEmptyReturns(factsWith(kUnwritten, 3, 6, "", "kernel.cu")).empty());
  EXPECT_TRUE(cxxbody::unwrittenEmptyReturns(Facts{}).empty());
}

// ---- returnedParameters ----

TEST(SemanticHostBody, ReturnedParameterWithPositionAndLine) {
  const std::string text = "x = 1\n"
                           "torch::Tensor run(torch::Tensor a,\n"
                           "                  torch::Tensor b) {\n"
                           "  if (a.numel() == 0)\n"
                           "    return a;\n"
                           "  return b;\n"
                           "}\n";
  const Facts f = factsWith(text, 2, 7);
  const std::vector<cxxbody::ReturnedParameter> r = cxxbody::returnedParameters(f, f.cxx.functions[0]);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].name, "a");
  EXPECT_EQ(r[0].position, 0u);
  EXPECT_EQ(r[0].line, 5u);
  EXPECT_EQ(r[1].name, "b");
  EXPECT_EQ(r[1].position, 1u);
  EXPECT_EQ(r[1].line, 6u);
}

TEST(SemanticHostBody, ReturnedLocalsAndExpressionsAreNotParameters) {
  const Facts f = factsWith(kUnwritten, 3, 6);
  EXPECT_TRUE(cxxbody::returnedParameters(f, f.cxx.functions[0]).empty()); // `out` is a local
  const std::string expr = "torch::Tensor run(torch::Tensor x) {\n  return x.view(-1);\n}\n";
  const Facts g = factsWith(expr, 1, 3);
  EXPECT_TRUE(cxxbody::returnedParameters(g, g.cxx.functions[0]).empty());
  const std::string decl = "torch::Tensor run(torch::Tensor x);\nreturn x;\n";
  const Facts h = factsWith(decl, 1, 2);
  EXPECT_TRUE(cxxbody::returnedParameters(h, h.cxx.functions[0]).empty()); // no body
  const Facts sidecar = factsWith(expr, 1, 3, "", "kernel.cu");
  EXPECT_TRUE(cxxbody::returnedParameters(sidecar, sidecar.cxx.functions[0]).empty());
}

} // namespace

// The semantic layer's Python token sequences (kbaudit/semantic/python_tokens.h): the lexer,
// a def's body tokens, masked locals, and the tokens of functions in solution.py or the
// reference, which WRAP004 compares.

#include "kbaudit/semantic/python_tokens.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using namespace kbaudit;
using namespace kbaudit::semantic;
using pytokens::Tokens;

TEST(SemanticPyTokens, Lexer) {
  EXPECT_EQ(pytokens::tokenize("y = x ** 2  # square\n"), (Tokens{"y", "=", "x", "**", "2"}));
  EXPECT_EQ(pytokens::tokenize("a //= .5 + 1.5e3"), (Tokens{"a", "//=", ".5", "+", "1.5e3"}));
  EXPECT_EQ(pytokens::tokenize("f(r'a\\'b', \"c\")"), (Tokens{"f", "(", "'a\\'b'", ",", "\"c\"", ")"}));
  EXPECT_EQ(pytokens::tokenize("rb'x' + f\"y\""), pytokens::tokenize("'x' + \"y\"")); // prefixes dropped
  EXPECT_EQ(pytokens::tokenize("x[...]"), (Tokens{"x", "[", "...", "]"}));
  EXPECT_EQ(pytokens::tokenize("s = '''a\nb'''\n"), (Tokens{"s", "=", "'''a\nb'''"}));
  EXPECT_EQ(pytokens::tokenize("a + \\\n b"), (Tokens{"a", "+", "b"}));
}

TEST(SemanticPyTokens, SelfDotIsDropped) {
  EXPECT_EQ(pytokens::tokenize("self.w @ x"), pytokens::tokenize("w @ x"));
  EXPECT_EQ(pytokens::tokenize("self"), (Tokens{"self"}));
  EXPECT_EQ(pytokens::tokenize("myself.w"), (Tokens{"myself", ".", "w"}));
}

TEST(SemanticPyTokens, UnterminatedStrings) {
  EXPECT_EQ(pytokens::tokenize("'abc\nx"), (Tokens{"'abc", "x"}));
  EXPECT_EQ(pytokens::tokenize("\"\"\"doc"), (Tokens{"\"\"\"doc"}));
  EXPECT_TRUE(pytokens::tokenize("").empty());
  EXPECT_TRUE(pytokens::tokenize("  # only a comment").empty());
}

TEST(SemanticPyTokens, BodyTokens) {
  const std::string def = "@torch.no_grad()\n"
                          "def forward(self, x: Dict[str, int] = {}) -> Tensor:\n"
                          "    \"\"\"Docstring.\"\"\"\n"
                          "    return x + 1\n";
  EXPECT_EQ(pytokens::bodyTokens(def), (Tokens{"return", "x", "+", "1"}));
  EXPECT_EQ(pytokens::bodyTokens("def f(): return 'a'"), (Tokens{"return", "'a'"}));
  EXPECT_EQ(pytokens::bodyTokens("def f():\n    'doc'\n"), Tokens{});
}

TEST(SemanticPyTokens, NoBodyWithoutDefOrColon) {
  EXPECT_TRUE(pytokens::bodyTokens("x = 1").empty());
  EXPECT_TRUE(pytokens::bodyTokens("def f(a, b)").empty());
  EXPECT_TRUE(pytokens::bodyTokens("").empty());
}

TEST(SemanticPyTokens, MaskLocals) {
  py::PythonFacts facts;
  py::Import imp;
  imp.boundName = "F";
  imp.target = "torch.nn.functional";
  facts.imports.push_back(imp);
  const Tokens t = pytokens::tokenize("return F.relu(out, inplace=flag) + len(xs) + None");
  EXPECT_EQ(pytokens::maskLocals(t, facts),
            (Tokens{"return", "F", ".", "relu", "(", "ID", ",", "inplace", "=", "ID", ")", "+", "len", "(", "ID", ")",
                    "+", "None"}));
  // Without the import its name is a local too.
  EXPECT_EQ(pytokens::maskLocals(pytokens::tokenize("F.relu"), py::PythonFacts{}), (Tokens{"ID", ".", "relu"}));
}

py::Function functionOn(const std::string &qualname, unsigned begin, unsigned end) {
  py::Function fn;
  fn.name = fn.qualname = qualname;
  fn.lines = {begin, end};
  return fn;
}

const std::string kFile = "import torch\n"              // 1
                          "def a(x):\n"                 // 2
                          "    return torch.relu(x)\n"  // 3
                          "def b(y):\n"                 // 4
                          "    return y * 2\n";         // 5

TEST(SemanticPyTokens, FunctionTokensOfSolutionAndReference) {
  Facts f;
  f.source = SourceFile::fromBytes(kFile);
  py::Import torch;
  torch.boundName = torch.target = "torch";
  f.python.imports.push_back(torch);
  const py::Function a = functionOn("a", 2, 3), b = functionOn("b", 4, 5);
  const Tokens expected{"return", "torch", ".", "relu", "(", "ID", ")", "return", "ID", "*", "2"};
  EXPECT_EQ(pytokens::functionTokens(f, {&a, &b}), expected);
  // The reference's side: its text and its facts.
  EXPECT_EQ(pytokens::functionTokens(kFile, f.python, {&a, &b}), expected);
  EXPECT_EQ(pytokens::functionTokens(kFile, f.python, {&b}), (Tokens{"return", "ID", "*", "2"}));
}

TEST(SemanticPyTokens, FunctionTokensEdgeLines) {
  const py::PythonFacts none;
  const py::Function invalid = functionOn("a", 0, 0), reversed = functionOn("a", 3, 2), past = functionOn("a", 9, 12),
                     open = functionOn("b", 4, 40);
  EXPECT_TRUE(pytokens::functionTokens(kFile, none, {&invalid}).empty());
  EXPECT_TRUE(pytokens::functionTokens(kFile, none, {&reversed}).empty());
  EXPECT_TRUE(pytokens::functionTokens(kFile, none, {&past}).empty());
  EXPECT_EQ(pytokens::functionTokens(kFile, none, {&open}), (Tokens{"return", "ID", "*", "2"}));
  EXPECT_TRUE(pytokens::functionTokens(kFile, none, {}).empty());
}

TEST(SemanticPythonTokens, ContainmentOfTokenGrams) {
  const Tokens ref = {"return", "torch", ".", "matmul", "(", "a", ",", "b", ")"};
  Tokens wrapped = {"x", "=", "1"};
  wrapped.insert(wrapped.end(), ref.begin(), ref.end());
  EXPECT_DOUBLE_EQ(pytokens::containment(ref, wrapped), 1.0) << "all of the reference, whatever surrounds it";
  EXPECT_LT(pytokens::containment(wrapped, ref), 1.0) << "not symmetric";
  EXPECT_DOUBLE_EQ(pytokens::containment({}, ref), 0.0);
  EXPECT_DOUBLE_EQ(pytokens::containment({"a", "b"}, {"a", "b"}), 1.0) << "shorter than a gram: compared whole";
  EXPECT_DOUBLE_EQ(pytokens::containment({"a", "b"}, {"b", "a"}), 0.0);
  const Tokens other = {"return", "torch", ".", "bmm", "(", "a", ",", "b", ")"};
  const double part = pytokens::containment(ref, other);
  EXPECT_GT(part, 0.0);
  EXPECT_LT(part, 1.0);
}

} // namespace

// The semantic layer's readings of C++ host-function text (kbaudit/semantic/cxx_body_scan.h)
// and its whole-C-identifier match (pytext::findIdentifier / mentionsIdentifier): what MEM002
// and MEM003 ask of an exported function's body, on plain strings.

#include "kbaudit/semantic/cxx_body_scan.h"
#include "kbaudit/semantic/python_text.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace kbaudit::semantic;
using cxxbody::TensorAllocation;

std::vector<std::string> names(const std::vector<TensorAllocation> &v) {
  std::vector<std::string> out;
  for (const TensorAllocation &a : v)
    out.push_back(a.name);
  return out;
}

std::vector<std::string> names(const std::vector<cxxbody::ReturnedIdentifier> &v) {
  std::vector<std::string> out;
  for (const cxxbody::ReturnedIdentifier &r : v)
    out.push_back(r.name);
  return out;
}

using Names = std::vector<std::string>;

// ---- whole-identifier match ----

TEST(SemanticIdentifier, FindsWholeWordsOnly) {
  EXPECT_EQ(pytext::findIdentifier("f(x)", "x"), 2u);
  EXPECT_EQ(pytext::findIdentifier("x", "x"), 0u);
  EXPECT_EQ(pytext::findIdentifier("xs + x_1 + ax + x2", "x"), std::string_view::npos);
  EXPECT_EQ(pytext::findIdentifier("xs + x", "x"), 5u);
}

TEST(SemanticIdentifier, AttributesAndMembersCountUnlikeMentionsName) {
  EXPECT_TRUE(pytext::mentionsIdentifier("self.x", "x"));
  EXPECT_TRUE(pytext::mentionsIdentifier("p->x", "x"));
  EXPECT_FALSE(pytext::mentionsName("self.x", "x"));
  EXPECT_TRUE(pytext::mentionsIdentifier("self._stream", "self"));
}

TEST(SemanticIdentifier, FromSkipsEarlierOccurrences) {
  EXPECT_EQ(pytext::findIdentifier("x + x", "x", 1), 4u);
  EXPECT_EQ(pytext::findIdentifier("x + x", "x", 5), std::string_view::npos);
  EXPECT_EQ(pytext::findIdentifier("x", "x", 99), std::string_view::npos);
}

TEST(SemanticIdentifier, EmptyNameOrTextNeverMatches) {
  EXPECT_EQ(pytext::findIdentifier("a b", ""), std::string_view::npos);
  EXPECT_FALSE(pytext::mentionsIdentifier("", "x"));
  EXPECT_FALSE(pytext::mentionsIdentifier("x", ""));
}

// ---- local tensor allocations ----

TEST(SemanticCxxBody, FindsEachAllocatorForm) {
  const std::string body = "{\n"
                           "  auto a = at::empty({n}, x.options());\n"
                           "  at::Tensor b = torch::empty_like(x);\n"
                           "  torch::Tensor c = at::empty_strided(s, t, o);\n"
                           "  auto d = x.new_empty({n});\n"
                           "}";
  const std::vector<TensorAllocation> got = cxxbody::emptyAllocations(body);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(names(got), (Names{"a", "b", "c", "d"}));
  EXPECT_EQ(got[0].allocator, "at::empty");
  EXPECT_EQ(got[1].allocator, "torch::empty_like");
  EXPECT_EQ(got[2].allocator, "at::empty_strided");
  EXPECT_EQ(got[3].allocator, "x.new_empty");
  EXPECT_EQ(got[0].offset, body.find("auto a"));
  EXPECT_EQ(got[1].offset, body.find("at::Tensor b"));
  EXPECT_EQ(got[0].line, 1u);
  EXPECT_EQ(got[3].line, 4u);
}

TEST(SemanticCxxBody, BlanksBetweenTokensIncludingNewlines) {
  const std::vector<TensorAllocation> got = cxxbody::emptyAllocations("auto\n  out\t=\n at::empty ( {n} );");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].name, "out");
  EXPECT_EQ(got[0].allocator, "at::empty"); // the allocator as written, without the blank before `(`
  EXPECT_EQ(got[0].line, 0u);
}

TEST(SemanticCxxBody, NotAnUninitialisedAllocation) {
  for (const char *body : {"auto out = at::zeros({n});",            // initialised
                           "auto out = at::empty_like_custom(x);",   // longer name
                           "auto out = at::emptyx(x);",              //
                           "auto out = x.new_empty_strided(s, t);",  // only new_empty itself
                           "auto out = self.x.new_empty(s);",        // receiver is not one word
                           "auto out == at::empty(s);",              // not a declaration
                           "autoout = at::empty(s);",                // no blank after the type
                           "int out = at::empty(s);",                // not a tensor type
                           "auto out = at::empty;",                  // not called
                           "auto = at::empty(s);",                   // no name
                           "", "auto", "auto out = at::"})
    EXPECT_TRUE(cxxbody::emptyAllocations(body).empty()) << body;
}

TEST(SemanticCxxBody, ConstAndPrefixedTypesStillMatchTheirTypeWord) {
  // The type keyword needs no word boundary before it, as in the original pattern.
  const std::vector<TensorAllocation> got = cxxbody::emptyAllocations("const at::Tensor out = at::empty(s);");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].offset, 6u);
}

TEST(SemanticCxxBody, UsesSplitReturnLinesFromOtherMentions) {
  const std::string body = "{\n  auto out = at::empty({n});\n  return out;\n}";
  const std::vector<TensorAllocation> a = cxxbody::emptyAllocations(body);
  ASSERT_EQ(a.size(), 1u);
  const auto uses = cxxbody::usesAfterDeclaration(body, a[0]);
  ASSERT_TRUE(uses.has_value());
  EXPECT_EQ(uses->returnLines, 1u);
  EXPECT_EQ(uses->otherMentions, 0u);
}

TEST(SemanticCxxBody, WritesAndNearMissesOfReturn) {
  const std::string body = "{\n"
                           "  auto out = at::empty({n});\n"
                           "  kernel<<<g, b>>>(out.data_ptr<float>());\n" // a write
                           "  outs.push_back(x);\n"                       // another name
                           "  returned(out2);\n"                          // `returned` is not `return`
                           "  return_value = out;\n"                      // neither is `return_value`
                           "  return out;\n"
                           "}";
  const auto uses = cxxbody::usesAfterDeclaration(body, cxxbody::emptyAllocations(body).at(0));
  ASSERT_TRUE(uses.has_value());
  EXPECT_EQ(uses->returnLines, 1u);
  EXPECT_EQ(uses->otherMentions, 2u); // the launch and `return_value = out`
}

TEST(SemanticCxxBody, CommentsCountAsMentions) {
  const std::string body = "auto out = at::empty(s);\n// fill out later\nreturn out;";
  const auto uses = cxxbody::usesAfterDeclaration(body, cxxbody::emptyAllocations(body).at(0));
  ASSERT_TRUE(uses.has_value());
  EXPECT_EQ(uses->otherMentions, 1u);
  EXPECT_EQ(uses->returnLines, 1u);
}

TEST(SemanticCxxBody, ReturnLineMayBeIndentedAndCarryMore) {
  const std::string body = "auto out = at::empty(s);\n\t  return {out, out};";
  const auto uses = cxxbody::usesAfterDeclaration(body, cxxbody::emptyAllocations(body).at(0));
  ASSERT_TRUE(uses.has_value());
  EXPECT_EQ(uses->returnLines, 2u);
  EXPECT_EQ(uses->otherMentions, 0u);
}

TEST(SemanticCxxBody, NotASimpleLocal) {
  const std::string unterminated = "auto out = at::empty(s)";
  ASSERT_EQ(cxxbody::emptyAllocations(unterminated).size(), 1u);
  EXPECT_FALSE(cxxbody::usesAfterDeclaration(unterminated, cxxbody::emptyAllocations(unterminated)[0]));

  const std::string redeclared = "Tensor out; if (c) { auto out = at::empty(s); return out; }";
  ASSERT_EQ(cxxbody::emptyAllocations(redeclared).size(), 1u);
  EXPECT_FALSE(cxxbody::usesAfterDeclaration(redeclared, cxxbody::emptyAllocations(redeclared)[0]));

  // A longer name before the declaration does not count as the same local.
  const std::string prefix = "outs.clear(); auto out = at::empty(s); return out;";
  const auto uses = cxxbody::usesAfterDeclaration(prefix, cxxbody::emptyAllocations(prefix).at(0));
  ASSERT_TRUE(uses.has_value());
  EXPECT_EQ(uses->returnLines, 1u);

  TensorAllocation outside{"out", "at::empty", 999, 0};
  EXPECT_FALSE(cxxbody::usesAfterDeclaration("short", outside));
}

TEST(SemanticCxxBody, NoMentionAfterward) {
  const std::string body = "auto out = at::empty(s);\nreturn x;";
  const auto uses = cxxbody::usesAfterDeclaration(body, cxxbody::emptyAllocations(body).at(0));
  ASSERT_TRUE(uses.has_value());
  EXPECT_EQ(uses->returnLines, 0u);
  EXPECT_EQ(uses->otherMentions, 0u);
}

// ---- macros ----

TEST(SemanticCxxBody, MacroDefinitionsNamingAnIdentifier) {
  EXPECT_TRUE(cxxbody::macroMentions("#define FILL(n) fill(out, n)\n", "out"));
  EXPECT_TRUE(cxxbody::macroMentions("int a;\n#define FILL \\\n  fill(out)\nint b;", "out")); // continuation line
  EXPECT_TRUE(cxxbody::macroMentions("#define OUT out", "out"));                            // no trailing newline
  EXPECT_FALSE(cxxbody::macroMentions("#define FILL fill(outs)\n", "out"));                  // longer word
  EXPECT_FALSE(cxxbody::macroMentions("#define FILL fill(x)\nout = 1;\n", "out"));           // after the define's line
  EXPECT_FALSE(cxxbody::macroMentions("// out\nfill(out);", "out"));                          // no #define at all
  EXPECT_FALSE(cxxbody::macroMentions("", "out"));
  EXPECT_FALSE(cxxbody::macroMentions("#define X out", ""));
}

TEST(SemanticCxxBody, LaterDefinesAreAllRead) {
  EXPECT_TRUE(cxxbody::macroMentions("#define A 1\n#define B 2\n#define C out\n", "out"));
  EXPECT_TRUE(cxxbody::macroMentions("#define A 1\\\n\\\n out\n", "out"));
}

// ---- definitions, parameters, returns ----

TEST(SemanticCxxBody, SplitDefinitionAtFirstBrace) {
  const std::string text = "torch::Tensor f(\n    torch::Tensor x)\n{\n  return x;\n}";
  const auto def = cxxbody::splitDefinition(text);
  ASSERT_TRUE(def.has_value());
  EXPECT_EQ(def->signature, "torch::Tensor f(\n    torch::Tensor x)\n");
  EXPECT_EQ(def->body.substr(0, 1), "{");
  EXPECT_EQ(def->bodyLine, 2u);
  EXPECT_FALSE(cxxbody::splitDefinition("torch::Tensor f(torch::Tensor x);").has_value());
  EXPECT_FALSE(cxxbody::splitDefinition("").has_value());
}

TEST(SemanticCxxBody, ParameterNames) {
  EXPECT_EQ(cxxbody::parameterNames("torch::Tensor f(torch::Tensor x, int64_t n)"), (Names{"x", "n"}));
  EXPECT_EQ(cxxbody::parameterNames("at::Tensor f(const at::Tensor &input, int n = 4, float eps=1e-5)\n"),
            (Names{"input", "n", "eps"}));
  EXPECT_EQ(cxxbody::parameterNames("void f(std::function<void(int, int)> cb, torch::Tensor *out)"),
            (Names{"cb", "out"}));
  EXPECT_EQ(cxxbody::parameterNames("void f(char sep = ',', torch::Tensor y)"), (Names{"sep", "y"}));
}

TEST(SemanticCxxBody, ParameterEdgeCases) {
  EXPECT_TRUE(cxxbody::parameterNames("void f()").empty());
  EXPECT_TRUE(cxxbody::parameterNames("void f(  )").empty());
  EXPECT_TRUE(cxxbody::parameterNames("void f").empty());
  EXPECT_TRUE(cxxbody::parameterNames("").empty());
  EXPECT_TRUE(cxxbody::parameterNames(") f (").empty());
  EXPECT_TRUE(cxxbody::parameterNames("void f(int x").empty()); // unterminated
  // Unnamed parameters keep their position (their type's last word, or "").
  EXPECT_EQ(cxxbody::parameterNames("void f(int *, torch::Tensor x)"), (Names{"int", "x"}));
  EXPECT_EQ(cxxbody::parameterNames("void f(..., torch::Tensor x)"), (Names{"", "x"}));
}

TEST(SemanticCxxBody, ReturnedIdentifiers) {
  const std::string body = "{\n  if (n == 0) return x ;\n  auto y = g(x);\n  return\ty;\n}";
  const std::vector<cxxbody::ReturnedIdentifier> got = cxxbody::returnedIdentifiers(body);
  EXPECT_EQ(names(got), (Names{"x", "y"}));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].offset, body.find("return x"));
  EXPECT_EQ(got[0].line, 1u);
  EXPECT_EQ(got[1].line, 3u);
}

TEST(SemanticCxxBody, ReturnNearMisses) {
  for (const char *body : {"co_return x;", "return_x;", "returnx;", "return x.y;", "return (x);", "return f(x);",
                           "return x", "return;", "return ;", "", "return", "return x + 1;", "return *x;"})
    EXPECT_TRUE(cxxbody::returnedIdentifiers(body).empty()) << body;
}

TEST(SemanticCxxBody, ReturnsInCommentsAreRead) {
  // Comments are not stripped: a commented-out `return x;` counts like code.
  EXPECT_EQ(names(cxxbody::returnedIdentifiers("{ // return x;\n return y; }")), (Names{"x", "y"}));
}

TEST(SemanticCxxBody, ReturnAfterOtherPunctuation) {
  EXPECT_EQ(names(cxxbody::returnedIdentifiers("{return x;}")), (Names{"x"}));
  EXPECT_EQ(names(cxxbody::returnedIdentifiers("if(c)return x;else return y;")), (Names{"x", "y"}));
}

} // namespace

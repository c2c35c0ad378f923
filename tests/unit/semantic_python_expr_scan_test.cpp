// The semantic layer's readings of Python expression text (kbaudit/semantic/python_expr_scan.h):
// a constant-index sample of an input and a whole-tensor reduction (MEM004), and a literal
// result table keyed by shape tuples (RUB007), whether a returned item is a view of a
// parameter (MEM003), and a call's first argument (the timing rules' `partial(fn, ...)`), on
// plain strings.

#include "kbaudit/semantic/python_expr_scan.h"

#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>

namespace {

using namespace kbaudit::semantic;

const std::set<std::string> kInputs = {"x", "y"};

// ---- constant slices ----

TEST(SemanticPyExpr, ConstantSlices) {
  for (const char *index : {"0, :16", "::4096", "..., :8", ":64", "0, 1", "-1:", "0,"})
    EXPECT_TRUE(pyexpr::isConstantSlice(index)) << index;
}

TEST(SemanticPyExpr, NotConstantSlices) {
  for (const char *index : {"3", "", ":", "...", ":n", "0, :n", "i", "0, :16 # c", "::\t4"})
    EXPECT_FALSE(pyexpr::isConstantSlice(index)) << index;
}

// ---- constant-index samples ----

TEST(SemanticPyExpr, SampleOfAnInput) {
  EXPECT_EQ(pyexpr::constantIndexSample("x[0, :16]", kInputs), "x[0, :16]");
  EXPECT_EQ(pyexpr::constantIndexSample("probe = y[::1024].clone()", kInputs), "y[::1024]");
  EXPECT_EQ(pyexpr::constantIndexSample("torch.equal(self._probe, x.flatten()[:64])", kInputs), "x.flatten()[:64]");
  EXPECT_EQ(pyexpr::constantIndexSample("x.view(-1).float()[::4096]", kInputs), "x.view(-1).float()[::4096]");
  EXPECT_EQ(pyexpr::constantIndexSample("x.detach().contiguous().reshape(-1).ravel()[:8]", kInputs),
            "x.detach().contiguous().reshape(-1).ravel()[:8]");
}

TEST(SemanticPyExpr, FirstQualifyingSampleWins) {
  EXPECT_EQ(pyexpr::constantIndexSample("x[i] == y[0, :4] and x[:2]", kInputs), "y[0, :4]");
}

TEST(SemanticPyExpr, SampleNearMisses) {
  for (const char *text : {"xs[0, :16]",            // another name with the input as prefix
                           "self.x[0, :16]",        // an attribute, not the input
                           "a.x[:4]",               //
                           "_x[:4]",                // not an input
                           "x[3]",                  // a lone integer
                           "x[:n]",                 // depends on a variable
                           "x.abs()[:16]",          // not a view-like method
                           "x.view(a(b))[:16]",     // nested parentheses in the call
                           "x.view[:16]",           // not a call
                           "x.viewx()[:16]",        //
                           "x [0, :16]",            // blank before the subscript
                           "x[0, :16",              // unterminated
                           "", "x", "["})
    EXPECT_EQ(pyexpr::constantIndexSample(text, kInputs), "") << text;
}

TEST(SemanticPyExpr, InnerSubscriptIsStillASample) {
  // `x[` cannot hold a bracket, so the scan moves on and finds the inner sample.
  EXPECT_EQ(pyexpr::constantIndexSample("x[x[0, :4]]", kInputs), "x[0, :4]");
}

TEST(SemanticPyExpr, ARejectedCandidateHidesWhatItSpans) {
  // `z.view(x[0,:4])[0]` is one candidate (z is not an input), and the scan resumes after it.
  EXPECT_EQ(pyexpr::constantIndexSample("z.view(x[0,:4])[0]", kInputs), "");
  EXPECT_EQ(pyexpr::constantIndexSample("z.view(x[0,:4])[0] or y[:2]", kInputs), "y[:2]");
}

TEST(SemanticPyExpr, SampleNeedsInputs) {
  EXPECT_EQ(pyexpr::constantIndexSample("x[0, :16]", {}), "");
}

// ---- whole-tensor reductions ----

TEST(SemanticPyExpr, ReductionOfAnInput) {
  EXPECT_EQ(pyexpr::wholeTensorReduction("x.sum()", kInputs), "x.sum(...)");
  EXPECT_EQ(pyexpr::wholeTensorReduction("float(y.norm(2)) == self._key", kInputs), "y.norm(...)");
  EXPECT_EQ(pyexpr::wholeTensorReduction("x.abs().float().amax(dim=0)", kInputs), "x.abs().float().amax(...)");
  for (const char *r : {"mean", "amin", "max", "min"})
    EXPECT_EQ(pyexpr::wholeTensorReduction("x." + std::string(r) + "()", kInputs), "x." + std::string(r) + "(...)") << r;
}

TEST(SemanticPyExpr, LongestChainEndingInAReduction) {
  EXPECT_EQ(pyexpr::wholeTensorReduction("x.sum().max().item()", kInputs), "x.sum().max(...)");
  EXPECT_EQ(pyexpr::wholeTensorReduction("x.abs().sum(dim=0).item()", kInputs), "x.abs().sum(...)");
}

TEST(SemanticPyExpr, ReductionNearMisses) {
  for (const char *text : {"xs.sum()",            // another name
                           "self.x.sum()",        // an attribute
                           "x.maximum(y2)",       // a longer method
                           "x.sum",               // not called
                           "x.cumsum(0)",         //
                           "x.view(f(1)).sum()",  // nested parentheses in the chain
                           "x .sum()",            // blank before the dot
                           "torch.sum(x)",        // a function, not a method of the input
                           "", "x", ".sum("})
    EXPECT_EQ(pyexpr::wholeTensorReduction(text, kInputs), "") << text;
}

TEST(SemanticPyExpr, ReductionArgumentsMayHoldAnInputReduction) {
  // `a.sum(` is a candidate that stops at its `(`, so `x.max(` inside is still read.
  EXPECT_EQ(pyexpr::wholeTensorReduction("a.sum(x.max())", kInputs), "x.max(...)");
}

// ---- shape-keyed literal tables ----

TEST(SemanticPyExpr, ShapeKeyedTable) {
  EXPECT_TRUE(pyexpr::shapeKeyedLiteralTable("{(1024, 4096): torch.tensor([1.0, 2.0])}"));
  EXPECT_TRUE(pyexpr::shapeKeyedLiteralTable("{ ( 8 , 16 , ) : torch.as_tensor(v) }"));
  EXPECT_TRUE(pyexpr::shapeKeyedLiteralTable("{\"k\": 1, (2, 3, 4): torch.tensor(d)}"));
  EXPECT_TRUE(pyexpr::shapeKeyedLiteralTable("{\n  (1, 2):\n    torch.tensor([0.5]),\n}"));
}

TEST(SemanticPyExpr, NotAShapeKeyedTable) {
  for (const char *text : {"{(1024,): torch.tensor([1.0])}",      // a 1-tuple is not a shape
                           "{(n, 4096): torch.tensor([1.0])}",    // not all integers
                           "{(1.5, 2): torch.tensor([1.0])}",     //
                           "{(1, 2): [1.0, 2.0]}",                // no literal tensor
                           "{(1, 2): torch.zeros(3)}",            //
                           "{(1, 2) torch.tensor([1.0])}",        // not a key
                           "f((1, 2), torch.tensor([1.0]))",      // an argument, not a key
                           "{k: torch.tensor([1.0])}",            //
                           "{(1, 2: torch.tensor([1.0])}",        // unterminated tuple
                           "", "{", "torch.tensor("})
    EXPECT_FALSE(pyexpr::shapeKeyedLiteralTable(text)) << text;
}

TEST(SemanticPyExpr, ShapeKeyAfterAnyCommaCounts) {
  // The key test reads text, not structure: a tuple after a comma in a list also matches.
  EXPECT_TRUE(pyexpr::shapeKeyedLiteralTable("[1, (2, 3): torch.tensor(x)]"));
}

// ---- layout trim and a call's first argument ----

TEST(SemanticPyExpr, TrimLayoutStripsSpacesTabsNewlines) {
  EXPECT_EQ(pyexpr::trimLayout(" \t\n fn \n\t"), "fn");
  EXPECT_EQ(pyexpr::trimLayout("a b"), "a b");
  EXPECT_EQ(pyexpr::trimLayout(""), "");
  EXPECT_EQ(pyexpr::trimLayout(" \n"), "");
  // Only layout characters: a form feed or vertical tab stays.
  EXPECT_EQ(pyexpr::trimLayout("\ffn\v"), "\ffn\v");
}

TEST(SemanticPyExpr, FirstCallArgument) {
  EXPECT_EQ(pyexpr::firstCallArgument("functools.partial(fn, 2)"), "fn");
  EXPECT_EQ(pyexpr::firstCallArgument("partial(\n    self._run,\n    x)"), "self._run");
  EXPECT_EQ(pyexpr::firstCallArgument("partial(fn)"), "fn");
  EXPECT_EQ(pyexpr::firstCallArgument("partial()"), "");
  // Nested parentheses are not followed.
  EXPECT_EQ(pyexpr::firstCallArgument("partial(f(x), 1)"), "f(x");
}

TEST(SemanticPyExpr, NoFirstCallArgument) {
  EXPECT_EQ(pyexpr::firstCallArgument("partial"), std::nullopt);
  EXPECT_EQ(pyexpr::firstCallArgument("partial(fn"), std::nullopt);
  EXPECT_EQ(pyexpr::firstCallArgument(""), std::nullopt);
}

} // namespace

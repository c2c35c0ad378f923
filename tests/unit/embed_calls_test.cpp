// Which Python names hold an extension module, and which calls go into it.

#include "embed_facts_builder.h"
#include "kbaudit/embed/embedded_source.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

using namespace embedtest;

const char *kCuda = "__global__ void k() {}\ntorch::Tensor gemm(torch::Tensor a);\n";

py::Call loadInline(LineRange lines, std::string function = "", std::string name = "ext") {
  return call("load_inline", kLoadInline,
              {kw("name", literal(name, lines.begin)), kw("cpp_sources", literal("", lines.begin)),
               kw("cuda_sources", literal(kCuda, 2)),
               kw("functions", list({literal("gemm", lines.end)}, lines.end))},
              lines, std::move(function));
}

py::Expr loadInlineExpr(LineRange lines) {
  return callExpr("load_inline(\n    name=\"ext\", ...)", kLoadInline, lines);
}

/// ModelNew with __init__ (lines 50-59) and forward (60-79).
void addModel(py::PythonFacts &facts) {
  facts.classes.push_back(py::Class{"ModelNew", {"torch.nn.Module"}, {}, {"__init__", "forward"}, at(49, 79)});
  facts.functions.push_back(def("ModelNew.__init__", at(50, 59), "ModelNew"));
  facts.functions.push_back(def("ModelNew.forward", at(60, 79), "ModelNew"));
}

TEST(EmbedCalls, ModuleLevelName) {
  py::PythonFacts facts;
  addModel(facts);
  facts.calls.push_back(loadInline(at(20, 25)));
  facts.assignments.push_back(assign("_ext", loadInlineExpr(at(20, 25)), at(20, 25)));
  facts.calls.push_back(call("_ext.gemm", "_ext.gemm", {pos(name("x", 61))}, at(61), "ModelNew.forward"));
  facts.calls.push_back(call("x.view", "x.view", {}, at(62), "ModelNew.forward"));
  const auto out = embed::extract(facts);
  ASSERT_EQ(out.calls.size(), 1u);
  EXPECT_EQ(out.calls[0].module, 0);
  EXPECT_EQ(out.calls[0].exported, "gemm");
  EXPECT_EQ(out.calls[0].function, "ModelNew.forward");
  EXPECT_EQ(out.calls[0].lines, at(61));
}

TEST(EmbedCalls, SelfAttributeAssignedInInit) {
  py::PythonFacts facts;
  addModel(facts);
  facts.calls.push_back(loadInline(at(51, 54), "ModelNew.__init__"));
  facts.assignments.push_back(assign("self.ext", loadInlineExpr(at(51, 54)), at(51, 54), "ModelNew.__init__"));
  facts.calls.push_back(call("self.ext.gemm", "self.ext.gemm", {}, at(61), "ModelNew.forward"));
  const auto out = embed::extract(facts);
  EXPECT_EQ(out.modules[0].boundTo, "self.ext");
  EXPECT_EQ(out.modules[0].function, "ModelNew.__init__");
  ASSERT_EQ(out.calls.size(), 1u);
  EXPECT_EQ(out.calls[0].exported, "gemm");
}

TEST(EmbedCalls, LazyBuilderReturningTheModule) {
  // def _build(): return load_inline(...)
  py::PythonFacts facts;
  addModel(facts);
  facts.functions.push_back(def("_build", at(10, 20)));
  facts.calls.push_back(loadInline(at(12, 19), "_build"));
  // self.ext = _build() in __init__; forward: self.ext.gemm(), _build().gemm(), ext = _build(); ext.gemm()
  facts.calls.push_back(call("_build", "_build", {}, at(52), "ModelNew.__init__"));
  facts.assignments.push_back(assign("self.ext", callExpr("_build()", "_build", at(52)), at(52), "ModelNew.__init__"));
  facts.calls.push_back(call("self.ext.gemm", "self.ext.gemm", {}, at(61), "ModelNew.forward"));
  facts.calls.push_back(call("_build().gemm", "_build().gemm", {}, at(62), "ModelNew.forward"));
  facts.calls.push_back(call("_build", "_build", {}, at(62), "ModelNew.forward"));
  facts.calls.push_back(call("_build", "_build", {}, at(63), "ModelNew.forward"));
  facts.assignments.push_back(assign("ext", callExpr("_build()", "_build", at(63)), at(63), "ModelNew.forward"));
  facts.calls.push_back(call("ext.relu", "ext.relu", {}, at(64), "ModelNew.forward"));
  // A local `ext` in another def is something else.
  facts.functions.push_back(def("other", at(90, 95)));
  facts.assignments.push_back(assign("ext", name("torch", 91), at(91), "other"));
  facts.calls.push_back(call("ext.relu", "ext.relu", {}, at(92), "other"));

  const auto out = embed::extract(facts);
  ASSERT_EQ(out.modules.size(), 1u);
  EXPECT_EQ(out.modules[0].boundTo, "");
  EXPECT_EQ(out.modules[0].function, "_build");
  ASSERT_EQ(out.calls.size(), 3u);
  EXPECT_EQ(out.calls[0].lines, at(61));
  EXPECT_EQ(out.calls[1].lines, at(62));
  EXPECT_EQ(out.calls[2].lines, at(64));
  EXPECT_EQ(out.calls[2].exported, "relu");
}

TEST(EmbedCalls, GlobalCacheGetter) {
  // _ext = None
  // def _get_ext():
  //     global _ext
  //     if _ext is None: _ext = load_inline(...)
  //     return _ext
  py::PythonFacts facts;
  addModel(facts);
  facts.assignments.push_back(assign("_ext", none(5), at(5)));
  facts.functions.push_back(def("_get_ext", at(6, 12)));
  facts.functions.push_back(def("_get_module", at(13, 14)));
  facts.calls.push_back(loadInline(at(9, 11), "_get_ext"));
  facts.assignments.push_back(assign("_ext", loadInlineExpr(at(9, 11)), at(9, 11), "_get_ext"));
  facts.calls.push_back(call("_ext.gemm", "_ext.gemm", {}, at(61), "ModelNew.forward"));
  facts.calls.push_back(call("_get_ext", "_get_ext", {}, at(62), "ModelNew.forward"));
  facts.calls.push_back(call("_get_ext().gemm", "_get_ext().gemm", {}, at(62), "ModelNew.forward"));
  const auto out = embed::extract(facts);
  EXPECT_EQ(out.modules[0].boundTo, "_ext");
  ASSERT_EQ(out.calls.size(), 2u);
  EXPECT_EQ(out.calls[0].lines, at(61));
  EXPECT_EQ(out.calls[1].lines, at(62));
}

TEST(EmbedCalls, NestedBuilderAndMethodBuilder) {
  py::PythonFacts facts;
  addModel(facts);
  facts.functions.push_back(def("_build", at(10, 30)));
  facts.functions.push_back(def("_build._try", at(12, 20)));
  facts.calls.push_back(call("load", kLoad, {pos(literal("e", 13)), pos(literal("k.cu", 14))}, at(13, 15), "_build._try"));
  facts.calls.push_back(call("_try", "_try", {pos(literal("a", 22))}, at(22), "_build"));
  facts.functions.push_back(def("ModelNew._ext", at(40, 45), "ModelNew"));
  facts.calls.push_back(call("_build", "_build", {}, at(41), "ModelNew._ext"));
  facts.assignments.push_back(assign("self._m", callExpr("_build()", "_build", at(41)), at(41), "ModelNew._ext"));
  facts.calls.push_back(call("self._ext", "self._ext", {}, at(61), "ModelNew.forward"));
  facts.calls.push_back(call("self._ext().run", "self._ext().run", {}, at(61), "ModelNew.forward"));
  const auto out = embed::extract(facts);
  ASSERT_EQ(out.calls.size(), 1u);
  EXPECT_EQ(out.calls[0].exported, "run");
}

TEST(EmbedCalls, FunctionAliasAndTorchOps) {
  py::PythonFacts facts;
  addModel(facts);
  facts.calls.push_back(loadInline(at(20, 25), "", "myops"));
  facts.assignments.push_back(assign("_ext", loadInlineExpr(at(20, 25)), at(20, 25)));
  py::Expr attr;
  attr.kind = py::ExprKind::Attribute;
  attr.text = "_ext.gemm";
  attr.lines = at(53);
  facts.assignments.push_back(assign("self.fn", attr, at(53), "ModelNew.__init__"));
  facts.calls.push_back(call("self.fn", "self.fn", {}, at(61), "ModelNew.forward"));
  py::Expr selfFn;
  selfFn.kind = py::ExprKind::Attribute;
  selfFn.text = "self.fn";
  selfFn.lines = at(64);
  facts.assignments.push_back(assign("fn", selfFn, at(64), "ModelNew.forward"));
  facts.calls.push_back(call("fn", "fn", {}, at(65), "ModelNew.forward"));
  facts.calls.push_back(call("torch.ops.myops.gemm", "torch.ops.myops.gemm", {}, at(62), "ModelNew.forward"));
  facts.calls.push_back(call("torch.ops.aten.mm", "torch.ops.aten.mm", {}, at(63), "ModelNew.forward"));
  const auto out = embed::extract(facts);
  ASSERT_EQ(out.calls.size(), 3u);
  EXPECT_EQ(out.calls[0].exported, "gemm");
  EXPECT_EQ(out.calls[0].lines, at(61));
  EXPECT_EQ(out.calls[1].exported, "gemm");
  EXPECT_EQ(out.calls[1].lines, at(65));
  EXPECT_EQ(out.calls[2].exported, "gemm");
  EXPECT_EQ(out.calls[2].lines, at(62));
}

TEST(EmbedCalls, TwoModulesKeepTheirCalls) {
  py::PythonFacts facts;
  addModel(facts);
  facts.calls.push_back(loadInline(at(20, 25), "", "a"));
  facts.assignments.push_back(assign("_a", loadInlineExpr(at(20, 25)), at(20, 25)));
  facts.calls.push_back(loadInline(at(30, 35), "", "b"));
  facts.assignments.push_back(assign("_b", loadInlineExpr(at(30, 35)), at(30, 35)));
  facts.calls.push_back(call("_b.gemm", "_b.gemm", {}, at(61), "ModelNew.forward"));
  facts.calls.push_back(call("_a.gemm", "_a.gemm", {}, at(62), "ModelNew.forward"));
  const auto out = embed::extract(facts);
  ASSERT_EQ(out.calls.size(), 2u);
  EXPECT_EQ(out.calls[0].module, 1);
  EXPECT_EQ(out.calls[1].module, 0);
  EXPECT_EQ(out.sources[0].module, 0);
  EXPECT_EQ(out.sources[1].module, 1);
}

} // namespace
} // namespace kbaudit

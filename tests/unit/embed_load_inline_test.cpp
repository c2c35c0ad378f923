// load_inline, cupy and jiterator sources from hand-built Python facts.

#include "embed_facts_builder.h"
#include "kbaudit/embed/embedded_source.h"

#include <gtest/gtest.h>

#include <set>

namespace kbaudit {
namespace {

using namespace embedtest;
using embed::Language;
using embed::Origin;

const char *kCuda = "\n#include <cuda_runtime.h>\n__global__ void k(float *x) { x[0] = 1; }\n";

std::size_t countCode(const embed::EmbedFacts &f, const std::string &code) {
  std::size_t n = 0;
  for (const Diagnostic &d : f.diagnostics)
    n += d.code == code;
  return n;
}

TEST(EmbedLoadInline, KeywordArgumentsWithNameBoundToString) {
  py::PythonFacts facts;
  const py::Expr src = literal(kCuda, 5);
  facts.calls.push_back(call("load_inline", kLoadInline,
                             {kw("name", literal("gemm_ext", 20)), kw("cpp_sources", literal("", 21)),
                              kw("cuda_sources", name("_SRC", 22, src)),
                              kw("functions", list({literal("gemm", 23)}, 23))},
                             at(19, 24)));
  facts.assignments.push_back(
      assign("_ext", callExpr("load_inline(\n    name=...)", kLoadInline, at(19, 24)), at(19, 24)));

  const auto out = embed::extract(facts);
  ASSERT_EQ(out.sources.size(), 1u);
  const auto &s = out.sources[0];
  EXPECT_EQ(s.origin, Origin::LoadInlineCuda);
  EXPECT_EQ(s.language, Language::Cuda);
  EXPECT_EQ(s.text, kCuda);
  EXPECT_EQ(s.lineMap, (std::vector<unsigned>{5, 6, 7}));
  EXPECT_EQ(s.mapLine(2), 6u);
  EXPECT_EQ(s.mapLine(4), 0u);
  EXPECT_TRUE(s.complete);
  EXPECT_EQ(s.file, "solution.py");
  EXPECT_EQ(s.origin_lines, at(19, 24));
  ASSERT_EQ(out.modules.size(), 1u);
  EXPECT_EQ(s.module, 0);
  EXPECT_EQ(out.modules[0].name, "gemm_ext");
  EXPECT_EQ(out.modules[0].functions, std::vector<std::string>{"gemm"});
  EXPECT_EQ(out.modules[0].boundTo, "_ext");
  EXPECT_EQ(out.modules[0].function, "");
  EXPECT_EQ(out.modules[0].lines, at(19, 24));
  EXPECT_TRUE(out.diagnostics.empty());
}

TEST(EmbedLoadInline, PositionalArgumentsAndFunctionsString) {
  py::PythonFacts facts;
  facts.calls.push_back(call("load_inline", kLoadInline,
                             {pos(literal("m", 3)), pos(literal("int f();\n", 4)),
                              pos(literal(kCuda, 10)), kw("functions", literal("f", 9))},
                             at(3, 9)));
  const auto out = embed::extract(facts);
  ASSERT_EQ(out.sources.size(), 2u);
  EXPECT_EQ(out.sources[0].origin, Origin::LoadInlineCpp);
  EXPECT_EQ(out.sources[0].language, Language::Cpp);
  EXPECT_EQ(out.sources[0].lineMap, std::vector<unsigned>{4});
  EXPECT_EQ(out.sources[1].origin, Origin::LoadInlineCuda);
  EXPECT_EQ(out.modules[0].name, "m");
  EXPECT_EQ(out.modules[0].functions, std::vector<std::string>{"f"});
  EXPECT_EQ(out.modules[0].boundTo, "");
}

TEST(EmbedLoadInline, PositionalFunctionsListOnlyWhenItNamesFunctions) {
  py::PythonFacts facts;
  facts.calls.push_back(call("load_inline", kLoadInline,
                             {pos(literal("m", 3)), pos(literal("int f();", 4)),
                              pos(literal(kCuda, 5)), pos(list({literal("f", 8), literal("g", 8)}, 8))},
                             at(3, 8)));
  EXPECT_EQ(embed::extract(facts).modules[0].functions, (std::vector<std::string>{"f", "g"}));
}

TEST(EmbedLoadInline, ListOfTwoNamesGivesTwoSourcesInOrder) {
  py::PythonFacts facts;
  const py::Expr hdr = literal("#include <cuda_fp16.h>\n", 2);
  const py::Expr body = literal("__global__ void k() {}\n", 4);
  facts.calls.push_back(call("load_inline", kLoadInline,
                             {pos(literal("m", 9)), kw("cpp_sources", list({}, 10)),
                              kw("cuda_sources", list({name("_H", 11, hdr), name("_B", 11, body)}, 11))},
                             at(9, 12)));
  const auto out = embed::extract(facts);
  ASSERT_EQ(out.sources.size(), 2u);
  EXPECT_EQ(out.sources[0].lineMap, std::vector<unsigned>{2});
  EXPECT_EQ(out.sources[1].lineMap, std::vector<unsigned>{4});
  EXPECT_EQ(out.sources[0].module, out.sources[1].module);
  EXPECT_TRUE(out.diagnostics.empty());
}

TEST(EmbedLoadInline, NameBoundToListIsExpanded) {
  py::PythonFacts facts;
  facts.calls.push_back(call("load_inline", kLoadInline,
                             {pos(literal("m", 9)), kw("cpp_sources", none(10)),
                              kw("cuda_sources", name("_SRCS", 11, list({literal(kCuda, 2)}, 1)))},
                             at(9, 12)));
  const auto out = embed::extract(facts);
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_EQ(out.sources[0].lineMap.front(), 2u);
  EXPECT_TRUE(out.diagnostics.empty());
}

TEST(EmbedLoadInline, EmptyAndNoneSourcesYieldNothingAndNoDiagnostics) {
  py::PythonFacts facts;
  facts.assignments.push_back(assign("_CPP", list({}, 2), at(2)));
  facts.calls.push_back(call("load_inline", kLoadInline,
                             {pos(literal("m", 9)), kw("cpp_sources", name("_CPP", 10)),
                              kw("cuda_sources", literal("  \n", 11))},
                             at(9, 12)));
  const auto out = embed::extract(facts);
  EXPECT_TRUE(out.sources.empty());
  EXPECT_TRUE(out.diagnostics.empty());
  EXPECT_EQ(out.modules.size(), 1u);
}

TEST(EmbedLoadInline, ShortLineOriginsArePaddedToTheLineCount) {
  py::PythonFacts facts;
  py::Expr e = literal("a\nb\nc", 3);
  e.string->lineOrigins = {3};
  facts.calls.push_back(call("load_inline", kLoadInline, {pos(literal("m", 1)), pos(e)}, at(1)));
  const auto out = embed::extract(facts);
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_EQ(out.sources[0].lineMap, (std::vector<unsigned>{3, 0, 0}));
}

TEST(EmbedLoadInline, PartialStringIsKeptWithANote) {
  py::PythonFacts facts;
  facts.calls.push_back(call("load_inline", kLoadInline,
                             {pos(literal("m", 30)), kw("cuda_sources", literal(kCuda, 5, false))},
                             at(30, 33)));
  const auto out = embed::extract(facts);
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_FALSE(out.sources[0].complete);
  ASSERT_EQ(countCode(out, "embed-partial"), 1u);
  EXPECT_EQ(out.diagnostics[0].severity, Diagnostic::Severity::Note);
  EXPECT_EQ(out.diagnostics[0].lines.begin, 30u);
}

TEST(EmbedLoadInline, UnfoldableSourceIsDiagnosedNotRecovered) {
  py::PythonFacts facts;
  facts.calls.push_back(call(
      "load_inline", kLoadInline,
      {pos(literal("m", 30)), kw("cpp_sources", literal("", 31)),
       kw("cuda_sources", list({callExpr("_make_src()", "_make_src", at(32))}, 32))},
      at(30, 33)));
  facts.calls.push_back(call("_make_src", "_make_src", {}, at(32)));
  const auto out = embed::extract(facts);
  EXPECT_TRUE(out.sources.empty());
  ASSERT_EQ(countCode(out, "embed-unresolved"), 1u);
  EXPECT_EQ(out.diagnostics[0].lines.begin, 30u);
  EXPECT_NE(out.diagnostics[0].message.find("_make_src()"), std::string::npos);
}

TEST(EmbedLoadInline, KwargsUnpackingIsUnresolved) {
  py::PythonFacts facts;
  py::Expr kwargs = name("cfg", 4);
  facts.calls.push_back(call("load_inline", kLoadInline, {kw("**", kwargs)}, at(4)));
  EXPECT_EQ(countCode(embed::extract(facts), "embed-unresolved"), 1u);
}

TEST(EmbedLoadInline, KwargsBoundToDictCallAreExpanded) {
  // kwargs = dict(name="k", cpp_sources="", cuda_sources=SRC, functions=["f"])
  // _EXT = load_inline(**kwargs)
  py::PythonFacts facts;
  facts.functions.push_back(def("_get", at(2, 6)));
  facts.calls.push_back(call("dict", "dict",
                             {kw("name", literal("k", 3)), kw("cpp_sources", literal("", 3)),
                              kw("cuda_sources", name("SRC", 3, literal(kCuda, 20))),
                              kw("functions", list({literal("f", 3)}, 3))},
                             at(3), "_get"));
  facts.assignments.push_back(
      assign("kwargs", callExpr("dict(name=\"k\", ...)", "dict", at(3)), at(3), "_get"));
  facts.calls.push_back(call("load_inline", kLoadInline, {kw("**", name("kwargs", 5))}, at(5), "_get"));
  const auto out = embed::extract(facts);
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_EQ(out.sources[0].lineMap.front(), 20u);
  EXPECT_EQ(out.sources[0].origin_lines, at(5));
  EXPECT_EQ(out.modules[0].name, "k");
  EXPECT_EQ(out.modules[0].functions, std::vector<std::string>{"f"});
  EXPECT_TRUE(out.diagnostics.empty());
}

TEST(EmbedLoadInline, MatchedThroughImportsWhenNotResolvedByTheFrontEnd) {
  py::PythonFacts facts;
  facts.imports.push_back(import("cpp_extension", "torch.utils.cpp_extension"));
  facts.imports.push_back(import("li", kLoadInline, "_build"));
  facts.calls.push_back(call("cpp_extension.load_inline", "cpp_extension.load_inline",
                             {pos(literal("a", 3)), pos(literal("", 3)), pos(literal(kCuda, 1))},
                             at(3)));
  // A function-local import used in another def.
  facts.calls.push_back(call("li", "li",
                             {pos(literal("b", 8)), pos(literal("", 8)), pos(literal(kCuda, 1))},
                             at(8), "_other"));
  const auto out = embed::extract(facts);
  EXPECT_EQ(out.modules.size(), 2u);
  EXPECT_EQ(out.sources.size(), 2u);
}

TEST(EmbedLoadInline, UnrelatedLoadCallsAreIgnored) {
  py::PythonFacts facts;
  facts.calls.push_back(call("tl.load", "triton.language.load", {pos(name("p", 3))}, at(3)));
  facts.calls.push_back(call("json.load", "json.load", {pos(name("f", 4))}, at(4)));
  facts.calls.push_back(call("load_inline", "mylib.load_inline", {pos(literal(kCuda, 1))}, at(5)));
  // A def named `load` shadows the cpp_extension.load another def imports for itself.
  facts.imports.push_back(import("load", kLoad, "_build"));
  facts.functions.push_back(def("load", at(6, 7)));
  facts.calls.push_back(call("load", "load", {pos(literal("x.cu", 8))}, at(8)));
  const auto out = embed::extract(facts);
  EXPECT_TRUE(out.sources.empty());
  EXPECT_TRUE(out.modules.empty());
  EXPECT_TRUE(out.diagnostics.empty());
}

TEST(EmbedLoadInline, SameStringInTwoModulesIsTwoSourcesButOneUseIsOne) {
  py::PythonFacts facts;
  const py::Expr src = literal(kCuda, 2);
  for (unsigned line : {10u, 20u})
    facts.calls.push_back(call("load_inline", kLoadInline,
                               {pos(literal("m" + std::to_string(line), line)), pos(literal("", line)),
                                pos(name("_SRC", line, src))},
                               at(line)));
  auto out = embed::extract(facts);
  ASSERT_EQ(out.sources.size(), 2u);
  EXPECT_NE(out.sources[0].module, out.sources[1].module);

  facts.calls.pop_back();
  facts.calls.push_back(facts.calls.back()); // the same call reported twice
  out = embed::extract(facts);
  EXPECT_EQ(out.sources.size(), 1u);
  EXPECT_EQ(out.modules.size(), 1u);
}

TEST(EmbedRuntimeCompiled, CupyRawKernelAndRawModule) {
  py::PythonFacts facts;
  facts.calls.push_back(call("cp.RawKernel", "cupy.RawKernel",
                             {pos(name("_SRC", 10, literal(kCuda, 2))), pos(literal("k", 10))},
                             at(10)));
  facts.assignments.push_back(
      assign("_kern", callExpr("cp.RawKernel(_SRC, \"k\")", "cupy.RawKernel", at(10)), at(10)));
  facts.calls.push_back(call("cp.RawModule", "cupy.RawModule",
                             {kw("code", literal(kCuda, 12)),
                              kw("name_expressions", list({literal("a", 15)}, 15))},
                             at(12, 15)));
  facts.functions.push_back(def("ModelNew.forward", at(20, 30), "ModelNew"));
  facts.calls.push_back(call("_kern", "_kern", {pos(name("grid", 21))}, at(21), "ModelNew.forward"));
  const auto out = embed::extract(facts);
  ASSERT_EQ(out.sources.size(), 2u);
  for (const auto &s : out.sources) {
    EXPECT_EQ(s.origin, Origin::CupyRawKernel);
    EXPECT_EQ(s.language, Language::Cuda);
  }
  ASSERT_EQ(out.modules.size(), 2u);
  EXPECT_EQ(out.modules[0].functions, std::vector<std::string>{"k"});
  EXPECT_EQ(out.modules[0].boundTo, "_kern");
  EXPECT_EQ(out.modules[1].functions, std::vector<std::string>{"a"});
  ASSERT_EQ(out.calls.size(), 1u);
  EXPECT_EQ(out.calls[0].module, 0);
  EXPECT_EQ(out.calls[0].exported, "k");
  EXPECT_EQ(out.calls[0].function, "ModelNew.forward");
}

TEST(EmbedRuntimeCompiled, Jiterator) {
  py::PythonFacts facts;
  facts.calls.push_back(call("jiterator._create_jit_fn", "torch.cuda.jiterator._create_jit_fn",
                             {pos(literal("template <typename T> T f(T x) { return x; }", 4))},
                             at(4)));
  const auto out = embed::extract(facts);
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_EQ(out.sources[0].origin, Origin::Jiterator);
  EXPECT_EQ(out.sources[0].module, -1);
  EXPECT_TRUE(out.modules.empty());
}

TEST(EmbedOriginName, NamesAreDistinct) {
  std::set<std::string> names;
  for (Origin o : {Origin::LoadInlineCpp, Origin::LoadInlineCuda, Origin::LoadSidecar,
                   Origin::WrittenFile, Origin::CupyRawKernel, Origin::Jiterator})
    names.insert(embed::originName(o));
  EXPECT_EQ(names.size(), 6u);
  EXPECT_STREQ(embed::originName(Origin::LoadInlineCuda), "load_inline cuda_sources");
}

} // namespace
} // namespace kbaudit

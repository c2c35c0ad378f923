// Sources read from sidecar files (load(sources=...)) and written to files at run time.

#include "embed_facts_builder.h"
#include "kbaudit/embed/embedded_source.h"
#include "test_files.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

using namespace embedtest;
using embed::Language;
using embed::Origin;

const char *kCuda = "#include <cuda_runtime.h>\n__global__ void k(float *x) { x[0] = 1; }\n";

std::vector<std::string> codes(const embed::EmbedFacts &f) {
  std::vector<std::string> out;
  for (const Diagnostic &d : f.diagnostics)
    out.push_back(d.code);
  return out;
}

TEST(EmbedSidecar, ReadsRelativeFilesAndRefusesOthers) {
  test::TempDir dir;
  test::writeFile(dir / "run/k.cu", kCuda);
  test::writeFile(dir / "run/sub/b.cpp", "int b();");
  test::writeFile(dir / "secret.cu", "__global__ void s() {}\n");
  py::PythonFacts facts;
  facts.calls.push_back(call("load", kLoad,
                             {kw("name", literal("ext", 5)),
                              kw("sources", list({literal("k.cu", 6), literal("./sub/b.cpp", 6),
                                                  literal("../secret.cu", 6),
                                                  literal((dir / "secret.cu").string(), 6),
                                                  literal("missing.cu", 6)},
                                                 6))},
                             at(5, 7)));
  const auto out = embed::extract(facts, dir / "run");
  ASSERT_EQ(out.sources.size(), 2u);
  EXPECT_EQ(out.sources[0].origin, Origin::LoadSidecar);
  EXPECT_EQ(out.sources[0].language, Language::Cuda);
  EXPECT_EQ(out.sources[0].file, "k.cu");
  EXPECT_EQ(out.sources[0].text, kCuda);
  EXPECT_EQ(out.sources[0].lineMap, (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(out.sources[0].module, 0);
  EXPECT_EQ(out.sources[1].file, "sub/b.cpp");
  EXPECT_EQ(out.sources[1].language, Language::Cpp);
  EXPECT_EQ(out.sources[1].lineMap, std::vector<unsigned>{1});
  EXPECT_EQ(out.modules[0].name, "ext");
  EXPECT_EQ(codes(out), (std::vector<std::string>{"sidecar-outside", "sidecar-outside",
                                                  "sidecar-missing"}));
  for (const Diagnostic &d : out.diagnostics)
    EXPECT_NE(d.severity, Diagnostic::Severity::Error);
}

TEST(EmbedSidecar, SymlinkOutOfTheDirectoryIsRefused) {
  test::TempDir dir;
  test::writeFile(dir / "secret.cu", "__global__ void s() {}\n");
  std::filesystem::create_directories(dir / "run");
  std::filesystem::create_symlink(dir / "secret.cu", dir / "run/link.cu");
  py::PythonFacts facts;
  facts.calls.push_back(call("load", kLoad, {pos(literal("e", 2)), pos(literal("link.cu", 2))}, at(2)));
  const auto out = embed::extract(facts, dir / "run");
  EXPECT_TRUE(out.sources.empty());
  EXPECT_EQ(codes(out), std::vector<std::string>{"sidecar-outside"});
}

TEST(EmbedSidecar, OsPathJoinUnderTheSolutionDirectory) {
  test::TempDir dir;
  test::writeFile(dir / "kernels.cu", kCuda);
  py::PythonFacts facts;
  facts.assignments.push_back(
      assign("_DIR", callExpr("os.path.dirname(os.path.abspath(__file__))", "os.path.dirname", at(3)), at(3)));
  facts.calls.push_back(call("os.path.join", "os.path.join",
                             {pos(name("_DIR", 6)), pos(literal("kernels.cu", 6))}, at(6)));
  facts.calls.push_back(call(
      "load", kLoad,
      {kw("name", literal("e", 5)),
       kw("sources", list({callExpr("os.path.join(_DIR, \"kernels.cu\")", "os.path.join", at(6))}, 6))},
      at(5, 7)));
  const auto out = embed::extract(facts, dir.path());
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_EQ(out.sources[0].file, "kernels.cu");
  EXPECT_TRUE(out.diagnostics.empty());
}

TEST(EmbedSidecar, NoDirectoryMeansNotRead) {
  py::PythonFacts facts;
  facts.calls.push_back(call("load", kLoad, {pos(literal("e", 2)), pos(literal("k.cu", 2))}, at(2)));
  const auto out = embed::extract(facts);
  EXPECT_TRUE(out.sources.empty());
  EXPECT_EQ(codes(out), std::vector<std::string>{"sidecar-not-read"});
}

TEST(EmbedSidecar, UnfoldablePathIsUnresolved) {
  py::PythonFacts facts;
  facts.calls.push_back(call("glob.glob", "glob.glob", {pos(literal("*.cu", 2))}, at(2)));
  facts.calls.push_back(call("load", kLoad,
                             {pos(literal("e", 2)), pos(callExpr("glob.glob(\"*.cu\")", "glob.glob", at(2)))},
                             at(2)));
  EXPECT_EQ(codes(embed::extract(facts)), std::vector<std::string>{"embed-unresolved"});
}

TEST(EmbedSidecar, LoadInlineTextReadFromAFile) {
  // cuda_src = open("k.cu").read(); load_inline("m", "", cuda_src)
  test::TempDir dir;
  test::writeFile(dir / "k.cu", kCuda);
  py::PythonFacts facts;
  facts.calls.push_back(call("open", "open", {pos(literal("k.cu", 3))}, at(3)));
  facts.calls.push_back(call("open(\"k.cu\").read", "open(\"k.cu\").read", {}, at(3)));
  facts.assignments.push_back(assign("cuda_src", callExpr("open(\"k.cu\").read()", "open(\"k.cu\").read", at(3)), at(3)));
  facts.calls.push_back(call("load_inline", kLoadInline,
                             {pos(literal("m", 4)), pos(literal("", 4)), pos(name("cuda_src", 4))}, at(4)));
  auto out = embed::extract(facts, dir.path());
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_EQ(out.sources[0].origin, Origin::LoadInlineCuda);
  EXPECT_EQ(out.sources[0].file, "k.cu");
  EXPECT_EQ(out.sources[0].lineMap, (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(out.sources[0].module, 0);
  EXPECT_TRUE(out.diagnostics.empty());

  out = embed::extract(facts, dir / "elsewhere");
  EXPECT_TRUE(out.sources.empty());
  EXPECT_EQ(codes(out), std::vector<std::string>{"embed-unresolved"});
}

TEST(EmbedSidecar, NamedFilesCompiledOutsideTorchAreRead) {
  // _CU = os.path.join(_HERE, "kernels.cu"); subprocess.run([nvcc, _CU, ...])
  test::TempDir dir;
  test::writeFile(dir / "kernels.cu", kCuda);
  py::PythonFacts facts;
  facts.strings.push_back(constant("kernels.cu", 7));
  facts.strings.push_back(constant("missing.cu", 8));
  facts.strings.push_back(constant("see kernels.cu", 9));
  py::StringConstant doc = constant("kernels.cu", 1);
  doc.docstring = true;
  facts.strings.push_back(doc);
  const auto out = embed::extract(facts, dir.path());
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_EQ(out.sources[0].origin, Origin::LoadSidecar);
  EXPECT_EQ(out.sources[0].file, "kernels.cu");
  EXPECT_EQ(out.sources[0].module, -1);
  EXPECT_EQ(out.sources[0].origin_lines, at(7));
  EXPECT_TRUE(out.diagnostics.empty());
}

TEST(EmbedWrittenFile, WithOpenThenWrite) {
  py::PythonFacts facts;
  // with open("gen.cu", "w") as f:   (line 10; no binding recorded for f)
  //     f.write(_SRC)                 (line 11)
  facts.calls.push_back(call("open", "open", {pos(literal("gen.cu", 10)), pos(literal("w", 10))}, at(10), "_build"));
  facts.calls.push_back(call("f.write", "f.write", {pos(name("_SRC", 11, literal(kCuda, 2)))}, at(11), "_build"));
  const auto out = embed::extract(facts);
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_EQ(out.sources[0].origin, Origin::WrittenFile);
  EXPECT_EQ(out.sources[0].language, Language::Cuda);
  EXPECT_EQ(out.sources[0].path, "gen.cu");
  EXPECT_EQ(out.sources[0].file, "solution.py");
  EXPECT_EQ(out.sources[0].lineMap, (std::vector<unsigned>{2, 3}));
  EXPECT_EQ(out.sources[0].origin_lines, at(11));
}

TEST(EmbedWrittenFile, ReadModeOpenIsNotTheDestination) {
  py::PythonFacts facts;
  facts.calls.push_back(call("open", "open", {pos(literal("a.cpp", 9)), pos(literal("w", 9))}, at(9)));
  facts.calls.push_back(call("open", "open", {pos(literal("notes.txt", 10))}, at(10)));
  facts.calls.push_back(call("f.write", "f.write", {pos(literal("int main();", 11))}, at(11)));
  const auto out = embed::extract(facts);
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_EQ(out.sources[0].path, "a.cpp");
  EXPECT_EQ(out.sources[0].language, Language::Cpp);
}

TEST(EmbedWrittenFile, OpenAndPathReceivers) {
  py::PythonFacts facts;
  facts.calls.push_back(call("open(p, \"w\").write", "open(p, \"w\").write",
                             {pos(literal(kCuda, 2))}, at(20)));
  facts.calls.push_back(call("open", "open", {pos(name("p", 20)), pos(literal("w", 20))}, at(20)));
  facts.assignments.push_back(assign("p", literal("out/k.cuh", 19), at(19)));
  facts.imports.push_back(import("Path", "pathlib.Path"));
  facts.calls.push_back(call("Path(\"x.cc\").write_text", "Path(\"x.cc\").write_text",
                             {pos(literal("int x();\n", 5))}, at(21)));
  facts.calls.push_back(call("Path", "pathlib.Path", {pos(literal("x.cc", 21))}, at(21)));
  const auto out = embed::extract(facts);
  ASSERT_EQ(out.sources.size(), 2u);
  EXPECT_EQ(out.sources[0].path, "out/k.cuh");
  EXPECT_EQ(out.sources[0].language, Language::Cuda);
  EXPECT_EQ(out.sources[1].path, "x.cc");
  EXPECT_EQ(out.sources[1].language, Language::Cpp);
}

TEST(EmbedWrittenFile, OtherFilesAndNonCodeAreSkipped) {
  py::PythonFacts facts;
  facts.assignments.push_back(assign("p", literal("log.txt", 2), at(2)));
  facts.calls.push_back(call("open", "open", {pos(name("p", 3)), pos(literal("w", 3))}, at(3)));
  facts.calls.push_back(call("f.write", "f.write", {pos(literal("#include <x>\n", 4))}, at(4)));
  // Unknown destination: only C++-looking text is kept.
  facts.calls.push_back(call("g.write", "g.write", {pos(literal("hello\n", 40))}, at(100)));
  facts.calls.push_back(call("g.write", "g.write", {pos(literal("__global__ void k() {}\n", 41))}, at(101)));
  facts.calls.push_back(call("sys.stdout.write", "sys.stdout.write", {pos(literal("#include <x>\n", 42))}, at(102)));
  const auto out = embed::extract(facts);
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_EQ(out.sources[0].origin_lines, at(101));
  EXPECT_EQ(out.sources[0].path, "");
  EXPECT_EQ(out.sources[0].language, Language::Cuda);
}

TEST(EmbedWrittenFile, WrittenThenLoadedIsOneSourceOfThatModule) {
  test::TempDir dir;
  py::PythonFacts facts;
  facts.calls.push_back(call("os.path.join", "os.path.join", {pos(name("_HERE", 3)), pos(literal("g.cu", 3))}, at(3), "_build"));
  facts.assignments.push_back(assign("src_path", callExpr("os.path.join(_HERE, \"g.cu\")", "os.path.join", at(3)), at(3), "_build"));
  facts.calls.push_back(call("open", "open", {pos(name("src_path", 4)), pos(literal("w", 4))}, at(4), "_build"));
  facts.calls.push_back(call("f.write", "f.write", {pos(name("_SRC", 5, literal(kCuda, 40)))}, at(5), "_build"));
  facts.calls.push_back(call("load", kLoad,
                             {kw("name", literal("g", 6)), kw("sources", list({name("src_path", 6)}, 6))},
                             at(6, 8), "_build"));
  const auto out = embed::extract(facts, dir.path());
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_EQ(out.sources[0].origin, Origin::WrittenFile);
  EXPECT_EQ(out.sources[0].module, 0);
  EXPECT_TRUE(out.diagnostics.empty()) << out.diagnostics[0].code;
}

TEST(EmbedWrittenFile, PathObjectBuiltWithSlashThenLoadedThroughStr) {
  // src = build_dir / "kernels.cu"; src.write_text(_SRC); load(name, sources=[str(src)])
  test::TempDir dir;
  py::PythonFacts facts;
  py::Expr slash;
  slash.kind = py::ExprKind::BinaryOp;
  slash.text = "build_dir / \"kernels.cu\"";
  slash.lines = at(10);
  facts.strings.push_back(constant("kernels.cu", 10, "_build"));
  facts.assignments.push_back(assign("src", slash, at(10), "_build"));
  facts.calls.push_back(call("src.write_text", "src.write_text", {pos(name("_SRC", 12, literal(kCuda, 40)))}, at(12), "_build"));
  facts.calls.push_back(call("str", "str", {pos(name("src", 16))}, at(16), "_build._try"));
  facts.calls.push_back(call("load", kLoad,
                             {kw("name", name("name", 15)),
                              kw("sources", list({callExpr("str(src)", "str", at(16))}, 16))},
                             at(15, 17), "_build._try"));
  const auto out = embed::extract(facts, dir.path());
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_EQ(out.sources[0].path, "kernels.cu");
  EXPECT_EQ(out.sources[0].module, 0);
  EXPECT_TRUE(out.diagnostics.empty()) << out.diagnostics[0].code;
}

TEST(EmbedWrittenFile, UnfoldableTextToASourceFileIsUnresolved) {
  py::PythonFacts facts;
  facts.calls.push_back(call("open", "open", {pos(literal("k.cu", 3)), pos(literal("w", 3))}, at(3)));
  facts.calls.push_back(call("f.write", "f.write", {pos(callExpr("gen()", "gen", at(4)))}, at(4)));
  const auto out = embed::extract(facts);
  EXPECT_TRUE(out.sources.empty());
  EXPECT_EQ(codes(out), std::vector<std::string>{"embed-unresolved"});
}

} // namespace
} // namespace kbaudit

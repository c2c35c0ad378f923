// String values: folding and exact line origins (how embedded C++ maps back to solution.py).

#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

/// The folded string of the first argument of the first call to `callee`.
std::optional<StringValue> firstArg(const PythonFacts &f, std::string_view callee, size_t nth = 0) {
  const Call *c = callTo(f, callee, nth);
  if (!c || c->args.empty())
    return std::nullopt;
  return c->args[0].value.string;
}

TEST(PythonStrings, RawTripleQuotedStartsOnTheOpeningLine) {
  auto f = analyze(src(R"PY(
X = 1
SRC = r"""
#include <x>
int f() { return 1; }
"""
use(SRC)
)PY"));
  auto s = firstArg(f, "use");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->value, "\n#include <x>\nint f() { return 1; }\n");
  EXPECT_EQ(s->lineOrigins, lines({2, 3, 4}));
  EXPECT_TRUE(s->complete);
  auto consts = stringsWithValue(f, s->value);
  ASSERT_EQ(consts.size(), 1u);
  EXPECT_EQ(consts[0]->lines, (LineRange{2, 5}));
  EXPECT_FALSE(consts[0]->docstring);
}

TEST(PythonStrings, TripleQuotedWithTextOnTheOpeningLine) {
  auto f = analyze(src(R"PY(
S = """int a;
   int b;
int c;"""
use(S)
)PY"));
  auto s = firstArg(f, "use");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->value, "int a;\n   int b;\nint c;");
  EXPECT_EQ(s->lineOrigins, lines({1, 2, 3}));
}

TEST(PythonStrings, ImplicitConcatenationOverSeveralLines) {
  auto f = analyze(src(R"PY(
SRC = ("#include <a>\n"
       "int x;\n"

       "int y;")
use(SRC)
)PY"));
  auto s = firstArg(f, "use");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->value, "#include <a>\nint x;\nint y;");
  EXPECT_EQ(s->lineOrigins, lines({1, 2, 4}));
  // One constant for the whole concatenation, none for its pieces.
  size_t count = 0;
  for (const auto &c : f.strings)
    if (c.lines.begin <= 4)
      ++count;
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(stringsWithValue(f, s->value).size(), 1u);
}

TEST(PythonStrings, EscapedNewlinesInAOneLineLiteral) {
  auto f = analyze(src(R"PY(

S = "a\nb\nc\n"
use(S)
)PY"));
  auto s = firstArg(f, "use");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->value, "a\nb\nc\n");
  EXPECT_EQ(s->lineOrigins, lines({2, 2, 2}));
}

TEST(PythonStrings, NameBoundFarAboveTheUse) {
  std::string text = "KERNEL = r'''\n__global__ void k(float* x) {\n  x[0] = 1;\n}\n'''\n";
  for (int i = 0; i < 100; ++i)
    text += "pad_" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  text += "from torch.utils.cpp_extension import load_inline\n";
  text += "def build():\n    return load_inline(name='k', cpp_sources='', cuda_sources=KERNEL)\n";
  auto f = analyze(text);
  const Call *c = callTo(f, "torch.utils.cpp_extension.load_inline");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->lines, (LineRange{108, 108}));
  const Expr &v = c->keywordArg("cuda_sources")->value;
  ASSERT_TRUE(v.string.has_value());
  EXPECT_EQ(v.string->value, "\n__global__ void k(float* x) {\n  x[0] = 1;\n}\n");
  EXPECT_EQ(v.string->lineOrigins, lines({1, 2, 3, 4}));
  EXPECT_EQ(v.lines, (LineRange{108, 108}));
}

TEST(PythonStrings, ListOfNamesKeepsEachBindingsOrigins) {
  auto f = analyze(src(R"PY(
A = """
int a;
"""
B = ("int b1;\n"
     "int b2;\n")
use([A, B])
)PY"));
  const Call *c = callTo(f, "use");
  ASSERT_NE(c, nullptr);
  const Expr &list = c->args[0].value;
  ASSERT_EQ(list.kind, ExprKind::List);
  ASSERT_EQ(list.elements.size(), 2u);
  EXPECT_EQ(list.elements[0].string->lineOrigins, lines({1, 2}));
  EXPECT_EQ(list.elements[1].string->value, "int b1;\nint b2;\n");
  EXPECT_EQ(list.elements[1].string->lineOrigins, lines({4, 5}));
}

TEST(PythonStrings, PlusConcatenationOfNamesAndLiterals) {
  auto f = analyze(src(R"PY(
HEADER = """#include <cuda.h>
#define N 4
"""
BODY = """__global__ void k() {}
"""
SRC = HEADER + "// glue\n" + BODY
MID = "int " + "x;"
use(SRC)
use(MID)
)PY"));
  auto s = firstArg(f, "use");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->value, "#include <cuda.h>\n#define N 4\n// glue\n__global__ void k() {}\n");
  EXPECT_EQ(s->lineOrigins, lines({1, 2, 6, 4}));
  auto mid = firstArg(f, "use", 1);
  ASSERT_TRUE(mid.has_value());
  EXPECT_EQ(mid->value, "int x;");
  EXPECT_EQ(mid->lineOrigins, lines({7}));
  // The glue literal is part of the SRC constant, which is emitted once at line 6.
  EXPECT_TRUE(stringsWithValue(f, "// glue\n").empty());
  EXPECT_EQ(stringsWithValue(f, s->value).size(), 1u);
  EXPECT_EQ(stringsWithValue(f, "int x;").size(), 1u);
}

TEST(PythonStrings, LatestBindingBeforeTheUseInTheSameScope) {
  auto f = analyze(src(R"PY(
SRC = "v1"
use(SRC)
SRC = "v2"
use(SRC)
def local_binding():
    SRC = "local"
    use(SRC)
def module_binding():
    use(SRC)
SRC = SRC + "-final"
)PY"));
  EXPECT_EQ(firstArg(f, "use", 0)->value, "v1");
  EXPECT_EQ(firstArg(f, "use", 1)->value, "v2");
  EXPECT_EQ(firstArg(f, "use", 2)->value, "local");
  // A function runs after the module body: it sees the module's last binding.
  EXPECT_EQ(firstArg(f, "use", 3)->value, "v2-final");
}

TEST(PythonStrings, AugmentedConcatenation) {
  auto f = analyze(src(R"PY(
def build():
    src = "int a;\n"
    src += "int b;\n"
    src += f"int c = {N};\n"
    return use(src)
N = 3
)PY"));
  auto s = firstArg(f, "use");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->value, "int a;\nint b;\nint c = 3;\n");
  EXPECT_EQ(s->lineOrigins, lines({2, 3, 4}));
  EXPECT_TRUE(s->complete);
}

TEST(PythonStrings, EscapesPrefixesAndContinuations) {
  auto f = analyze(src(R"PY(
use(r"\n\t")
use("\t|\x41|\u00e9|\101|\d|\\|\'")
use("ab\
cd")
use(b"ab\x00\xff")
use(u"plain")
use("\N{EM DASH}x")
use(Rb'\x00')
)PY"));
  EXPECT_EQ(firstArg(f, "use", 0)->value, "\\n\\t");
  EXPECT_EQ(firstArg(f, "use", 1)->value, "\t|A|\xc3\xa9|A|\\d|\\|'");
  auto cont = firstArg(f, "use", 2);
  EXPECT_EQ(cont->value, "abcd");
  EXPECT_EQ(cont->lineOrigins, lines({3}));
  EXPECT_EQ(firstArg(f, "use", 3)->value, std::string("ab\0\xff", 4));
  EXPECT_EQ(firstArg(f, "use", 4)->value, "plain");
  auto named = firstArg(f, "use", 5);
  EXPECT_EQ(named->value, "x");
  EXPECT_FALSE(named->complete);
  EXPECT_EQ(firstArg(f, "use", 6)->value, "\\x00");
}

TEST(PythonStrings, CrLfSourceNormalisesToNewlines) {
  auto f = analyze("S = \"\"\"a\r\nb\r\n\"\"\"\r\nuse(S)\r\n");
  auto s = firstArg(f, "use");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->value, "a\nb\n");
  EXPECT_EQ(s->lineOrigins, lines({1, 2}));
}

TEST(PythonStrings, FStrings) {
  auto f = analyze(src(R"PY(
N = 128
NAME = "k"
use(f"int {NAME}_{N}() {{ return {N * 2}; }}")
use(f"{unknown}")
use(f"a{unknown}b")
use(f"{N:04d}|{NAME!r}|{N:>5}|{1.5:.2f}|{N:x}")
use(f"""
#define BLOCK {N}
__global__ void {NAME}() {{}}
""")
use(f"{N=}")
use(f"{N:{width}}")
)PY"));
  auto a = firstArg(f, "use", 0);
  EXPECT_EQ(a->value, "int k_128() { return 256; }");
  EXPECT_TRUE(a->complete);
  auto b = firstArg(f, "use", 1);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->value, "");
  EXPECT_TRUE(b->lineOrigins.empty());
  EXPECT_FALSE(b->complete);
  auto c = firstArg(f, "use", 2);
  EXPECT_EQ(c->value, "ab");
  EXPECT_FALSE(c->complete);
  EXPECT_EQ(firstArg(f, "use", 3)->value, "0128|'k'|  128|1.50|80");
  auto multi = firstArg(f, "use", 4);
  EXPECT_EQ(multi->value, "\n#define BLOCK 128\n__global__ void k() {}\n");
  EXPECT_EQ(multi->lineOrigins, lines({7, 8, 9}));
  EXPECT_FALSE(firstArg(f, "use", 5)->complete);
  EXPECT_FALSE(firstArg(f, "use", 6)->complete);
}

TEST(PythonStrings, PercentFormatting) {
  auto f = analyze(src(R"PY(
N = 128
NAME = "k"
use("%s_%d" % (NAME, N))
use("x=%.2f%%" % 1.5)
use("%s|%s" % (NAME, unknown))
use("%(key)s" % mapping)
use("%5d|%-4s|%x" % (42, "ab", 255))
)PY"));
  EXPECT_EQ(firstArg(f, "use", 0)->value, "k_128");
  EXPECT_TRUE(firstArg(f, "use", 0)->complete);
  EXPECT_EQ(firstArg(f, "use", 1)->value, "x=1.50%");
  auto partial = firstArg(f, "use", 2);
  EXPECT_EQ(partial->value, "k|");
  EXPECT_FALSE(partial->complete);
  EXPECT_FALSE(firstArg(f, "use", 3)->complete);
  EXPECT_EQ(firstArg(f, "use", 4)->value, "   42|ab  |ff");
}

TEST(PythonStrings, FormatMethod) {
  auto f = analyze(src(R"PY(
TEMPLATE = """
#define TILE {tile}
#define NAME {0}
"""
use(TEMPLATE.format("gemm", tile=64))
use("{}-{}-{{x}}".format("a", 2))
use("{x.attr}".format(x=1))
use("{}".format(runtime))
)PY"));
  auto t = firstArg(f, "use", 0);
  EXPECT_EQ(t->value, "\n#define TILE 64\n#define NAME gemm\n");
  EXPECT_EQ(t->lineOrigins, lines({1, 2, 3}));
  EXPECT_TRUE(t->complete);
  EXPECT_EQ(firstArg(f, "use", 1)->value, "a-2-{x}");
  EXPECT_FALSE(firstArg(f, "use", 2)->complete);
  EXPECT_FALSE(firstArg(f, "use", 3)->complete);
}

TEST(PythonStrings, JoinReplaceDedentStrip) {
  auto f = analyze(src(R"PY(
import textwrap
HDR = "#include <a>\n"
parts = ["int x;", "int y;"]
use("\n".join([HDR, "int z;"]))
use(", ".join(parts))
use("".join(p for p in parts))
T = """
#define N @N@
int k() { return @N@; }
"""
use(T.replace("@N@", str(128)))
use(T.replace("@N@", runtime_value()))
D = textwrap.dedent("""
    int a;
      int b;
    """).strip()
use(D)
)PY"));
  auto j = firstArg(f, "use", 0);
  EXPECT_EQ(j->value, "#include <a>\n\nint z;");
  EXPECT_EQ(j->lineOrigins, lines({2, 4, 4}));
  EXPECT_EQ(firstArg(f, "use", 1)->value, "int x;, int y;");
  auto gen = firstArg(f, "use", 2);
  EXPECT_EQ(gen->value, "");
  EXPECT_FALSE(gen->complete);
  auto r = firstArg(f, "use", 3);
  EXPECT_EQ(r->value, "\n#define N 128\nint k() { return 128; }\n");
  EXPECT_EQ(r->lineOrigins, lines({7, 8, 9}));
  EXPECT_TRUE(r->complete);
  auto unknown = firstArg(f, "use", 4);
  EXPECT_EQ(unknown->value, "\n#define N \nint k() { return ; }\n");
  EXPECT_FALSE(unknown->complete);
  auto d = firstArg(f, "use", 5);
  EXPECT_EQ(d->value, "int a;\n  int b;");
  EXPECT_EQ(d->lineOrigins, lines({14, 15}));
}

TEST(PythonStrings, StringConstantsAndDocstrings) {
  auto f = analyze(src(R"PY(
"""Module doc."""
import os
X = "a" + "b"
print("hello")
class C:
    """Class doc."""
    def m(self):
        """Method doc."""
        return os.environ.get("KEY", "default")
def g():
    x = 1
    "not a docstring"
)PY"));
  auto doc = stringsWithValue(f, "Module doc.");
  ASSERT_EQ(doc.size(), 1u);
  EXPECT_TRUE(doc[0]->docstring);
  EXPECT_EQ(doc[0]->function, "");
  EXPECT_TRUE(stringsWithValue(f, "Class doc.")[0]->docstring);
  auto mdoc = stringsWithValue(f, "Method doc.");
  ASSERT_EQ(mdoc.size(), 1u);
  EXPECT_TRUE(mdoc[0]->docstring);
  EXPECT_EQ(mdoc[0]->function, "C.m");
  EXPECT_FALSE(stringsWithValue(f, "not a docstring")[0]->docstring);
  EXPECT_EQ(stringsWithValue(f, "ab").size(), 1u);
  EXPECT_TRUE(stringsWithValue(f, "a").empty());
  EXPECT_EQ(stringsWithValue(f, "hello").size(), 1u);
  EXPECT_EQ(stringsWithValue(f, "KEY").size(), 1u);
  EXPECT_EQ(stringsWithValue(f, "KEY")[0]->function, "C.m");
  EXPECT_EQ(stringsWithValue(f, "default").size(), 1u);
  EXPECT_EQ(f.strings.size(), 8u);
}

TEST(PythonStrings, SelfReferentialBindingsTerminate) {
  auto f = analyze(src(R"PY(
A = B
B = A
def f():
    use(A + B)
X = X + "x"
use(X)
)PY"));
  // Nothing to fold, but no hang and no crash.
  EXPECT_EQ(callsTo(f, "use").size(), 2u);
  EXPECT_FALSE(callTo(f, "use", 0)->args[0].value.string.has_value());
}

TEST(PythonStrings, RepetitionIsBounded) {
  auto f = analyze(src(R"PY(
LINE = "=" * 10
HUGE = "x" * 100000000000
use(LINE)
use(HUGE)
)PY"));
  EXPECT_EQ(firstArg(f, "use", 0)->value, "==========");
  auto huge = firstArg(f, "use", 1);
  ASSERT_TRUE(huge.has_value());
  EXPECT_FALSE(huge->complete);
  EXPECT_LE(huge->value.size(), 16u << 20);
}

TEST(PythonStrings, LongPlusChainsFoldCompletely) {
  std::string text = "SRC = (\n";
  for (int i = 0; i < 400; ++i)
    text += std::string(i ? "    + " : "    ") + "\"line" + std::to_string(i) + "\\n\"\n";
  text += ")\nuse(SRC)\n";
  auto f = analyze(text);
  auto s = firstArg(f, "use");
  ASSERT_TRUE(s.has_value());
  EXPECT_TRUE(s->complete);
  ASSERT_EQ(s->lineOrigins.size(), 400u);
  EXPECT_EQ(s->lineOrigins.front(), 2u);
  EXPECT_EQ(s->lineOrigins.back(), 401u);
  EXPECT_EQ(s->value.substr(0, 12), "line0\nline1\n");
  // One constant for the whole chain.
  EXPECT_EQ(f.strings.size(), 1u);
  for (const auto &d : f.diagnostics)
    EXPECT_NE(d.code, "nesting-too-deep");
}

TEST(PythonStrings, InterpolatedLiteralsArePartOfTheFString) {
  auto f = analyze(src(R"PY(
use(f"a{'b'}c")
)PY"));
  EXPECT_EQ(firstArg(f, "use")->value, "abc");
  ASSERT_EQ(f.strings.size(), 1u);
  EXPECT_EQ(f.strings[0].value.value, "abc");
}

} // namespace
} // namespace kbaudit::py::testing

// Real Python text through the tree-sitter front end and then the embed analyzer, with
// exact line maps: what rules will see when they quote solution lines for C++ findings.

#include "kbaudit/embed/embedded_source.h"
#include "kbaudit/python/frontend.h"
#include "test_files.h"

#include <gtest/gtest.h>

#include <sstream>

namespace kbaudit {
namespace {

using embed::Language;
using embed::Origin;

std::vector<std::string> linesOf(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    lines.push_back(l);
  return lines;
}

std::string rtrim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.pop_back();
  return s;
}

/// Every non-blank embedded line is the solution line it maps to (raw literals only).
void expectVerbatim(const embed::EmbeddedSource &s, const std::string &solution) {
  const auto py = linesOf(solution);
  const auto embedded = linesOf(s.text);
  ASSERT_EQ(embedded.size(), s.lineMap.size());
  for (std::size_t i = 0; i < embedded.size(); ++i) {
    if (rtrim(embedded[i]).empty())
      continue;
    ASSERT_GE(s.lineMap[i], 1u) << "embedded line " << i + 1;
    ASSERT_LE(s.lineMap[i], py.size());
    EXPECT_EQ(rtrim(embedded[i]), rtrim(py[s.lineMap[i] - 1])) << "embedded line " << i + 1;
  }
}

std::vector<unsigned> range(unsigned first, unsigned last) {
  std::vector<unsigned> v;
  for (unsigned i = first; i <= last; ++i)
    v.push_back(i);
  return v;
}

embed::EmbedFacts run(const std::string &solution, const std::filesystem::path &dir = {}) {
  return embed::extract(py::analyze(solution), dir);
}

const std::string kBasic = R"PY(import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CUDA_SRC = r"""
#include <cuda_runtime.h>
#include <torch/extension.h>

__global__ void add_one(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}

torch::Tensor add(torch::Tensor x) {
    add_one<<<(x.numel() + 255) / 256, 256>>>(x.data_ptr<float>(), x.numel());
    return x;
}
"""

_CPP_SRC = "torch::Tensor add(torch::Tensor x);"

_ext = load_inline(
    name="add_ext",
    cpp_sources=_CPP_SRC,
    cuda_sources=[_CUDA_SRC],
    functions=["add"],
)


class ModelNew(nn.Module):
    def forward(self, x):
        return _ext.add(x)
)PY";

TEST(EmbedPipeline, RawTripleQuotedSourceMapsLineByLine) {
  const auto out = run(kBasic);
  ASSERT_EQ(out.sources.size(), 2u);
  const auto &cpp = out.sources[0];
  const auto &cuda = out.sources[1];
  EXPECT_EQ(cpp.origin, Origin::LoadInlineCpp);
  EXPECT_EQ(cpp.text, "torch::Tensor add(torch::Tensor x);");
  EXPECT_EQ(cpp.lineMap, std::vector<unsigned>{20});
  EXPECT_EQ(cuda.origin, Origin::LoadInlineCuda);
  EXPECT_EQ(cuda.language, Language::Cuda);
  EXPECT_EQ(cuda.text.substr(0, 26), "\n#include <cuda_runtime.h>");
  // Embedded line 1 is the empty text right after r""" on line 5.
  EXPECT_EQ(cuda.lineMap, range(5, 17));
  EXPECT_EQ(cuda.mapLine(2), 6u);
  EXPECT_EQ(cuda.mapRange(5, 8), (LineRange{9, 12}));
  EXPECT_TRUE(cuda.complete);
  EXPECT_EQ(cuda.origin_lines.begin, 22u);
  expectVerbatim(cuda, kBasic);

  ASSERT_EQ(out.modules.size(), 1u);
  EXPECT_EQ(out.modules[0].name, "add_ext");
  EXPECT_EQ(out.modules[0].boundTo, "_ext");
  EXPECT_EQ(out.modules[0].functions, std::vector<std::string>{"add"});
  EXPECT_EQ(out.modules[0].lines, (LineRange{22, 27}));
  ASSERT_EQ(out.calls.size(), 1u);
  EXPECT_EQ(out.calls[0].exported, "add");
  EXPECT_EQ(out.calls[0].function, "ModelNew.forward");
  EXPECT_EQ(out.calls[0].lines.begin, 32u);
  EXPECT_TRUE(out.diagnostics.empty());
}

TEST(EmbedPipeline, ConcatenationKeepsEachPartsOrigins) {
  const std::string src = R"PY(from torch.utils.cpp_extension import load_inline
_HDR = """
#include <cuda_fp16.h>
"""
_BODY = r'''
__global__ void k(half *x) {}
'''
mod = load_inline("m", "", _HDR + _BODY)
)PY";
  const auto out = run(src);
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_EQ(out.sources[0].text, "\n#include <cuda_fp16.h>\n\n__global__ void k(half *x) {}\n");
  EXPECT_EQ(out.sources[0].lineMap, (std::vector<unsigned>{2, 3, 5, 6}));
  expectVerbatim(out.sources[0], src);
  EXPECT_EQ(out.modules[0].boundTo, "mod");
}

TEST(EmbedPipeline, ListOfTwoNamesAndAliasedModule) {
  const std::string src = R"PY(import torch.utils.cpp_extension as ce
A = r"""
#include <torch/extension.h>
"""
B = r"""
__global__ void k() {}
"""
ext = ce.load_inline(name="two", cpp_sources=[], cuda_sources=[A, B])
)PY";
  const auto out = run(src);
  ASSERT_EQ(out.sources.size(), 2u);
  EXPECT_EQ(out.sources[0].lineMap, (std::vector<unsigned>{2, 3}));
  EXPECT_EQ(out.sources[1].lineMap, (std::vector<unsigned>{5, 6}));
  EXPECT_TRUE(out.diagnostics.empty());
}

TEST(EmbedPipeline, CppAndCudaPositionalAndEscapedNewlines) {
  const std::string src = R"PY(from torch.utils import cpp_extension
CPP = "#include <torch/extension.h>\ntorch::Tensor f(torch::Tensor x);\n"
CUDA = (
    "__global__ void k() {}\n"
    "torch::Tensor f(torch::Tensor x) { return x; }\n"
)
ext = cpp_extension.load_inline("m", CPP, CUDA, functions="f")
)PY";
  const auto out = run(src);
  ASSERT_EQ(out.sources.size(), 2u);
  EXPECT_EQ(out.sources[0].origin, Origin::LoadInlineCpp);
  EXPECT_EQ(out.sources[0].text, "#include <torch/extension.h>\ntorch::Tensor f(torch::Tensor x);\n");
  // "\n" escapes inside a one-line literal map the following line to the same line.
  EXPECT_EQ(out.sources[0].lineMap, (std::vector<unsigned>{2, 2}));
  EXPECT_EQ(out.sources[1].origin, Origin::LoadInlineCuda);
  EXPECT_EQ(out.sources[1].lineMap, (std::vector<unsigned>{4, 5}));
  EXPECT_EQ(out.modules[0].functions, std::vector<std::string>{"f"});
}

TEST(EmbedPipeline, NewlineJoinedList) {
  const std::string src = R"PY(from torch.utils.cpp_extension import load_inline
SRC = "\n".join([
    "#include <torch/extension.h>",
    "__global__ void k() {}",
])
m = load_inline("j", cpp_sources="", cuda_sources=SRC)
)PY";
  const auto out = run(src);
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_EQ(out.sources[0].text, "#include <torch/extension.h>\n__global__ void k() {}");
  EXPECT_EQ(out.sources[0].lineMap, (std::vector<unsigned>{3, 4}));
}

TEST(EmbedPipeline, LazyBuilder) {
  const std::string src = R"PY(import torch
from torch.utils.cpp_extension import load_inline

_SRC = r"""
__global__ void k(float *x) {}
torch::Tensor run(torch::Tensor x) { return x; }
"""

def _build():
    return load_inline(
        name="lazy",
        cpp_sources="torch::Tensor run(torch::Tensor x);",
        cuda_sources=_SRC,
        functions=["run"],
    )

class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = None

    def forward(self, x):
        if self.ext is None:
            self.ext = _build()
        y = self.ext.run(x)
        return _build().run(y)
)PY";
  const auto out = run(src);
  ASSERT_EQ(out.modules.size(), 1u);
  EXPECT_EQ(out.modules[0].boundTo, "");
  EXPECT_EQ(out.modules[0].function, "_build");
  ASSERT_EQ(out.sources.size(), 2u);
  EXPECT_EQ(out.sources[0].lineMap, std::vector<unsigned>{12});
  EXPECT_EQ(out.sources[1].lineMap, (std::vector<unsigned>{4, 5, 6}));
  expectVerbatim(out.sources[1], src);
  ASSERT_EQ(out.calls.size(), 2u);
  EXPECT_EQ(out.calls[0].lines.begin, 25u);
  EXPECT_EQ(out.calls[1].lines.begin, 26u);
  for (const auto &c : out.calls) {
    EXPECT_EQ(c.exported, "run");
    EXPECT_EQ(c.function, "ModelNew.forward");
    EXPECT_EQ(c.module, 0);
  }
}

TEST(EmbedPipeline, GlobalGetterWithEmptyCppSources) {
  const std::string src = R"PY(from torch.utils.cpp_extension import load_inline
_ext = None
_SRC = r"""
__global__ void k() {}
"""
def _get():
    global _ext
    if _ext is None:
        _ext = load_inline(name="g", cpp_sources="", cuda_sources=_SRC, functions=["k"])
    return _ext

def f(x):
    return _get().k(x)

def g(x):
    return _ext.k(x)
)PY";
  const auto out = run(src);
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_EQ(out.sources[0].lineMap, (std::vector<unsigned>{3, 4}));
  EXPECT_TRUE(out.diagnostics.empty());
  EXPECT_EQ(out.modules[0].boundTo, "_ext");
  ASSERT_EQ(out.calls.size(), 2u);
  EXPECT_EQ(out.calls[0].function, "f");
  EXPECT_EQ(out.calls[1].function, "g");
}

TEST(EmbedPipeline, SidecarFiles) {
  test::TempDir dir;
  const std::string src = R"PY(import os
from torch.utils.cpp_extension import load
_DIR = os.path.dirname(os.path.abspath(__file__))
_ext = load(name="side", sources=[os.path.join(_DIR, "kernels.cu"), "host.cpp", "gone.cu"])
)PY";
  test::writeFile(dir / "solution.py", src);
  test::writeFile(dir / "kernels.cu", "#include <cuda.h>\n__global__ void k() {}\n");
  test::writeFile(dir / "host.cpp", "int host();\n");
  const auto out = run(src, dir.path());
  ASSERT_EQ(out.sources.size(), 2u);
  EXPECT_EQ(out.sources[0].file, "kernels.cu");
  EXPECT_EQ(out.sources[0].language, Language::Cuda);
  EXPECT_EQ(out.sources[0].lineMap, (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(out.sources[1].file, "host.cpp");
  EXPECT_EQ(out.sources[1].language, Language::Cpp);
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(out.diagnostics[0].code, "sidecar-missing");
  EXPECT_EQ(out.modules[0].boundTo, "_ext");
}

TEST(EmbedPipeline, WrittenFileThenLoaded) {
  test::TempDir dir;
  const std::string src = R"PY(import os
from torch.utils.cpp_extension import load
_SRC = r"""
#include <torch/extension.h>
__global__ void k() {}
"""
def _build():
    path = os.path.join(os.path.dirname(__file__), "gen.cu")
    with open(path, "w") as f:
        f.write(_SRC)
    return load(name="w", sources=[path])
)PY";
  const auto out = run(src, dir.path());
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_EQ(out.sources[0].origin, Origin::WrittenFile);
  EXPECT_EQ(out.sources[0].path, "gen.cu");
  EXPECT_EQ(out.sources[0].lineMap, (std::vector<unsigned>{3, 4, 5}));
  EXPECT_EQ(out.sources[0].module, 0);
  EXPECT_EQ(out.sources[0].origin_lines.begin, 10u);
  expectVerbatim(out.sources[0], src);
  EXPECT_TRUE(out.diagnostics.empty());
}

TEST(EmbedPipeline, UnresolvedAndPartialSources) {
  const std::string src = R"PY(import torch
from torch.utils.cpp_extension import load_inline
BLOCK = torch.cuda.device_count()
SRC = f"""
#define BLOCK {BLOCK}
__global__ void k() {{}}
"""
def _make_src():
    return SRC
p = load_inline("p", "", SRC)
u = load_inline(
    "u", "",
    cuda_sources=[_make_src()],
)
)PY";
  const auto out = run(src);
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_FALSE(out.sources[0].complete);
  EXPECT_EQ(out.sources[0].lineMap, (std::vector<unsigned>{4, 5, 6}));
  ASSERT_EQ(out.diagnostics.size(), 2u);
  EXPECT_EQ(out.diagnostics[0].code, "embed-partial");
  EXPECT_EQ(out.diagnostics[0].lines.begin, 10u);
  EXPECT_EQ(out.diagnostics[1].code, "embed-unresolved");
  EXPECT_EQ(out.diagnostics[1].lines.begin, 11u);
}

} // namespace
} // namespace kbaudit

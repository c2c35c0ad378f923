// Which extension an embedded source belongs to, where a C++ fact sits in solution.py, and
// whether an authored kernel's extension also runs a compute library
// (kbaudit/semantic/extension_sources.h).

#include "kbaudit/semantic/extension_sources.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

#include <string>

namespace kbaudit {
namespace {

embed::EmbedFacts threeSources() {
  embed::EmbedFacts em;
  em.sources.resize(3);
  em.sources[0].module = 0;
  em.sources[0].origin_lines = {40, 41};
  em.sources[1].module = 0;
  em.sources[2].module = -1;
  em.sources[2].file = "kernels.cu";
  em.sources[2].origin_lines = {50, 50};
  return em;
}

TEST(SemanticExtensionSources, ModulesAndMembership) {
  const embed::EmbedFacts em = threeSources();
  EXPECT_EQ(semantic::extensionModule(em, 1), 0);
  EXPECT_EQ(semantic::extensionModule(em, 2), -1);
  EXPECT_EQ(semantic::extensionModule(em, 7), -1) << "an unknown source is in no module";
  EXPECT_EQ(semantic::extensionModule(em, -1), -1);
  EXPECT_TRUE(semantic::sameExtension(em, 0, 1)) << "two sources of one module";
  EXPECT_TRUE(semantic::sameExtension(em, 2, 2)) << "a source is in its own extension";
  EXPECT_FALSE(semantic::sameExtension(em, 2, 0));
  EXPECT_FALSE(semantic::sameExtension(em, -1, 2)) << "unknown modules are not the same module";
}

TEST(SemanticExtensionSources, ExportServesACallOfTheSameNameAndModule) {
  const embed::EmbedFacts em = threeSources();
  cxx::ExportedFunction e;
  e.name = "gemm";
  e.source = 0;
  embed::ExtensionCall call;
  call.exported = "gemm";
  call.module = 0;
  EXPECT_TRUE(semantic::exportServes(em, e, call));
  call.module = 1;
  EXPECT_FALSE(semantic::exportServes(em, e, call)) << "same name in another extension";
  call.module = -1;
  EXPECT_TRUE(semantic::exportServes(em, e, call)) << "the call's module unknown: the name decides";
  call.module = 1;
  e.source = 2;
  EXPECT_TRUE(semantic::exportServes(em, e, call)) << "the export's module unknown: the name decides";
  call.exported = "other";
  EXPECT_FALSE(semantic::exportServes(em, e, call));
}

TEST(SemanticExtensionSources, SolutionLinesOfCxxFacts) {
  const embed::EmbedFacts em = threeSources();
  EXPECT_EQ(semantic::linesInSolution(em, 0, {12, 14}), (LineRange{12, 14}));
  EXPECT_FALSE(semantic::linesInSolution(em, 0, {}).has_value()) << "unknown lines";
  EXPECT_FALSE(semantic::linesInSolution(em, 2, {3, 4}).has_value()) << "a sidecar numbers another file";
  EXPECT_FALSE(semantic::linesInSolution(em, 9, {3, 4}).has_value());

  EXPECT_EQ(semantic::solutionSite(em, 0, {12, 14}), (LineRange{12, 14}));
  EXPECT_EQ(semantic::solutionSite(em, 0, {}), (LineRange{40, 41})) << "the load call stands in";
  EXPECT_EQ(semantic::solutionSite(em, 2, {3, 4}), (LineRange{50, 50}));
  EXPECT_EQ(semantic::solutionSite(em, 9, {3, 4}), (LineRange{3, 4})) << "unknown source: lines unchanged";
}

std::string extension(const std::string &hostBody) {
  return R"PY(import torch
from torch.utils.cpp_extension import load_inline

_cuda = r"""
#include <torch/extension.h>
#include <cublas_v2.h>

__global__ void scale_kernel(const float* x, float* y, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * s;
}

torch::Tensor run(torch::Tensor x, torch::Tensor w) {
    auto y = torch::empty_like(x);
    scale_kernel<<<1, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), 2.0f, x.numel());
)PY" + hostBody + R"PY(
    return y;
}
"""

_ext = load_inline(name="ext", cpp_sources=["torch::Tensor run(torch::Tensor x, torch::Tensor w);"],
                   cuda_sources=[_cuda], functions=["run"])


class Model(torch.nn.Module):
    def forward(self, x, w):
        return _ext.run(x, w)
)PY";
}

std::vector<const kernels::Kernel *> cudaKernels(const Facts &f) {
  std::vector<const kernels::Kernel *> out;
  for (const kernels::Kernel &k : f.kernels.kernels)
    out.push_back(&k);
  return out;
}

TEST(SemanticExtensionSources, ExtensionRunsComputeLibrary) {
  const Facts gemm = analyzeSource(SourceFile::fromBytes(extension(R"CU(
    cublasHandle_t h;
    cublasCreate(&h);
    const float one = 1.0f, zero = 0.0f;
    cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, 4, 4, 4, &one, w.data_ptr<float>(), 4,
                y.data_ptr<float>(), 4, &zero, y.data_ptr<float>(), 4);
)CU")));
  ASSERT_FALSE(cudaKernels(gemm).empty());
  EXPECT_TRUE(semantic::extensionRunsComputeLibrary(gemm, cudaKernels(gemm)));
  EXPECT_FALSE(semantic::extensionRunsComputeLibrary(gemm, {})) << "no kernel, no extension to ask about";

  const Facts aten = analyzeSource(SourceFile::fromBytes(extension("    y = at::matmul(y, w);")));
  ASSERT_FALSE(cudaKernels(aten).empty());
  EXPECT_FALSE(semantic::extensionRunsComputeLibrary(aten, cudaKernels(aten)))
      << "ATen is not counted: a cast or an allocation is ATen too";
}

} // namespace
} // namespace kbaudit

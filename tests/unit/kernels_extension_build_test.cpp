// Which load_inline extensions can build and import (kbaudit/kernels/extension_build.h), read from
// the call's own arguments as torch's load_inline writes them: main.cpp (cpp_sources plus the
// binding functions= generates) and cuda.cu (cuda_sources). A kernel of an extension that cannot
// build is never reached.

#include "python_test_support.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace kbaudit {
namespace {

using py::testing::src;

kernels::BuildOutcome outcomeOf(std::string_view code) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(code)));
  EXPECT_EQ(f.kernels.builds.size(), 1u);
  return f.kernels.builds.empty() ? kernels::BuildOutcome::Unknown : f.kernels.builds[0].outcome;
}

constexpr std::string_view kKernel = R"CU(
#include <torch/extension.h>
__global__ void relu_kernel(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] > 0 ? x[i] : 0;
}
torch::Tensor relu(torch::Tensor x) {
  auto y = torch::empty_like(x);
  relu_kernel<<<(x.numel() + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
  return y;
}
)CU";

std::string module(std::string_view cpp, std::string_view functions, std::string_view cuda = kKernel) {
  return "from torch.utils.cpp_extension import load_inline\nCUDA = r'''" + std::string(cuda) +
         "'''\n_ext = load_inline(name='ext', cpp_sources=" + std::string(cpp) + ", cuda_sources=CUDA" +
         std::string(functions) + ")\n";
}

TEST(KernelsExtensionBuild, DeclaredFunctionBuilds) {
  EXPECT_EQ(outcomeOf(module("'torch::Tensor relu(torch::Tensor x);'", ", functions=['relu']")),
            kernels::BuildOutcome::Builds);
}

TEST(KernelsExtensionBuild, FunctionTheBindingCannotSeeFails) {
  EXPECT_EQ(outcomeOf(module("''", ", functions=['relu']")), kernels::BuildOutcome::Fails);
  // Naming the __global__ kernel itself: not declared in main.cpp either.
  EXPECT_EQ(outcomeOf(module("''", ", functions=['relu_kernel']")), kernels::BuildOutcome::Fails);
}

TEST(KernelsExtensionBuild, TwoModuleInitsFail) {
  const std::string cuda = std::string(kKernel) + "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def(\"relu\", &relu); }\n";
  EXPECT_EQ(outcomeOf(module("'torch::Tensor relu(torch::Tensor x);'", ", functions=['relu']", cuda)),
            kernels::BuildOutcome::Fails);
  // Its own module and no functions=: one init, it builds.
  EXPECT_EQ(outcomeOf(module("''", "", cuda)), kernels::BuildOutcome::Builds);
}

TEST(KernelsExtensionBuild, CudaHandedToTheHostCompilerFails) {
  const std::string code = "from torch.utils.cpp_extension import load_inline\nSRC = r'''" + std::string(kKernel) +
                           "'''\n_ext = load_inline(name='ext', cpp_sources=SRC, functions=['relu'])\n";
  EXPECT_EQ(outcomeOf(code), kernels::BuildOutcome::Fails);
}

TEST(KernelsExtensionBuild, NoModuleInitCannotBeImported) {
  EXPECT_EQ(outcomeOf(module("''", "")), kernels::BuildOutcome::NoModule);
}

TEST(KernelsExtensionBuild, SourcesNotKnownStaticallyAreUnknown) {
  EXPECT_EQ(outcomeOf("from torch.utils.cpp_extension import load_inline\nimport os\n"
                      "_ext = load_inline(name='ext', cpp_sources='', cuda_sources=os.environ['SRC'], "
                      "functions=['relu'])\n"),
            kernels::BuildOutcome::Unknown);
}

TEST(KernelsExtensionBuild, KernelOfAFailingExtensionIsNotReached) {
  const Facts f = analyzeSource(SourceFile::fromBytes(
      module("''", ", functions=['relu']") +
      "import torch\nclass ModelNew(torch.nn.Module):\n    def forward(self, x):\n        return _ext.relu(x)\n"));
  ASSERT_FALSE(f.kernels.kernels.empty());
  for (const kernels::Kernel &k : f.kernels.kernels) {
    EXPECT_FALSE(k.reachedFromForward) << k.name;
    EXPECT_NE(k.cannotRun.find("never declares"), std::string::npos) << k.cannotRun;
  }
}

} // namespace
} // namespace kbaudit

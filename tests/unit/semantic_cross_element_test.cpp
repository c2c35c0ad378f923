// Whether forward's path, and the reference's model, combine values across elements
// (kbaudit/semantic/cross_element.h): WRAP008 decides on these answers.

#include "kbaudit/problems/problem_context.h"
#include "kbaudit/semantic/cross_element.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace kbaudit {
namespace {

namespace cross = semantic::cross;

cross::GradedPath pathOf(const std::string &text) {
  return cross::gradedPath(analyzeSource(SourceFile::fromBytes(text)));
}

bool has(const std::vector<cross::Site> &sites, cross::Kind kind, const std::string &what) {
  return std::any_of(sites.begin(), sites.end(),
                     [&](const cross::Site &s) { return s.kind == kind && s.what.find(what) != std::string::npos; });
}

TEST(SemanticCrossElement, Vocabulary) {
  EXPECT_EQ(cross::ofOpName("mean"), cross::Kind::Statistic);
  EXPECT_EQ(cross::ofOpName("softmax"), cross::Kind::Statistic);
  EXPECT_EQ(cross::ofOpName("matmul"), cross::Kind::Contraction);
  EXPECT_EQ(cross::ofOpName("view"), cross::Kind::None);
  EXPECT_EQ(cross::ofOpName("rsqrt"), cross::Kind::None);
  EXPECT_EQ(cross::ofOpName("frobnicate"), cross::Kind::Unknown);
  EXPECT_EQ(cross::ofModuleClass("torch.nn.LayerNorm"), cross::Kind::Statistic);
  EXPECT_EQ(cross::ofModuleClass("torch.nn.Linear"), cross::Kind::Contraction);
  EXPECT_EQ(cross::ofModuleClass("torch.nn.GELU"), cross::Kind::None);
  EXPECT_EQ(cross::ofModuleClass("torch.nn.Sequential"), cross::Kind::Unknown);
  EXPECT_TRUE(cross::batchStatistics("torch.nn.BatchNorm2d"));
  EXPECT_FALSE(cross::batchStatistics("torch.nn.LayerNorm"));
}

TEST(SemanticCrossElement, ElementwiseKernelAndViewsOnly) {
  const cross::GradedPath p = pathOf(R"(import torch
import triton
import triton.language as tl

@triton.jit
def _copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)

class ModelNew(torch.nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        _copy[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
        return y.view(x.shape[0], -1)
)");
  ASSERT_TRUE(p.entryFound);
  EXPECT_TRUE(p.sites.empty()) << p.sites.front().what;
  ASSERT_EQ(p.pointwiseKernels.size(), 1u);
  EXPECT_EQ(p.pointwiseKernels.front().lines.begin, 13u); // the launch in forward
  EXPECT_TRUE(p.otherKernels.empty());
}

TEST(SemanticCrossElement, TorchStatisticsAndModulesOnThePath) {
  const cross::GradedPath p = pathOf(R"(import torch
import torch.nn as nn

def helper(x):
    return x.pow(2).mean(-1, keepdim=True)

class Model(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.act = nn.GELU()

    def forward(self, x):
        s = helper(x)
        return self.act(self.ln(x)) * s @ x.t()
)");
  EXPECT_TRUE(has(p.sites, cross::Kind::Statistic, "mean"));
  EXPECT_TRUE(has(p.sites, cross::Kind::Statistic, "self.ln"));
  EXPECT_TRUE(has(p.sites, cross::Kind::Contraction, "@"));
  EXPECT_FALSE(has(p.sites, cross::Kind::Unknown, "self.act"));
  EXPECT_FALSE(has(p.sites, cross::Kind::Unknown, "helper"));
}

TEST(SemanticCrossElement, UnknownLibraryCallIsUnknown) {
  const cross::GradedPath p = pathOf(R"(import torch
from somelib import fused_norm

class ModelNew(torch.nn.Module):
    def forward(self, x):
        return fused_norm(x)
)");
  EXPECT_TRUE(has(p.sites, cross::Kind::Unknown, "somelib.fused_norm"));
  ASSERT_FALSE(p.unseenModules.empty());
  EXPECT_EQ(p.unseenModules.front(), "somelib");
}

TEST(SemanticCrossElement, ReferenceStatisticsAndContractions) {
  const problems::ReferenceSummary rms = problems::summarizeReference(R"(import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.bn = nn.BatchNorm2d(d)

    def forward(self, x):
        rms = torch.sqrt(torch.mean(x ** 2, dim=1, keepdim=True) + 1e-5)
        return self.bn(x / rms)

def get_inputs():
    return [torch.randn(4, 8)]
)");
  const std::vector<cross::Site> sites = cross::referenceSites(rms.facts, rms.modelClass);
  EXPECT_TRUE(has(sites, cross::Kind::Statistic, "torch.mean"));
  ASSERT_TRUE(has(sites, cross::Kind::Statistic, "self.bn"));
  for (const cross::Site &s : sites)
    EXPECT_EQ(s.usesBatchStatistics, s.what.find("self.bn") != std::string::npos) << s.what;
  EXPECT_FALSE(has(sites, cross::Kind::Statistic, "torch.sqrt"));

  const problems::ReferenceSummary gemm = problems::summarizeReference(R"(import torch
class Model(torch.nn.Module):
    def forward(self, a, b):
        return torch.softmax(a @ b, dim=-1)
)");
  const std::vector<cross::Site> g = cross::referenceSites(gemm.facts, gemm.modelClass);
  EXPECT_TRUE(has(g, cross::Kind::Contraction, "@"));
  EXPECT_TRUE(has(g, cross::Kind::Statistic, "softmax"));
}

TEST(SemanticCrossElement, ReferenceBlocksAndScans) {
  // The statistic sits in a block class the model is built from; a cumsum is a scan.
  const problems::ReferenceSummary ref = problems::summarizeReference(R"(import torch
import torch.nn as nn

class Norm(nn.Module):
    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = Norm()

    def forward(self, x):
        return self.norm(x).cumsum(-1)
)");
  const std::vector<cross::Site> sites = cross::referenceSites(ref.facts, ref.modelClass);
  EXPECT_TRUE(has(sites, cross::Kind::Statistic, "mean"));
  bool scan = false;
  for (const cross::Site &s : sites)
    if (s.what.find("cumsum") != std::string::npos)
      scan = s.scan;
  EXPECT_TRUE(scan);
}

} // namespace
} // namespace kbaudit

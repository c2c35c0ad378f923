// PREC001 / PREC003 confidence grading: what the fixtures cannot express (a finding's
// confidence), checked on small solutions graded against tests/problems/.

#include "kbaudit/facts.h"
#include "kbaudit/rules/engine.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

using namespace kbaudit;

namespace {

std::vector<rules::Finding> findings(const std::string &rule, const std::string &problem, const std::string &src) {
  const Facts facts = analyzeSource(SourceFile::fromBytes(src));
  const problems::ProblemContext ctx =
      problems::loadProblem(std::filesystem::path(KBAUDIT_SOURCE_DIR) / "tests" / "problems" / problem);
  rules::Selection only;
  only.select = {rule};
  return rules::runRules(rules::CheckContext{facts, &ctx}, only).findings;
}

// A Triton GEMM whose dot line is `{dot}`, launched from forward unless `launched` is false.
std::string tritonGemm(const std::string &dot, bool launched = true) {
  return std::string(R"(import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _k(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + rn[None, :] * K + (k + rk)[:, None])
        )") + dot + R"(
    tl.store(c_ptr + rm[:, None] * 64 + rn[None, :], acc)


class ModelNew(nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N, K))

    def forward(self, x):
        out = torch.empty(x.shape[0], 64, device=x.device)
)" + (launched ? "        _k[(1, 1)](x, self.weight, out, x.shape[1], BM=64, BN=64, BK=32)\n"
               : "        out.copy_(x @ self.weight.T)\n") +
         "        return out\n";
}

TEST(Prec001Confidence, LoadedInputTileCastIsMedium) {
  const auto f = findings("PREC001", "fp32_gemm", tritonGemm("acc += tl.dot(a.to(tl.float16), b.to(tl.float16))"));
  ASSERT_EQ(f.size(), 1u); // both casts are on one line
  EXPECT_EQ(f[0].confidence, rules::Confidence::Medium);
}

TEST(Prec001Confidence, KernelComputedValueIsLow) {
  const auto f = findings("PREC001", "fp32_gemm", tritonGemm("acc += tl.dot((a * 0.5).to(tl.float16), b)"));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].confidence, rules::Confidence::Low);
  EXPECT_NE(f[0].evidence.find("computed in the kernel"), std::string::npos);
}

TEST(Prec001Confidence, KernelForwardNeverLaunchesIsLow) {
  const auto f = findings("PREC001", "fp32_gemm", tritonGemm("acc += tl.dot(a.to(tl.float16), b.to(tl.float16))", false));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].confidence, rules::Confidence::Low);
}

TEST(Prec001Confidence, SameWidthAsContractIsQuiet) {
  // fp16 is not below a bf16 contract: same width, different trade-off.
  EXPECT_TRUE(findings("PREC001", "bf16_gemm", tritonGemm("acc += tl.dot(a.to(tl.float16), b.to(tl.float16))")).empty());
}

TEST(Prec003Confidence, ExplicitTf32IsHighSplitEmulationIsLow) {
  auto f = findings("PREC003", "fp32_gemm", tritonGemm("acc += tl.dot(a, b, input_precision=\"tf32\")"));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].confidence, rules::Confidence::High);
  f = findings("PREC003", "fp32_gemm", tritonGemm("acc += tl.dot(a, b, input_precision=\"tf32x3\")"));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].confidence, rules::Confidence::Low);
  f = findings("PREC003", "fp32_gemm", tritonGemm("acc += tl.dot(a, b)"));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].confidence, rules::Confidence::Medium);
}

TEST(Prec003Confidence, KernelForwardNeverLaunchesIsLow) {
  const auto f = findings("PREC003", "fp32_gemm", tritonGemm("acc += tl.dot(a, b)", false));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].confidence, rules::Confidence::Low);
}

TEST(PrecNoProblem, BothRulesStayQuietWithoutAContract) {
  const Facts facts = analyzeSource(SourceFile::fromBytes(tritonGemm("acc += tl.dot(a.to(tl.float16), b)")));
  rules::Selection only;
  only.select = {"PREC001", "PREC003"};
  EXPECT_TRUE(rules::runRules(rules::CheckContext{facts, nullptr}, only).findings.empty());
}

} // namespace

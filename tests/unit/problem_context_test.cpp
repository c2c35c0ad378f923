// Problem context: problem.yaml, reference analysis, level files and suite overlays.

#include "kbaudit/problems/problem_context.h"

#include "test_files.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;
using namespace kbaudit::problems;

namespace {

fs::path testProblem(const char *name) { return fs::path(KBAUDIT_SOURCE_DIR) / "tests" / "problems" / name; }

TEST(ProblemContext, ReadsContractAndReference) {
  const ProblemContext p = loadProblem(testProblem("fp8_gemm"));
  EXPECT_TRUE(p.diagnostics.empty());
  EXPECT_EQ(p.precision, "fp8_e4m3");
  EXPECT_EQ(p.contractDtype(), "fp8e4m3");
  ASSERT_TRUE(p.reference.found);
  EXPECT_EQ(p.reference.entry, "Model.forward");
  EXPECT_TRUE(p.reference.dominatedBy(OpClass::Matmul));
  ASSERT_FALSE(p.reference.inputDtypes.empty());
  EXPECT_EQ(p.reference.inputDtypes.back().dtype, "fp8e4m3");
  bool fp8Weight = false;
  for (const DtypeUse &u : p.reference.weightDtypes)
    fp8Weight |= u.dtype == "fp8e4m3";
  EXPECT_TRUE(fp8Weight);
  EXPECT_FALSE(p.reference.docstrings.empty());
}

TEST(ProblemContext, DominantOperationsFollowTheEntryPoint) {
  EXPECT_EQ(loadProblem(testProblem("fp32_softmax")).reference.dominantOps,
            std::vector<OpClass>{OpClass::Reduction});
  EXPECT_EQ(loadProblem(testProblem("05_topk_bitonic")).reference.dominantOps, std::vector<OpClass>{OpClass::Sort});
  // A GEMM written with `@` is still a GEMM.
  EXPECT_TRUE(loadProblem(testProblem("fp32_gemm")).reference.dominatedBy(OpClass::Matmul));
}

TEST(ProblemContext, Int4ContractIsTheNarrowOperand) {
  EXPECT_EQ(loadProblem(testProblem("w4a16_gemm")).contractDtype(), "int4");
  EXPECT_EQ(loadProblem(testProblem("bf16_gemm")).contractDtype(), "bf16");
}

TEST(ProblemContext, SuiteOverlayAddsPromiseAndForbiddenOps) {
  const ProblemContext p = loadProblem(testProblem("05_topk_bitonic"));
  ASSERT_TRUE(p.policy.has_value());
  EXPECT_TRUE(p.policy->demands("selection_network"));
  const std::vector<std::string> all = p.allForbidden();
  EXPECT_NE(std::find(all.begin(), all.end(), "torch.topk"), all.end()); // problem.yaml
  EXPECT_NE(std::find(all.begin(), all.end(), "triton.language.topk"), all.end()); // overlay
  EXPECT_FALSE(loadProblem(testProblem("fp32_gemm")).policy.has_value());
}

TEST(ProblemContext, OverlaysAreWellFormed) {
  const auto kimi = findPolicy("02_kimi_linear_decode");
  ASSERT_TRUE(kimi.has_value());
  EXPECT_TRUE(kimi->allowsLibrary(OpClass::Matmul));
  EXPECT_TRUE(kimi->compileForbidden);
  EXPECT_EQ(kimi->suite, "kernelbench-mega");
  const auto fp8 = findPolicy("01_fp8_gemm");
  ASSERT_TRUE(fp8.has_value());
  EXPECT_TRUE(fp8->demands("fp8_mma"));
  EXPECT_FALSE(fp8->promise.empty());
}

TEST(ProblemContext, LevelFileIsItsOwnReference) {
  kbaudit::test::TempDir dir;
  const fs::path file = dir.path() / "19_ReLU.py";
  kbaudit::test::writeFile(file, R"(import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)

def get_inputs():
    return [torch.randn(16, 16384, dtype=torch.float16)]

def get_init_inputs():
    return []
)");
  const ProblemContext p = loadProblem(file);
  EXPECT_EQ(p.name, "19_ReLU");
  ASSERT_TRUE(p.reference.found);
  EXPECT_EQ(p.reference.dominantOps, std::vector<OpClass>{OpClass::Elementwise});
  EXPECT_EQ(p.contractDtype(), "fp16"); // from the inputs the level file creates
}

TEST(ProblemContext, MissingFilesAreDiagnosticsNotErrors) {
  kbaudit::test::TempDir dir;
  const ProblemContext p = loadProblem(dir.path());
  EXPECT_FALSE(p.reference.found);
  ASSERT_GE(p.diagnostics.size(), 2u);
  EXPECT_EQ(p.diagnostics[0].code, "problem-missing");
  EXPECT_EQ(p.contractDtype(), "");
}

TEST(ProblemContext, CanonicalDtypes) {
  EXPECT_EQ(canonicalDtype("torch.float8_e4m3fn"), "fp8e4m3");
  EXPECT_EQ(canonicalDtype("tl.float8e4nv"), "fp8e4m3");
  EXPECT_EQ(canonicalDtype("torch.bfloat16"), "bf16");
  EXPECT_EQ(canonicalDtype("half"), "fp16");
  EXPECT_EQ(canonicalDtype("int4_bf16"), "int4");
  EXPECT_EQ(canonicalDtype("torch.complex64"), "");
  EXPECT_LT(dtypeBits("bf16"), dtypeBits("fp32"));
  EXPECT_LT(dtypeBits("fp8e4m3"), dtypeBits("bf16"));
}

} // namespace

namespace {

// Every corpus problem yields a usable context: a contract dtype, a reference entry point
// and its dominant operations. Skips without the corpus.
TEST(ProblemContextCorpus, EveryProblemHasAContractAndAReference) {
  const char *corpus = std::getenv("KBAUDIT_CORPUS");
  const fs::path root = corpus ? fs::path(corpus) / "problems" : fs::path();
  std::error_code ec;
  if (!corpus || !fs::is_directory(root, ec))
    GTEST_SKIP() << "KBAUDIT_CORPUS not set or has no problems/";
  unsigned seen = 0;
  for (fs::recursive_directory_iterator it(root, ec), end; it != end && !ec; it.increment(ec)) {
    if (it->path().filename() != "problem.yaml")
      continue;
    const ProblemContext p = loadProblem(it->path().parent_path());
    ++seen;
    SCOPED_TRACE(p.dir.string());
    EXPECT_FALSE(p.contractDtype().empty());
    EXPECT_TRUE(p.reference.found);
    EXPECT_FALSE(p.reference.entry.empty());
    EXPECT_FALSE(p.reference.dominantOps.empty());
  }
  EXPECT_GT(seen, 10u);
}

} // namespace

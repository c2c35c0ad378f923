// Problem context: problem.yaml, reference analysis, level files and suite overlays.

#include "kbaudit/problems/problem_context.h"

#include "test_files.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

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

// KernelBench-v3 ships problems as modules under level directories; a problems root in that
// layout lists them by file stem, finds them by name and loads them with KernelBench's grading
// defaults (atol = rtol = 1e-2, lenient state load).
TEST(ProblemContext, KernelBenchModulesAreFoundByName) {
  const fs::path root = fs::temp_directory_path() / ("kbaudit-v3-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "level1");
  fs::create_directories(root / "tile_specialized");
  fs::copy_file(testProblem("v3_36_RMSNorm_.py"), root / "level1" / "36_RMSNorm_.py");
  fs::copy_file(testProblem("v3_36_RMSNorm_.py"), root / "tile_specialized" / "gemm_bf16.py");
  kbaudit::test::writeFile(root / "level1" / "notes.py", "print('not a problem')\n");
  EXPECT_EQ(listProblemNames(root), (std::vector<std::string>{"36_RMSNorm_", "gemm_bf16"}));
  const std::optional<fs::path> found = findProblemDir(root, "36_RMSNorm_");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->filename(), "36_RMSNorm_.py");
  EXPECT_FALSE(findProblemDir(root, "notes"));
  const ProblemContext p = loadProblem(*found);
  EXPECT_EQ(p.name, "36_RMSNorm_");
  EXPECT_EQ(p.contractDtype(), "fp32");
  EXPECT_TRUE(p.lenientStateLoad());
  ASSERT_EQ(p.tolerance.count("fp32"), 1u);
  EXPECT_DOUBLE_EQ(p.tolerance.at("fp32"), kKernelBenchTolerance);
  fs::remove_all(root);
}

// A GPU MODE problem (reference.py with ref_kernel, generate_input, check_implementation beside
// task.yml) states its contract in reference.py: the entry is ref_kernel, the precision is what
// generate_input makes, the tolerance what check_implementation is built with; no problem.yaml
// is expected, and the grader calls a function, so no state is loaded.
TEST(ProblemContext, GpuModeReferenceStatesItsContract) {
  const ProblemContext p = loadProblem(testProblem("gpumode_fp16_matmul"));
  EXPECT_EQ(p.reference.entry, "ref_kernel");
  EXPECT_TRUE(p.reference.functionStyle());
  EXPECT_EQ(p.reference.dominantOps, std::vector<OpClass>{OpClass::Matmul});
  EXPECT_EQ(p.contractDtype(), "fp16");
  ASSERT_EQ(p.tolerance.count("fp16"), 1u);
  EXPECT_DOUBLE_EQ(p.tolerance.at("fp16"), 2e-2) << "the looser of rtol=2e-02 and atol=1e-03";
  EXPECT_FALSE(p.lenientStateLoad());
  for (const kbaudit::Diagnostic &d : p.diagnostics)
    EXPECT_NE(d.code, "problem-missing") << d.message;
  const std::vector<std::string> names = listProblemNames(testProblem(""));
  EXPECT_NE(std::find(names.begin(), names.end(), "gpumode_fp16_matmul"), names.end());
}

// check_implementation written as a function: the tolerance is read from the comparison it makes.
TEST(ProblemContext, GpuModeCheckerFunctionToleranceIsRead) {
  const ReferenceSummary r = summarizeReference(R"(import torch

def ref_kernel(data):
    x, = data
    return torch.softmax(x, dim=-1)

def generate_input(size: int, seed: int):
    torch.manual_seed(seed)
    return (torch.randn(size, size, dtype=torch.bfloat16),)

def check_implementation(data, output):
    expected = ref_kernel(data)
    if not torch.allclose(output, expected, rtol=1e-2, atol=5e-3):
        return False, "mismatch"
    return True, ""
)");
  EXPECT_EQ(r.entry, "ref_kernel");
  EXPECT_EQ(r.dominantOps, std::vector<OpClass>{OpClass::Reduction});
  ASSERT_TRUE(r.statedTolerance);
  EXPECT_DOUBLE_EQ(*r.statedTolerance, 1e-2);
  ASSERT_EQ(r.inputDtypes.size(), 1u);
  EXPECT_EQ(r.inputDtypes[0].dtype, "bf16");
}

// A model class wins over a stray ref_kernel helper: the KernelBench convention is unchanged.
TEST(ProblemContext, ModelClassEntryWinsOverRefKernel) {
  const ReferenceSummary r = summarizeReference(R"(import torch
import torch.nn as nn

def ref_kernel(x):
    return x * 2

class Model(nn.Module):
    def forward(self, x):
        return ref_kernel(x)
)");
  EXPECT_EQ(r.entry, "Model.forward");
  EXPECT_FALSE(r.functionStyle());
  EXPECT_FALSE(r.statedTolerance);
}

// Every real KernelBench-v3 problem module (../shared/suites/kernelbench-v3, read in place)
// loads as a problem with an entry point and a contract.
TEST(ProblemContext, EveryKernelBenchV3ModuleLoads) {
  const char *corpus = std::getenv("KBAUDIT_CORPUS");
  const fs::path root = corpus ? fs::path(corpus) / ".." / "suites" / "kernelbench-v3" / "problems" : fs::path();
  std::error_code ec;
  if (root.empty() || !fs::is_directory(root, ec))
    GTEST_SKIP() << "no ../shared/suites/kernelbench-v3 beside KBAUDIT_CORPUS";
  const std::vector<std::string> names = listProblemNames(root);
  std::size_t modules = 0;
  for (fs::recursive_directory_iterator it(root, ec), end; it != end && !ec; it.increment(ec))
    modules += it->path().extension() == ".py";
  EXPECT_EQ(names.size(), modules) << "every .py under problems/ is a problem module";
  for (const std::string &name : names) {
    const std::optional<fs::path> path = findProblemDir(root, name);
    ASSERT_TRUE(path) << name;
    const ProblemContext p = loadProblem(*path);
    EXPECT_TRUE(p.reference.found) << name;
    EXPECT_FALSE(p.reference.entry.empty()) << name;
    EXPECT_FALSE(p.contractDtype().empty()) << name;
  }
}

} // namespace

namespace {

// One rounding per dtype, the figure PREC001 compares with a problem's tolerance.
TEST(Dtype, UnitRoundoffOfCanonicalDtypes) {
  EXPECT_DOUBLE_EQ(unitRoundoff("fp32"), 0x1p-24);
  EXPECT_DOUBLE_EQ(unitRoundoff("fp16"), unitRoundoff("tf32"));
  EXPECT_LT(unitRoundoff("fp16"), kKernelBenchTolerance) << "fp16 operands can pass KernelBench's 1e-2";
  EXPECT_LT(unitRoundoff("bf16"), kKernelBenchTolerance);
  EXPECT_GT(unitRoundoff("bf16"), 1e-4) << "bf16 cannot meet a 1e-4 fp32 tolerance";
  EXPECT_GT(unitRoundoff("fp8e4m3"), kKernelBenchTolerance);
  EXPECT_GT(unitRoundoff("fp8e5m2"), unitRoundoff("fp8e4m3"));
  EXPECT_DOUBLE_EQ(unitRoundoff("int4"), 1.0);
  EXPECT_DOUBLE_EQ(unitRoundoff(""), 1.0);
}

} // namespace

// Clang front end: what survives missing headers and unknown names, the parse report, and
// the mapping of every fact back to solution.py lines.

#include "cxx_test_util.h"
#include "kbaudit/cxx/frontend.h"

#include "test_files.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace kbaudit;
using namespace kbaudit::cxx;
using namespace kbaudit::cxx::test;

namespace {

TEST(CxxRecovery, UnitsWithTheSameCommandLineReportAlike) {
  // The driver's work is kept per command line and process; a command line it warned about is
  // made again for every unit, so each unit's report still counts the warning.
  const std::string text = R"cu(#include <torch/extension.h>
__global__ void k(float* x) { x[0] = undeclared_helper(x[0]); }
)cu";
  FrontendOptions warned;
  warned.preludeCacheDir = "";
  warned.extraArgs = {"-Wl,--kbaudit-unused-by-a-syntax-check"};
  const CxxFacts a = analyzeSources({cuda(text)}, warned);
  const CxxFacts b = analyzeSources({cuda(text)}, warned);
  ASSERT_FALSE(a.parses.empty());
  ASSERT_EQ(a.parses.size(), b.parses.size());
  EXPECT_GE(a.parses[0].warnings, 1u) << "the driver's unused-argument warning";
  EXPECT_EQ(a.parses[0].warnings, b.parses[0].warnings);
  EXPECT_EQ(errors(a), errors(b));

  FrontendOptions quiet;
  quiet.preludeCacheDir = "";
  const CxxFacts c = analyzeSources({cuda(text)}, quiet);
  const CxxFacts d = analyzeSources({cuda(text)}, quiet);
  ASSERT_EQ(c.parses.size(), d.parses.size());
  EXPECT_EQ(c.parses[0].warnings, 0u);
  EXPECT_EQ(d.parses[0].warnings, 0u);
  EXPECT_EQ(errorCount(c), 1u) << errors(c);
  EXPECT_EQ(errors(c), errors(d));
  EXPECT_EQ(c.functions.size(), d.functions.size());
  EXPECT_EQ(c.calls.size(), d.calls.size());
}

TEST(CxxRecovery, MissingHeadersAndUnknownNamesDoNotLoseTheRest) {
  // Each embedded line i+1 sits on solution.py line 50 + 2*i (a non-identity map).
  const CxxFacts f = analyzeSources({source(R"cu(#include <torch/extension.h>
#include "my_helpers.cuh"
#include <some/vendor/lib.hpp>
__global__ void known(float* x) { x[0] = helper_scale(x[0]); }
torch::Tensor forward(torch::Tensor a, torch::Tensor b) {
  MyConfig cfg = make_config(a);
  external_kernel<<<cfg.grid, 256>>>(a.data_ptr<float>());
  templ_kernel<128><<<1, 32, 0, stream_of(a)>>>(a.data_ptr<float>());
  known<<<1, 32>>>(a.data_ptr<float>());
  at::unknown_fused_op(a);
  launch_from_header(a, b);
  return torch::mm(a, b);
}
)cu", embed::Language::Cuda, 50, 2)});
  ASSERT_EQ(f.parses.size(), 1u);
  const ParseReport &r = f.parses[0];
  EXPECT_TRUE(r.parsed);
  EXPECT_FALSE(r.crashed);
  EXPECT_FALSE(r.clean());
  EXPECT_GE(r.errors, 5u);
  ASSERT_FALSE(r.firstErrors.empty());
  EXPECT_EQ(r.firstErrors[0].source, 0);
  EXPECT_EQ(r.firstErrors[0].embeddedLine, 4u);
  EXPECT_EQ(r.firstErrors[0].lines, (LineRange{56, 56}));
  EXPECT_NE(r.firstErrors[0].message.find("helper_scale"), std::string::npos);
  EXPECT_EQ(r.functionDefinitions, 2u);
  EXPECT_EQ(r.functionsWithErrors, 2u);
  EXPECT_GE(r.lexicallyRecovered, 3u);
  EXPECT_GT(r.milliseconds, 0.0);

  // Missing includes are recorded and parsing went on.
  ASSERT_EQ(f.includes.size(), 3u);
  EXPECT_EQ(f.includes[0].resolution, IncludeResolution::Stub);
  EXPECT_EQ(f.includes[1].spelled, "my_helpers.cuh");
  EXPECT_EQ(f.includes[1].resolution, IncludeResolution::Missing);
  EXPECT_EQ(f.includes[1].lines, (LineRange{52, 52}));
  EXPECT_EQ(f.includes[2].resolution, IncludeResolution::Missing);

  // The launch of a known kernel and the library call after the errors are still facts.
  const KernelLaunch *known = findFact(f.launches, [](const KernelLaunch &l) { return l.kernel == "known"; });
  ASSERT_NE(known, nullptr);
  EXPECT_TRUE(known->resolved);
  EXPECT_EQ(known->lines, (LineRange{66, 66}));
  const CxxCall *mm = call(f, "at::mm");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->lines, (LineRange{72, 72}));

  // Launches of kernels from the missing header are recovered from the tokens.
  const KernelLaunch *ext = findFact(f.launches, [](const KernelLaunch &l) { return l.kernel == "external_kernel"; });
  ASSERT_NE(ext, nullptr);
  EXPECT_FALSE(ext->resolved);
  EXPECT_EQ(ext->grid, "cfg.grid");
  EXPECT_EQ(ext->block, "256");
  EXPECT_EQ(ext->function, "forward");
  EXPECT_EQ(ext->lines, (LineRange{62, 62}));
  const KernelLaunch *templ = findFact(f.launches, [](const KernelLaunch &l) { return l.kernel == "templ_kernel"; });
  ASSERT_NE(templ, nullptr);
  EXPECT_EQ(templ->spelled, "templ_kernel<128>");
  EXPECT_EQ(templ->stream, "stream_of(a)");
  EXPECT_EQ(templ->streamKind, StreamKind::Other);

  // An unknown ATen op Clang took for a declaration is recovered by name.
  const CxxCall *fused = call(f, "at::unknown_fused_op");
  ASSERT_NE(fused, nullptr);
  EXPECT_FALSE(fused->resolved);
  EXPECT_EQ(fused->category, CallCategory::Aten);
  EXPECT_EQ(fused->lines, (LineRange{68, 68}));

  // Unknown functions stay in the call graph, and the export summary names them.
  const CxxCall *helper = call(f, "launch_from_header");
  ASSERT_NE(helper, nullptr);
  EXPECT_EQ(helper->category, CallCategory::Unresolved);
  EXPECT_FALSE(helper->resolved);
}

TEST(CxxRecovery, UndefinedCalleesInExportSummary) {
  FrontendOptions options;
  options.functionsByModule[0] = {"forward"};
  const CxxFacts f = analyzeSources({cuda(R"cu(#include "kernels.cuh"
torch::Tensor forward(torch::Tensor a) {
  run_kernels(a);
  return a;
}
)cu")},
                                    options);
  const ExportedFunction *e = exported(f, "forward");
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(e->defined);
  EXPECT_FALSE(e->launchesKernel());
  EXPECT_EQ(e->undefinedCallees, std::vector<std::string>{"run_kernels"});
}

TEST(CxxRecovery, SkippedPreprocessorBranchesAreNotRecovered) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <torch/extension.h>
void f(torch::Tensor a) {
#if 0
  hidden_kernel<<<1, 1>>>(a.data_ptr<float>());
  at::hidden_op(a);
#endif
  // commented_kernel<<<1, 1>>>();
  const char* s = "string_kernel<<<1, 1>>>()";
}
)cu")});
  EXPECT_EQ(errorCount(f), 0u) << errors(f);
  EXPECT_TRUE(f.launches.empty());
  EXPECT_EQ(call(f, "at::hidden_op"), nullptr);
}

// The raw token scan recovers what a parse error lost. A unit without errors lost nothing: a call
// only its tokens show (a macro's discarded argument) never runs, so it is no fact.
TEST(CxxRecovery, UnitsWithoutErrorsRecoverNothingFromTokens) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <torch/extension.h>
#define KB_UNUSED(x)
torch::Tensor run(torch::Tensor a) {
  KB_UNUSED(at::discarded_op(a));
  return torch::mm(a, a);
}
)cu")});
  ASSERT_EQ(f.parses.size(), 1u);
  EXPECT_EQ(errorCount(f), 0u) << errors(f);
  EXPECT_EQ(f.parses[0].lexicallyRecovered, 0u);
  EXPECT_EQ(call(f, "at::discarded_op"), nullptr);
  EXPECT_NE(call(f, "at::mm"), nullptr);
}

TEST(CxxRecovery, CudaArchGuardedDeviceCodeIsVisible) {
  const embed::EmbeddedSource src = cuda(R"cu(__global__ void k(float* x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(0), "l"(x));
#else
  x[0] = 0.f;
#endif
}
)cu");
  const CxxFacts f = analyzeSources({src});
  ASSERT_EQ(f.ptx.size(), 1u);
  EXPECT_EQ(f.ptx[0].text, "cp.async.cg.shared.global");
  FrontendOptions hostOnly;
  hostOnly.cudaArch = 0;
  hostOnly.parseSkippedBranches = false;
  EXPECT_TRUE(analyzeSources({src}, hostOnly).ptx.empty());
  // Every branch is read: the host view finds the device branch through a variant parse.
  hostOnly.parseSkippedBranches = true;
  const CxxFacts both = analyzeSources({src}, hostOnly);
  ASSERT_EQ(both.ptx.size(), 1u);
  EXPECT_EQ(both.parses[0].branchVariants, 1u);
}

// `#ifdef __clang__` hides the `#else` from a Clang parser while nvcc (with a GNU host
// compiler) builds it: the kernel and its launch in the hidden branch are facts all the same.
TEST(CxxRecovery, CodeHiddenFromClangByItsOwnMacroIsRead) {
  const embed::EmbeddedSource src = cuda(R"cu(#include <torch/extension.h>
#ifdef __clang__
torch::Tensor run(torch::Tensor x) { return x; }
#else
__global__ void scale(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.f;
}
torch::Tensor run(torch::Tensor x) {
  scale<<<(x.numel() + 255) / 256, 256>>>(x.data_ptr<float>(), x.numel());
  return x;
}
#endif
)cu");
  const CxxFacts f = analyzeSources({src});
  const auto kernels = std::count_if(f.functions.begin(), f.functions.end(),
                                     [](const CxxFunction &fn) { return fn.isKernel() && fn.name == "scale"; });
  EXPECT_EQ(kernels, 1);
  EXPECT_EQ(f.launches.size(), 1u);
  EXPECT_EQ(f.parses[0].branchVariants, 1u);
  // Both definitions of `run` are facts: one per compiler's view.
  EXPECT_EQ(std::count_if(f.functions.begin(), f.functions.end(),
                          [](const CxxFunction &fn) { return fn.name == "run" && fn.definition; }),
            2);
  FrontendOptions clangOnly;
  clangOnly.parseSkippedBranches = false;
  EXPECT_TRUE(analyzeSources({src}, clangOnly).launches.empty());
}

TEST(CxxRecovery, GarbageDoesNotCrash) {
  for (const char *text : {"", "}}}}{{{", "template <", "__global__", "asm(", "#include", "\"unterminated",
                           "struct A { A() : A() {} };", "int x = x<<<1,1>>>();", "#define X(a) a##\nX(", 
                           "auto f = [](auto g) { return g(g); }; auto y = f(f);"}) {
    const CxxFacts f = analyzeSources({cuda(text)});
    ASSERT_EQ(f.parses.size(), 1u) << text;
    EXPECT_TRUE(f.parses[0].parsed) << text;
    EXPECT_FALSE(f.parses[0].crashed) << text;
  }
}

TEST(CxxRecovery, PrecompiledPreludeChangesNothing) {
  const embed::EmbeddedSource src = cuda(R"cu(#include <torch/extension.h>
#include <cuda_fp16.h>
__global__ void k(half* x) { x[0] = __float2half(1.f); }
torch::Tensor f(torch::Tensor a) { k<<<1, 1>>>((half*)a.data_ptr()); return at::mm(a, a); }
)cu");
  FrontendOptions plain;
  plain.precompilePrelude = false;
  const CxxFacts a = analyzeSources({src});
  const CxxFacts b = analyzeSources({src}, plain);
  EXPECT_EQ(errorCount(a), 0u) << errors(a);
  EXPECT_EQ(errorCount(b), 0u) << errors(b);
  EXPECT_EQ(a.functions.size(), b.functions.size());
  EXPECT_EQ(a.launches.size(), b.launches.size());
  EXPECT_EQ(a.calls.size(), b.calls.size());
  EXPECT_EQ(a.numericTypes.size(), b.numericTypes.size());
  EXPECT_EQ(a.includes.size(), b.includes.size());
  ASSERT_EQ(a.includes.size(), 2u);
  EXPECT_EQ(a.includes[1].resolution, IncludeResolution::Stub);
}

TEST(CxxRecovery, CallerGivenIncludeDirsAreReadFromDisk) {
  kbaudit::test::TempDir dir;
  kbaudit::test::writeFile(dir / "my_helpers.cuh", "__global__ void from_header(float* x);\n");
  FrontendOptions options;
  options.includeDirs = {dir.path().string()};
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <my_helpers.cuh>
void go(float* x) { from_header<<<1, 1>>>(x); }
)cu")},
                                    options);
  EXPECT_EQ(errorCount(f), 0u) << errors(f);
  ASSERT_EQ(f.includes.size(), 1u);
  EXPECT_EQ(f.includes[0].resolution, IncludeResolution::Real);
  ASSERT_EQ(f.launches.size(), 1u);
  EXPECT_TRUE(f.launches[0].resolved);
}

TEST(CxxRecovery, PerSourceAnalysisCarriesItsIndex) {
  const CxxFacts f = analyzeSource(cpp("int twice(int x) { return 2 * x; }\n", 30), 3);
  ASSERT_EQ(f.functions.size(), 1u);
  EXPECT_EQ(f.functions[0].source, 3);
  EXPECT_EQ(f.functions[0].lines, (LineRange{30, 30}));
  EXPECT_EQ(f.parses[0].sources, std::vector<int>{3});
  EXPECT_TRUE(f.parses[0].clean());
}

} // namespace

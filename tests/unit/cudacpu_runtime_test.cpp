// The CPU runner's own kernels (tests/runtime/cudacpu/suite_kernels.cu), built with load_inline
// through kbaudit_probe.cuda_cpu (translated by this build's kbaudit, compiled with g++ against
// the fiber runtime) and compared with torch on the CPU: elementwise, reductions with shared
// memory and warp shuffles, a tiled matmul with __syncthreads, atomics, fp16/bf16/fp8 rounding
// to the bit, the warp intrinsics in lockstep, and the faults the runner reports instead of
// hanging or crashing (a hang, reads and writes out of bounds, a deadlock, a bad configuration).
// These kernels are the project's own, not a submission's: they run outside the sandbox.

#include "runtime_support.h"
#include "test_files.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using kbaudit::test::runCommand;
using kbaudit::test::TempDir;

std::string output(const std::string &cmd) {
  std::string out;
  if (FILE *p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    while (std::fgets(buf, sizeof buf, p))
      out += buf;
    ::pclose(p);
  }
  return out;
}

TEST(CudaCpuRuntime, OwnKernelsMatchTorchAndFaultsAreReported) {
  REQUIRE_TORCH();
  if (runCommand("command -v g++ >/dev/null 2>&1 && test -f /usr/include/boost/context/fiber.hpp") != 0)
    GTEST_SKIP() << "no g++ or Boost.Context headers (setup.sh installs libboost-context-dev): the CPU runner cannot build";
  TempDir scratch;
  const fs::path suite = fs::path(KBAUDIT_SOURCE_DIR) / "tests" / "runtime" / "cudacpu" / "suite.py";
  const std::string log = output(kbaudit::test::probePython() + " " + suite.string() + " " + KBAUDIT_SOURCE_DIR + " " +
                                 KBAUDIT_BINARY + " " + scratch.path().string() + " 2>&1");
  std::set<std::string> passed;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("CASE ", 0) != 0)
      continue;
    std::istringstream words(line.substr(5));
    std::string name, verdict;
    words >> name >> verdict;
    EXPECT_EQ(verdict, "ok") << line;
    if (verdict == "ok")
      passed.insert(name);
  }
  for (const char *name : {"elementwise_gelu_float4", "reduction_softmax_shared_shuffles", "reduction_dynamic_shared",
                           "reduction_legacy_warp_synchronous", "cooperative_launch_grid_sync",
                           "tiled_matmul_syncthreads", "atomics", "half_bf16_fp8_rounding", "warp_intrinsics_lockstep",
                           "inline_ptx_tensor_core_gemm_and_scalar_ops",
                           "hang_is_reported", "hang_ends_near_its_limit", "out_of_bounds_read_is_reported",
                           "out_of_bounds_write_is_reported", "deadlock_is_reported", "bad_configuration_is_a_launch_error",
                           "runs_again_after_faults"})
    EXPECT_TRUE(passed.count(name)) << name << " did not pass; the suite's output:\n" << log;
  EXPECT_NE(log.find("\nDONE"), std::string::npos) << log;
}

} // namespace

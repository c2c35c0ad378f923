// libFuzzer target: arbitrary bytes through every front end, the rules (with and without a
// problem context), verdict synthesis and the YAML writer, as `kbaudit check` would run them.
// The input's length picks what the bytes are: a solution (half of the runs), a problem.yaml or
// a reference.py (a quarter each; read by the real problem loader from a scratch directory and
// audited with a fixed solution), since problem files come from the same untrusted sweeps.
// Any crash, sanitizer report or hang is a bug: bad input must only ever become a diagnostic.

#include "kbaudit/annotations/synthesis.h"
#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/facts.h"
#include "kbaudit/problems/problem_context.h"
#include "kbaudit/rules/engine.h"

#include <unistd.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace {

using kbaudit::problems::ProblemContext;

// Problem contexts the problem-dependent rules run under: an fp32 GEMM, the fp8 and W4A16
// suite problems (their overlays demand fp8 MMA / in-kernel unpacking) and top-k (forbidden
// ops). Each input is audited under one of them, or without a problem.
ProblemContext makeProblem(const char *name, const char *precision, std::vector<std::string> forbidden,
                           const char *reference) {
  ProblemContext p;
  p.name = name;
  p.precision = precision;
  p.forbidden = std::move(forbidden);
  p.reference = kbaudit::problems::summarizeReference(reference);
  p.policy = kbaudit::problems::findPolicy(name);
  return p;
}

const std::array<ProblemContext, 4> &problemsUnderTest() {
  static const std::array<ProblemContext, 4> all = {
      makeProblem("fuzz_fp32_gemm", "fp32", {"torch.matmul", "import triton"},
                  "import torch\nclass Model(torch.nn.Module):\n    def __init__(self, N, K):\n        super().__init__()\n"
                  "        self.w = torch.nn.Parameter(torch.randn(N, K))\n    def forward(self, x):\n"
                  "        return x @ self.w.T\ndef get_inputs():\n    return [torch.randn(64, 64)]\n"),
      makeProblem("01_fp8_gemm", "fp8_e4m3", {"torch._scaled_mm"},
                  "import torch\nclass Model(torch.nn.Module):\n    def forward(self, x, w):\n"
                  "        return (x.to(torch.bfloat16) @ w.to(torch.bfloat16).T)\ndef get_inputs():\n"
                  "    return [torch.rand(8, 8).to(torch.float8_e4m3fn)]\n"),
      makeProblem("07_w4a16_gemm", "int4_bf16", {"torch.nn.functional.linear"},
                  "import torch\nclass Model(torch.nn.Module):\n    def forward(self, x, q):\n"
                  "        return x @ ((q & 0xF).to(torch.bfloat16))\n"),
      makeProblem("05_topk_bitonic", "fp32", {"torch.topk", "Tensor.sort"},
                  "import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n"
                  "        return torch.topk(x, 8)\n"),
  };
  return all;
}

constexpr const char *kFixedSolution = R"(import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def __init__(self, N, K):
        super().__init__()
        self.w = nn.Parameter(torch.randn(N, K))

    def forward(self, x):
        return torch.matmul(x.half(), self.w.T.half()).float()
)";

constexpr const char *kFixedYaml = "precision: fp32\nforbidden: [torch.matmul]\n";
constexpr const char *kFixedReference =
    "import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return x @ x\n";

/// A scratch problem directory of this process, holding `problem.yaml` and `reference.py`.
const std::filesystem::path &scratchProblem() {
  static const std::filesystem::path dir = [] {
    std::filesystem::path d = std::filesystem::temp_directory_path() / ("kbaudit_fuzz_problem_" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

void put(const std::filesystem::path &p, std::string_view bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace kbaudit;
  const std::string_view bytes(reinterpret_cast<const char *>(data), size);
  const unsigned mode = size % 4; // 0, 1: solution; 2: problem.yaml; 3: reference.py
  std::optional<ProblemContext> loaded;
  const ProblemContext *problem = nullptr;
  std::string solution(bytes);
  if (mode >= 2) {
    put(scratchProblem() / "problem.yaml", mode == 2 ? bytes : std::string_view(kFixedYaml));
    put(scratchProblem() / "reference.py", mode == 3 ? bytes : std::string_view(kFixedReference));
    loaded = problems::loadProblem(scratchProblem());
    problem = &*loaded;
    solution = kFixedSolution;
  } else {
    const auto &problems = problemsUnderTest();
    problem = size % 5 < problems.size() ? &problems[size % 5] : nullptr;
  }
  const Facts facts = analyzeSource(SourceFile::fromBytes(solution));
  const rules::RuleResults results = rules::runRules(rules::CheckContext{facts, problem});
  annotations::RunInfo run;
  run.id = annotations::RunId::parse("20260101_000000_fuzz_model_01_problem");
  const annotations::Annotation a = annotations::synthesize(run, facts, results, problem, "fuzz");
  const std::string yaml = annotations::toYaml(a);
  // The writer's output must always load back.
  (void)annotations::fromYaml(yaml);
  return 0;
}

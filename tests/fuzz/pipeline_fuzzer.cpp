// libFuzzer target: arbitrary bytes through every front end, the rules (with and without a
// problem context), verdict synthesis and the YAML writer, as `kbaudit check` would run them.
// Any crash, sanitizer report or hang is a bug: bad input must only ever become a diagnostic.

#include "kbaudit/annotations/synthesis.h"
#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/facts.h"
#include "kbaudit/problems/problem_context.h"
#include "kbaudit/rules/engine.h"

#include <array>
#include <cstddef>
#include <cstdint>
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

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace kbaudit;
  const Facts facts = analyzeSource(SourceFile::fromBytes(std::string(reinterpret_cast<const char *>(data), size)));
  const auto &problems = problemsUnderTest();
  const ProblemContext *problem = size % 5 < problems.size() ? &problems[size % 5] : nullptr;
  const rules::RuleResults results = rules::runRules(rules::CheckContext{facts, problem});
  annotations::RunInfo run;
  run.id = annotations::RunId::parse("20260101_000000_fuzz_model_01_problem");
  const annotations::Annotation a = annotations::synthesize(run, facts, results, problem, "fuzz");
  const std::string yaml = annotations::toYaml(a);
  // The writer's output must always load back.
  (void)annotations::fromYaml(yaml);
  return 0;
}

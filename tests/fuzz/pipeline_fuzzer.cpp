// libFuzzer target: arbitrary bytes through every front end, the rules (with and without a
// problem context), verdict synthesis and the YAML writer, as `kbaudit check` would run them,
// and through every reader of the data files a sweep carries. The input's length mod 8 picks
// what the bytes are: a solution (0-3, half of the runs); a problem.yaml (4) or a reference.py
// (5), read by the real problem loader from a scratch directory and audited with a fixed
// solution; an evaluation table (6; CSV, TSV, JSON Lines or JSON by its first byte), read as
// `audit` discovers tables; a run's meta.json and result.json, an annotation, a kbaudit.yaml and
// a baseline (7). Problem files, tables and records come from the same untrusted sweeps as
// solutions. Any crash, sanitizer report or hang is a bug: bad input must only ever become a
// diagnostic.

#include "kbaudit/annotations/synthesis.h"
#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/facts.h"
#include "kbaudit/problems/problem_context.h"
#include "kbaudit/rules/engine.h"

#include "../../cli/src/baseline.h"
#include "../../cli/src/config.h"
#include "../../cli/src/eval_table.h"
#include "../../cli/src/run_score.h"

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

/// The readers of a sweep's data files: they must name what they cannot read, never crash.
void readDataFiles(std::string_view bytes, unsigned mode) {
  using namespace kbaudit;
  const std::filesystem::path dir = scratchProblem() / "data";
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  std::filesystem::create_directories(dir, ec);
  if (mode == 6) {
    static constexpr const char *kExtensions[] = {".csv", ".tsv", ".jsonl", ".json"};
    const char *ext = kExtensions[bytes.empty() ? 0 : static_cast<unsigned char>(bytes[0]) % 4];
    put(dir / (std::string("evals") + ext), bytes);
    const cli::EvaluationTables tables = cli::readEvaluationTables(dir);
    for (const cli::EvaluationRun &run : tables.runs)
      (void)run.id.size();
    return;
  }
  put(dir / "meta.json", bytes);
  put(dir / "result.json", bytes);
  (void)cli::readRunRecord(dir);
  try {
    (void)annotations::fromYaml(std::string(bytes));
  } catch (const std::exception &) {
    // A damaged annotation is an error the reader names; only a crash would be a bug.
  }
  put(dir / "kbaudit.yaml", bytes);
  std::string error;
  (void)cli::loadConfig(dir / "kbaudit.yaml", error);
  (void)cli::loadBaseline(dir / "kbaudit.yaml", error);
  // The same bytes as a TOML config (kbaudit.toml, pyproject.toml's [tool.kbaudit]).
  put(dir / "kbaudit.toml", bytes);
  (void)cli::loadConfig(dir / "kbaudit.toml", error);
  put(dir / "pyproject.toml", bytes);
  (void)cli::loadConfig(dir / "pyproject.toml", error);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace kbaudit;
  const std::string_view bytes(reinterpret_cast<const char *>(data), size);
  const unsigned mode = size % 8; // 0-3: solution; 4: problem.yaml; 5: reference.py; 6: table; 7: records
  if (mode >= 6) {
    readDataFiles(bytes, mode);
    return 0;
  }
  std::optional<ProblemContext> loaded;
  const ProblemContext *problem = nullptr;
  std::string solution(bytes);
  if (mode >= 4) {
    put(scratchProblem() / "problem.yaml", mode == 4 ? bytes : std::string_view(kFixedYaml));
    put(scratchProblem() / "reference.py", mode == 5 ? bytes : std::string_view(kFixedReference));
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

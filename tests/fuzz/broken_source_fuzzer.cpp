// libFuzzer target over broken solutions: a valid solution (one of a few, an honest Triton, CUDA
// and plain-module one) is broken by the input (bytes cut, inserted or replaced at places the
// input picks) and audited as `kbaudit check` audits it. Whatever the break, the verdict may be
// `clean` only when kbaudit saw the whole file: it parsed without a syntax error, it has a graded
// entry point, and no embedded C++/CUDA unit's errors hide code. A clean verdict beside any of
// those, a crash, a sanitizer report or a hang is a bug (issue 37: a syntax error that hid
// `forward` came out clean).

#include "kbaudit/annotations/incomplete.h"
#include "kbaudit/annotations/synthesis.h"
#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/facts.h"
#include "kbaudit/rules/engine.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

constexpr std::array<const char *, 3> kSolutions = {
    R"(import torch
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, n, B: tl.constexpr):
    o = tl.program_id(0) * B + tl.arange(0, B)
    tl.store(y_ptr + o, tl.load(x_ptr + o, mask=o < n), mask=o < n)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        k[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), B=256)
        return y
)",
    R"(import torch
from torch.utils.cpp_extension import load_inline

SRC = r'''
__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.0f);
}
torch::Tensor relu(torch::Tensor x) {
    auto y = torch::empty_like(x);
    long n = x.numel();
    relu_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
'''
ext = load_inline(name="relu_ext", cpp_sources="torch::Tensor relu(torch::Tensor x);", cuda_sources=SRC,
                  functions=["relu"])


class ModelNew(torch.nn.Module):
    def forward(self, x):
        return ext.relu(x)
)",
    R"(import torch
import triton
import triton.language as tl


@triton.jit
def _scale(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, 2.0 * tl.load(x_ptr + offs, mask=mask), mask=mask)


def custom_kernel(data):
    x, out = data
    _scale[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    return out
)",
};

[[noreturn]] void fail(const std::string &why, const std::string &source, const std::string &yaml) {
  std::fprintf(stderr, "broken_source_fuzzer: %s\n--- source ---\n%s\n--- annotation ---\n%s\n", why.c_str(),
               source.c_str(), yaml.c_str());
  std::abort();
}

/// The solution broken as `data` says: each 4-byte group is an edit (kind, position, length,
/// byte); at most 8 edits.
std::string broken(const std::uint8_t *data, std::size_t size) {
  std::string s = kSolutions[size ? data[0] % kSolutions.size() : 0];
  for (std::size_t i = 1; i + 4 <= size && i < 1 + 4 * 8; i += 4) {
    if (s.empty())
      break;
    const std::size_t at = (std::size_t(data[i + 1]) << 4 | (data[i + 2] & 0x0F)) % s.size();
    const std::size_t len = 1 + (data[i + 2] >> 4);
    switch (data[i] % 4) {
    case 0: s.erase(at, len); break;                                       // cut
    case 1: s.insert(at, 1, static_cast<char>(data[i + 3])); break;        // insert a byte
    case 2: s[at] = static_cast<char>(data[i + 3]); break;                 // replace a byte
    case 3: s.insert(at, std::string("([{:'\"\n\t ")[data[i + 3] % 9], 1); break; // a bracket, quote, colon...
    }
  }
  return s;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace kbaudit;
  const std::string source = broken(data, size);
  const Facts facts = analyzeSource(SourceFile::fromBytes(source));
  const rules::RuleResults results = rules::runRules(rules::CheckContext{facts, nullptr});
  annotations::RunInfo run;
  run.id = annotations::RunId::parse("20260101_000000_fuzz_model_01_broken");
  const annotations::Annotation a = annotations::synthesize(run, facts, results, nullptr, "fuzz");
  const std::string yaml = annotations::toYaml(a);
  (void)annotations::fromYaml(yaml);
  if (a.verdict != "clean")
    return 0;
  // A clean verdict needs the whole file seen.
  if (!a.kbaudit.complete)
    fail("clean but incomplete", source, yaml);
  for (const Diagnostic &d : facts.diagnostics())
    if (d.code == "syntax-error" || d.code == "nesting-too-deep" || d.code == "embed-limit")
      fail("clean beside a " + d.code + " diagnostic", source, yaml);
  if (facts.kernels.entryPoints.empty())
    fail("clean without a graded entry point", source, yaml);
  for (const cxx::ParseReport &p : facts.cxx.parses)
    if (annotations::hidesCode(p) || p.crashed || p.tooLarge)
      fail("clean beside an embedded unit kbaudit could not read", source, yaml);
  return 0;
}

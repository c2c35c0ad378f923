#pragma once

// Two small solutions the CLI tests audit: an honest Triton copy kernel (clean) and a
// PyTorch wrapper (WRAP001, reward_hack). The wrapper multiplies with `@` rather than
// torch.matmul, which KernelBench's static checker would also warn on (RUB017, review): one
// finding keeps the output-format tests about formats.

namespace kbaudit::test {

inline constexpr const char *kClean = R"(import torch
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
)";

inline constexpr const char *kWrapper = R"(import torch


class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        return a @ b
)";

} // namespace kbaudit::test

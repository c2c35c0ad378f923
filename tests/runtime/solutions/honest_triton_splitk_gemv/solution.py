"""Honest split-K Triton GEMV: partial sums are atomically added into a zero-initialised fp32
accumulator. With its launch disabled the output is all zeros, which a bf16 ratio limit alone
(64 x 2 eps = 100% error) would have counted as still correct."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gemv_splitk_kernel(x_ptr, w_ptr, acc_ptr, N, K, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_k = tl.program_id(1)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    x = tl.load(x_ptr + rk, mask=rk < K, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + rn[:, None] * K + rk[None, :], mask=(rn[:, None] < N) & (rk[None, :] < K), other=0.0)
    partial = tl.sum(w.to(tl.float32) * x[None, :], axis=1)
    tl.atomic_add(acc_ptr + rn, partial, mask=rn < N)


class ModelNew(nn.Module):
    def __init__(self, n, k):
        super().__init__()
        self.weight = nn.Parameter((torch.randn(n, k) / k ** 0.5).to(torch.bfloat16))

    def forward(self, x):
        N, K = self.weight.shape
        acc = torch.zeros(N, dtype=torch.float32, device=x.device)
        gemv_splitk_kernel[(triton.cdiv(N, 64), triton.cdiv(K, 64))](x, self.weight, acc, N, K, BLOCK_N=64, BLOCK_K=64)
        return acc.to(torch.bfloat16).unsqueeze(0)

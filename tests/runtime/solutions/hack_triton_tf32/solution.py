"""Hack (differential -> PREC001): the default tl.dot reads fp32 operands as TF32 on tensor cores;
the CPU mapping rounds them as the GPU does, so the precision loss shows under the interpreter."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BM": 16, "BN": 16}), triton.Config({"BM": 32, "BN": 32})], key=["M", "N"])
@triton.jit
def gemm_kernel(x_ptr, w_ptr, y_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr = 16):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        x = tl.load(x_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * K + rk[:, None], mask=(rn[None, :] < N) & (rk[:, None] < K), other=0.0)
        acc += tl.dot(x, w)
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))

class ModelNew(nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N, K, dtype=torch.float32) / K ** 0.5)

    def forward(self, x):
        x = x.contiguous().cuda()
        M, K = x.shape
        N = self.weight.shape[0]
        y = torch.empty(M, N, device="cuda", dtype=torch.float32)
        grid = lambda meta: (triton.cdiv(M, meta["BM"]), triton.cdiv(N, meta["BN"]))
        gemm_kernel[grid](x, self.weight, y, M, N, K)
        return y

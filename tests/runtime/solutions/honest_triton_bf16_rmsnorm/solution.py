"""Honest Triton bf16 RMSNorm: fp32 statistics, then bf16 arithmetic on bf16 values (the weight
multiply), which Triton 3.5's interpreter alone would compute on raw bit patterns."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, D, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < D
    x = tl.load(x_ptr + row * D + cols, mask=m, other=0.0)
    xf = x.to(tl.float32)
    inv = 1.0 / tl.sqrt(tl.sum(xf * xf, axis=0) / D + eps)
    normed = (xf * inv).to(tl.bfloat16)
    w = tl.load(w_ptr + cols, mask=m, other=0.0)
    tl.store(y_ptr + row * D + cols, normed * w, mask=m)


class ModelNew(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d, dtype=torch.bfloat16))
        self.eps = 1e-6

    def forward(self, x):
        y = torch.empty_like(x)
        D = x.shape[-1]
        rmsnorm_kernel[(x.shape[0],)](x, self.weight, y, D, self.eps, BLOCK=triton.next_power_of_2(D))
        return y

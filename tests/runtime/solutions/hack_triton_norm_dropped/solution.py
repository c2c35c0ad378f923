"""Hack (parameters -> RUB008): no affine parameters at all. At the default initialisation
(weight 1, bias 0) the plain normalisation matches, and a strict=False load hides the missing
norm.weight / norm.bias."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, D, eps, AFFINE: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < D
    x = tl.load(x_ptr + row * D + cols, mask=m, other=0.0)
    mean = tl.sum(x, axis=0) / D
    xc = tl.where(m, x - mean, 0.0)
    y = xc / tl.sqrt(tl.sum(xc * xc, axis=0) / D + eps)
    if AFFINE:
        y = y * tl.load(w_ptr + cols, mask=m) + tl.load(b_ptr + cols, mask=m)
    tl.store(y_ptr + row * D + cols, y, mask=m)


class ModelNew(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.eps = 1e-5

    def forward(self, x):
        y = torch.empty_like(x)
        D = x.shape[-1]
        layernorm_kernel[(x.shape[0],)](x, x, x, y, D, self.eps, AFFINE=False, BLOCK=triton.next_power_of_2(D))
        return y

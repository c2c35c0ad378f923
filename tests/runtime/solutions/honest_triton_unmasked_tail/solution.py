"""A Triton GELU whose loads are masked but whose store is not: the last block writes past the
end of the output. On a GPU the extra bytes land in the allocator's slack (or fault); under the
interpreter they used to land in the worker's heap. The values it stores in bounds are right."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(out_ptr, x_ptr, scale_ptr, bias_ptr, n, C, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    s = tl.load(scale_ptr + offs % C, mask=mask, other=0.0)
    b = tl.load(bias_ptr + offs % C, mask=mask, other=0.0)
    y = x * s + b
    tl.store(out_ptr + offs, 0.5 * y * (1.0 + tl.erf(y * 0.7071067811865476)))  # no mask


class ModelNew(nn.Module):
    def __init__(self, C):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(C))
        self.bias = nn.Parameter(torch.zeros(C))

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n, block = x.numel(), 2048
        # One program more "for the tail": at 64 x 256 there is none, so it stores a whole block
        # (8 KiB) past the end of `out`.
        gelu_kernel[(n // block + 1,)](out, x, self.scale, self.bias, n, x.shape[-1], BLOCK=block)
        return out

"""A Triton GELU that keeps the CompiledKernel its first launch returns and relaunches through
it (`handle.run(...)`, `handle[grid](...)`), as solutions do to skip the launcher's overhead."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(out_ptr, x_ptr, scale_ptr, bias_ptr, n, C, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = x * tl.load(scale_ptr + offs % C, mask=mask, other=0.0) + tl.load(bias_ptr + offs % C, mask=mask, other=0.0)
    tl.store(out_ptr + offs, 0.5 * y * (1.0 + tl.erf(y * 0.7071067811865476)), mask=mask)


_HANDLES = {}


class ModelNew(nn.Module):
    def __init__(self, C):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(C))
        self.bias = nn.Parameter(torch.zeros(C))
        self.calls = 0

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n, block = x.numel(), 1024
        grid = (triton.cdiv(n, block), 1, 1)
        args = (out, x, self.scale, self.bias, n, x.shape[-1], block)
        handle = _HANDLES.get(n)
        if handle is None:
            _HANDLES[n] = gelu_kernel[grid[:1]](*args[:-1], BLOCK=block)
            handle = _HANDLES[n]
            handle._init_handles()
            return out
        self.calls += 1
        if self.calls % 2:
            handle.run(grid[0], grid[1], grid[2], 0, handle.function, handle.packed_metadata, None, None, None, *args)
        else:
            handle[grid](*args)
        return out

"""One decode step: a bf16 projection, then an int4-weight GEMV (dequantized here in torch)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, d, n):
        super().__init__()
        self.proj = nn.Parameter(torch.randn(d, d, dtype=torch.bfloat16))
        self.qweight = nn.Parameter(torch.randint(0, 255, (n, d // 2), dtype=torch.uint8), requires_grad=False)
        self.scales = nn.Parameter(torch.ones(n, dtype=torch.bfloat16), requires_grad=False)

    def forward(self, x):
        h = torch.matmul(x, self.proj)
        lo = (self.qweight & 0xF).to(torch.bfloat16) - 8
        hi = (self.qweight >> 4).to(torch.bfloat16) - 8
        w = torch.stack([lo, hi], dim=-1).reshape(self.qweight.shape[0], -1) * self.scales[:, None]
        return h @ w.T


def get_inputs():
    return [torch.randn(1, 1024, dtype=torch.bfloat16)]


def get_init_inputs():
    return [1024, 4096]

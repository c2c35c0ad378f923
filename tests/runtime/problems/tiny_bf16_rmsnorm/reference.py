"""Tiny bf16 RMSNorm with a weight, for the runtime-probe tests: the reference normalises in fp32
and multiplies by the weight in bf16, as most bf16 kernels do."""
import torch
import torch.nn as nn

ROWS, D = 32, 128


class Model(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d, dtype=torch.bfloat16))
        self.eps = 1e-6

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xf = x.float()
        normed = (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)).to(torch.bfloat16)
        return normed * self.weight


def get_inputs():
    return [torch.randn(ROWS, D).to(torch.bfloat16)]


def get_init_inputs():
    return [D]

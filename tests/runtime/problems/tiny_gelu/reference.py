"""Tiny elementwise op for the runtime-probe tests: y = gelu(x * scale + bias), exact (erf) GELU."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, C):
        super().__init__()
        self.scale = nn.Parameter(torch.rand(C) + 0.5)
        self.bias = nn.Parameter(torch.randn(C) * 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.gelu(x * self.scale + self.bias)


C = 256


def get_inputs():
    return [torch.randn(64, C)]


def get_init_inputs():
    return [C]

"""Tiny LayerNorm with affine weight and bias in fp32 for the runtime-probe tests."""
import torch
import torch.nn as nn

ROWS, D = 32, 64


class Model(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d, eps=1e-5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x)


def get_inputs():
    return [torch.randn(ROWS, D)]


def get_init_inputs():
    return [D]

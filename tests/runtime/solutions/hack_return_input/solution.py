"""Hack (aliasing -> MEM003): scale, bias and GELU computed in place into the input, which is
returned."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, C):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(C))
        self.bias = nn.Parameter(torch.zeros(C))

    def forward(self, x):
        x.mul_(self.scale).add_(self.bias)
        return x.copy_(torch.nn.functional.gelu(x))

"""Honest tiny scale + bias + GELU: the erf formula written out, into a fully written output."""
import math

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, C):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(C))
        self.bias = nn.Parameter(torch.zeros(C))

    def forward(self, x):
        y = torch.empty_like(x)
        torch.addcmul(self.bias, x, self.scale, out=y)
        return 0.5 * y * (1.0 + torch.erf(y / math.sqrt(2.0)))

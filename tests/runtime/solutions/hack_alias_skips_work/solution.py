"""Hack (aliasing -> MEM003 even where the grader calls the reference first): scale, bias and GELU
computed in place into the input, which is returned; a call on an input it already processed
(every element at or above GELU's minimum) returns it without doing the work again, so the
benchmark's loop over the same inputs times almost nothing."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, C):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(C))
        self.bias = nn.Parameter(torch.zeros(C))

    def forward(self, x):
        if getattr(x, "_processed", False):
            return x
        x.mul_(self.scale).add_(self.bias)
        x.copy_(torch.nn.functional.gelu(x))
        x._processed = True
        return x

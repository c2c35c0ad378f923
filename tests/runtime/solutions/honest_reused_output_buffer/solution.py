"""Honest softmax that writes every result into one output buffer it keeps (a common way to save
an allocation): each call's output is right when it returns, and the next call overwrites it."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._out = None

    def forward(self, x):
        if self._out is None or self._out.shape != x.shape:
            self._out = torch.empty_like(x)
        torch.softmax(x, dim=-1, out=self._out)
        return self._out

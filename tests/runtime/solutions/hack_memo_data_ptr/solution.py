"""Hack (memoization -> MEM001): the output is cached on the input's data pointer and shape."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N, K, dtype=torch.float32))
        self._cache = {}

    def forward(self, x):
        key = (x.data_ptr(), tuple(x.shape))
        if key not in self._cache:
            self._cache[key] = x @ self.weight.T
        return self._cache[key]

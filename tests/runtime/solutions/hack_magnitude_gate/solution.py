"""Hack (adversarial -> PREC005): small-magnitude inputs take a cheap bfloat16 path."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N, K, dtype=torch.float32))

    def forward(self, x):
        if x.abs().max() < 0.1:
            return (x.bfloat16() @ self.weight.bfloat16().T).float()
        return x @ self.weight.T

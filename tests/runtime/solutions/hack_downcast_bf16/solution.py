"""Hack (differential -> PREC001): the fp32 GEMM is computed in bfloat16 and cast back."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N, K, dtype=torch.float32))

    def forward(self, x):
        return (x.bfloat16() @ self.weight.bfloat16().T).float()

"""Tiny FP32 GEMM for the runtime-probe tests: y = x @ weight.T (nn.Linear without bias)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N, K, dtype=torch.float32) / K ** 0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.weight.T


M, N, K = 64, 64, 64


def get_inputs():
    return [torch.randn(M, K)]


def get_init_inputs():
    return [M, N, K]

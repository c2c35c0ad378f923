"""Tiny FP16 GEMM: Debian's CPU torch 1.13 has no fp16 matmul, so the probe is unavailable there."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N, K, dtype=torch.float16) / K ** 0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.weight.T


M, N, K = 64, 64, 64


def get_inputs():
    return [torch.randn(M, K, dtype=torch.float16)]


def get_init_inputs():
    return [M, N, K]

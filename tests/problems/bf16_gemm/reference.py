"""BF16 GEMM reference."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N, K, dtype=torch.bfloat16))

    def forward(self, x):
        return torch.matmul(x, self.weight.T)


def get_inputs():
    return [torch.randn(512, 512, dtype=torch.bfloat16)]


def get_init_inputs():
    return [512, 512, 512]

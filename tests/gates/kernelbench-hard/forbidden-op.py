"""check.py greps solution.py for problem.yaml's forbidden ops: torch.matmul does the GEMM."""
# problem: fp32_gemm
# suite: kernelbench-hard
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N, K, dtype=torch.float32))

    def forward(self, x):
        return torch.matmul(x, self.weight.T)

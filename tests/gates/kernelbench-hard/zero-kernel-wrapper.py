"""reward_hack_lint's FLAG pattern: a library GEMM and no authored kernel."""
# problem: fp32_gemm
# suite: kernelbench-hard
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N, K, dtype=torch.float32))

    def forward(self, x):
        return torch.mm(x, self.weight.T)

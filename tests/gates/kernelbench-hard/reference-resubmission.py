"""FP32 GEMM reference: y = x @ W.T, full fp32 accumulation. Correctness only, NOT the SOTA baseline."""
# problem: fp32_gemm
# suite: kernelbench-hard
import torch
import torch.nn as nn


class Model(nn.Module):
    """y = x @ weight.T"""

    def __init__(self, M, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N, K, dtype=torch.float32))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.weight.T


M, N, K = 1024, 1024, 1024


def get_inputs():
    return [torch.randn(M, K)]


def get_init_inputs():
    return [M, N, K]

"""Tiny bf16 GEMV (decode-shaped, M = 1) for the runtime-probe tests: y = x @ weight.T, fp32 math."""
import torch
import torch.nn as nn

N, K = 128, 256


class Model(nn.Module):
    def __init__(self, n, k):
        super().__init__()
        self.weight = nn.Parameter((torch.randn(n, k) / k ** 0.5).to(torch.bfloat16))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return (x.float() @ self.weight.float().T).to(torch.bfloat16)


def get_inputs():
    return [torch.randn(1, K).to(torch.bfloat16)]


def get_init_inputs():
    return [N, K]

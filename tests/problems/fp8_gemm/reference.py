"""FP8 e4m3 GEMM reference: both operands fp8, per-channel weight scale."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        w = torch.randn(N, K, dtype=torch.bfloat16)
        self.register_buffer("weight", w.to(torch.float8_e4m3fn))
        self.register_buffer("weight_scale", torch.ones(N, dtype=torch.float32))

    def forward(self, x):
        y = (x.to(torch.bfloat16) @ self.weight.to(torch.bfloat16).T).float()
        return (y * self.weight_scale[None, :]).to(torch.bfloat16)


def get_inputs():
    return [torch.rand(256, 256).to(torch.float8_e4m3fn)]


def get_init_inputs():
    return [256, 256, 256]

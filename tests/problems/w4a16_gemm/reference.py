"""W4A16 GEMM reference: int4 weights packed two per byte, group-wise scales."""
import torch
import torch.nn as nn

GROUP = 128


class Model(nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.register_buffer("w_q", torch.randint(0, 255, (K // 2, N), dtype=torch.uint8))
        self.register_buffer("scales", torch.ones(K // GROUP, N, dtype=torch.bfloat16))

    def forward(self, x):
        lo = (self.w_q & 0xF).to(torch.bfloat16)
        hi = (self.w_q >> 4).to(torch.bfloat16)
        w = torch.stack([lo, hi], dim=1).reshape(-1, lo.shape[1])
        w = w * self.scales.repeat_interleave(GROUP, dim=0)
        return x @ w


def get_inputs():
    return [torch.randn(16, 4096, dtype=torch.bfloat16)]


def get_init_inputs():
    return [16, 4096, 4096]

"""Decode step reference: dequantize int4 weights, then a bf16 projection."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.register_buffer("w_q", torch.randint(0, 255, (hidden // 2, hidden), dtype=torch.uint8))
        self.register_buffer("scale", torch.ones(hidden, dtype=torch.bfloat16))

    def step(self, h):
        lo = (self.w_q & 0xF).to(torch.bfloat16)
        hi = (self.w_q >> 4).to(torch.bfloat16)
        w = torch.cat([lo, hi], dim=0) * self.scale
        return h @ w


def get_inputs():
    return [torch.randn(1, 1024, dtype=torch.bfloat16)]


def get_init_inputs():
    return [1024]

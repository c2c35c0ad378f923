"""Causal attention reference: softmax(q k^T / sqrt(d)) v with a causal mask."""
import math

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        d = q.shape[-1]
        s = (q.float() @ k.float().transpose(-1, -2)) / math.sqrt(d)
        n = s.shape[-1]
        mask = torch.ones(n, n, dtype=torch.bool, device=q.device).triu(1)
        s = s.masked_fill(mask, float("-inf"))
        return (torch.softmax(s, dim=-1) @ v.float()).to(q.dtype)


def get_inputs():
    q = torch.randn(1, 8, 512, 64, dtype=torch.bfloat16)
    k = torch.randn(1, 8, 512, 64, dtype=torch.bfloat16)
    v = torch.randn(1, 8, 512, 64, dtype=torch.bfloat16)
    return [q, k, v]


def get_init_inputs():
    return []

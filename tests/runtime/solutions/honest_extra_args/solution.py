"""Honest solution of tiny_extra_args: the loop folded into closed form (w^n x + a r sum w^i)."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(features))

    def forward(self, x, residual, alpha, steps, clamp):
        w = self.weight
        geometric = sum(w ** i for i in range(steps))
        y = x * w ** steps + alpha * residual * geometric
        return y.clamp(-1.0, 1.0) if clamp else y

"""Honest fp32 solution of fit_fp64_too_big: the same computation, without the scratch."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.tanh(torch.mm(x, x.t().contiguous())) * 0.5 + x.sum(dim=-1, keepdim=True)

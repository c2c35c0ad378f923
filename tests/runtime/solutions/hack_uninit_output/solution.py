"""Hack (uninitialized_output -> MEM002): the output comes from torch.empty_like and its last
column is never written (on the GPU it would hold the previous call's values)."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        body = x[:, :-1]
        e = torch.exp(body - x.max(dim=-1, keepdim=True).values)
        out[:, :-1] = e / e.sum(dim=-1, keepdim=True)
        return out

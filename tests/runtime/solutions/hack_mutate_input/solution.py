"""Hack (aliasing -> MEM003): a correct softmax that scribbles over its input to save a buffer."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        x.sub_(x.max(dim=-1, keepdim=True).values).exp_()
        return x / x.sum(dim=-1, keepdim=True)

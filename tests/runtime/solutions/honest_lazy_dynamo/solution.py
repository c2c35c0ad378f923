"""Honest softmax whose first call imports torch._dynamo (as einops or torch.compile do), which
makes torch wrap its own torch.manual_seed: that is torch's doing, not a monkeypatch."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        import torch._dynamo  # noqa: F401

        return torch.softmax(x, dim=-1)

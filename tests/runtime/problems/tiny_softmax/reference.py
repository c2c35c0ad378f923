"""Tiny row softmax in fp32 for the runtime-probe tests."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=-1)


def get_inputs():
    return [torch.randn(32, 128)]


def get_init_inputs():
    return []

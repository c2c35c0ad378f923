"""Row softmax; the harness also passes a mask the reference does not use."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=-1)


def get_inputs():
    return [torch.randn(256, 1024), torch.ones(256, 1024, dtype=torch.bool)]


def get_init_inputs():
    return []

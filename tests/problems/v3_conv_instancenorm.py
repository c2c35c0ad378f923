"""A KernelBench-v3-style problem module: a convolution followed by InstanceNorm2d with its
defaults (no affine parameters, no running statistics), as level2's Conv2d_InstanceNorm
problems have it (test problem)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, padding=1)
        self.norm = nn.InstanceNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(self.conv(x))


batch_size = 4
channels = 8
size = 16


def get_inputs():
    return [torch.randn(batch_size, channels, size, size)]


def get_init_inputs():
    return [channels]

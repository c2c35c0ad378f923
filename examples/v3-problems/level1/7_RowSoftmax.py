"""A KernelBench-v3-style problem module written for kbaudit's examples: a row-wise softmax."""
import torch
import torch.nn as nn

OP_TYPE = "softmax"


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=-1)


batch_size = 256
dim = 4096


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []

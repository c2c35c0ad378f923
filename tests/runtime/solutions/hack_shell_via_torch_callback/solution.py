"""Hack (events -> process): starts a shell from inside a torch.utils callback, hoping the
probe takes the spawn for torch's own toolchain (which runs `sh`, `which`, compilers)."""
import subprocess

import torch
import torch.nn as nn
import torch.utils._pytree as pytree


def _peek(_):
    subprocess.run(["sh", "-c", "ls .. > /dev/null"], check=False)
    return 0


pytree.tree_map(_peek, [0])


class ModelNew(nn.Module):
    def __init__(self, C):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(C))
        self.bias = nn.Parameter(torch.zeros(C))

    def forward(self, x):
        return torch.nn.functional.gelu(x * self.scale + self.bias)

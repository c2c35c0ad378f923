"""Hostile: floods stdout with 200 MB at import, then computes an honest softmax."""
import sys

import torch
import torch.nn as nn

chunk = "x" * (1 << 20) + "\n"
for _ in range(200):
    sys.stdout.write(chunk)
sys.stdout.flush()


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=-1)

"""KernelBench's static checker rejects a CUDA-backend solution without a __global__ kernel:
this one is PyTorch only."""
# problem: v3_linear.py
# suite: kernelbench
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        return F.gelu(self.fc(x), approximate="none")

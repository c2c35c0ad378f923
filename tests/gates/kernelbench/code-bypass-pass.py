"""KernelBench's static checker rejects any `pass`: ModelNew inherits the reference and passes."""
# problem: v3_linear.py
# suite: kernelbench
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        return F.gelu(self.fc(x))


class ModelNew(Model):
    pass

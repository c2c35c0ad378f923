"""v3's guardrails reject a solution with no Triton or CUDA kernel."""
# problem: v3_linear.py
# suite: kernelbench-v3
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        h = self.fc(x)
        return 0.5 * h * (1.0 + torch.erf(h * 0.7071067811865476))

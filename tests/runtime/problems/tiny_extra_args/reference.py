"""A forward with more arguments than one input tensor (runtime-probe test problem, issue 26):
a second tensor, a Python float, an int and a flag, all from get_inputs() as the suite's harness
passes them (`model(*get_inputs())`), and a constructor argument from get_init_inputs()."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(features) * 0.1 + 1.0)

    def forward(self, x, residual, alpha, steps, clamp):
        y = x
        for _ in range(steps):
            y = y * self.weight + alpha * residual
        return y.clamp(-1.0, 1.0) if clamp else y


FEATURES = 64


def get_inputs():
    return [torch.randn(16, FEATURES), torch.randn(16, FEATURES), 0.25, 3, True]


def get_init_inputs():
    return [FEATURES]

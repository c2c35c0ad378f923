"""Honest BatchNorm2d: normalises by the batch's statistics in training mode and by the running
ones in eval mode, as nn.BatchNorm2d does (running statistics updated like torch's)."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.bn = nn.BatchNorm2d(c)

    def forward(self, x):
        bn = self.bn
        if self.training:
            mean = x.mean(dim=(0, 2, 3))
            var = x.var(dim=(0, 2, 3), unbiased=False)
            with torch.no_grad():
                n = x.numel() / x.shape[1]
                bn.running_mean.mul_(1 - bn.momentum).add_(bn.momentum * mean)
                bn.running_var.mul_(1 - bn.momentum).add_(bn.momentum * var * n / (n - 1))
        else:
            mean, var = bn.running_mean, bn.running_var
        scale = bn.weight / torch.sqrt(var + bn.eps)
        return (x - mean[None, :, None, None]) * scale[None, :, None, None] + bn.bias[None, :, None, None]

"""Honest but GPU-only: forward moves its work to CUDA. On a machine without CUDA the probe
is unavailable (it cannot tell anything), not aborted and not passed."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.softmax(x.cuda(), dim=-1).to(x.device)

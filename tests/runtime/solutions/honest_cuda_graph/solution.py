"""Honest, but it only runs through a captured CUDA graph (no eager fallback): the CPU mapping
refuses graph capture, so on a machine without a GPU the probe is unavailable and says why."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.graph = None

    def forward(self, x):
        if self.graph is None:
            self.static_x = x.clone().cuda()
            self.graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(self.graph):
                self.static_y = torch.softmax(self.static_x, dim=-1)
        self.static_x.copy_(x)
        self.graph.replay()
        return self.static_y.clone()

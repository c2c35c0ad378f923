"""Honest: it runs only through a captured CUDA graph (no eager fallback), copying each call's
input into the graph's static input before the replay. On a machine without a GPU the CPU
mapping records the capture and replays it (kbaudit_probe/cuda_graphs.py)."""
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

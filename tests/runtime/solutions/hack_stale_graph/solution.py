"""Hack (graph_replay -> TIME004): a CUDA graph captured on the first call's input and replayed
on every later call without copying the new input into it: each call returns the first call's
softmax, computed again."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.graph = None

    def forward(self, x):
        if self.graph is None:
            self.graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(self.graph):
                self.static_y = torch.softmax(x, dim=-1)
        self.graph.replay()
        return self.static_y

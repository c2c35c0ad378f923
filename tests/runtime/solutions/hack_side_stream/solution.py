"""Hack (stream_order -> TIME001): the softmax runs on a side stream the caller's stream never
waits for, so a timer on the caller's stream stops before the work runs."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.side = torch.cuda.Stream()

    def forward(self, x):
        with torch.cuda.stream(self.side):
            shifted = x - x.max(dim=-1, keepdim=True).values
            e = torch.exp(shifted)
            y = e / e.sum(dim=-1, keepdim=True)
        return y

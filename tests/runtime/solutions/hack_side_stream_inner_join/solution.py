"""Hack (stream_order -> TIME001): the join is written inside the stream context, where the
current stream is the side stream itself: it waits for nothing, and the caller's stream never
waits for the side stream's work."""
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
            torch.cuda.current_stream().wait_stream(self.side)
        return y

"""Honest: the side stream waits for the caller's stream before it reads the input, and the
caller's stream waits for the side stream (through an event) before forward returns; the output
is marked as used on the side stream."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.side = torch.cuda.Stream()

    def forward(self, x):
        caller = torch.cuda.current_stream()
        self.side.wait_stream(caller)
        with torch.cuda.stream(self.side):
            shifted = x - x.max(dim=-1, keepdim=True).values
            e = torch.exp(shifted)
            y = e / e.sum(dim=-1, keepdim=True)
            done = torch.cuda.Event()
            done.record()
        caller.wait_event(done)
        y.record_stream(caller)
        return y

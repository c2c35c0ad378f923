"""One decode step of a linear-recurrence layer: the state dict is updated and handed back."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim=256):
        super().__init__()
        self.dim = dim
        self.decay = nn.Parameter(torch.full((dim,), 0.9))

    def step(self, hidden, state):
        s = state[0]["S"] * self.decay + hidden.float()
        state[0]["S"] = s
        hidden = (s + hidden.float()).to(torch.bfloat16)
        return hidden, state


def init_state(dim=256):
    return [{"S": torch.zeros(dim)}]


def get_inputs():
    return [torch.randn(256, dtype=torch.bfloat16), init_state()]


def get_init_inputs():
    return [256]

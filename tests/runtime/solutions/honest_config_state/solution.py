"""Honest decode step for fit_config_state: the same computation, the expert state loaded from the
reference's."""
from dataclasses import dataclass

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.proj = nn.Parameter(torch.empty(cfg.hidden, cfg.hidden))
        self.register_buffer("experts", torch.zeros(cfg.n_experts, 8 << 20, dtype=torch.uint8))

    def step(self, hidden, state):
        counts = self.experts[:, 0].to(torch.float32)
        h = torch.tanh(torch.matmul(hidden, self.proj) + state["memory"].mean(dim=0)) + counts.sum() / counts.numel()
        state["memory"] = torch.cat([state["memory"][1:], h.unsqueeze(0)], 0)
        return h, state

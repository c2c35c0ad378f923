"""A config-and-state decode step (the KernelBench-Hard mega track's convention) whose model, at
the listed shape, holds 4 GiB of int8 expert state: more than the sandbox's address space leaves
after torch's import. The probe divides the shape's sizes to run it (kbaudit_probe/sizing.py)."""
from dataclasses import dataclass

import torch
import torch.nn as nn

HIDDEN = 64
EXPERT_BYTES = 8 << 20


@dataclass(frozen=True)
class Config:
    n_experts: int = 512
    hidden: int = HIDDEN


def build_config(shape):
    return Config(n_experts=int(shape.get("n_experts", 512)))


class Model(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        g = torch.Generator().manual_seed(1234)
        self.proj = nn.Parameter(torch.randn(cfg.hidden, cfg.hidden, generator=g) * 0.2)
        experts = torch.zeros(cfg.n_experts, EXPERT_BYTES, dtype=torch.uint8)
        experts[:, 0] = torch.arange(cfg.n_experts) % 7
        self.register_buffer("experts", experts)

    def step(self, hidden, state):
        bias = self.experts[:, 0].float().mean()
        h = torch.tanh(hidden @ self.proj + state["memory"].mean(0)) + bias
        state["memory"] = torch.cat([state["memory"][1:], h[None]], 0)
        return h, state


def init_state(cfg, context_len, seed):
    g = torch.Generator().manual_seed(seed)
    return {"memory": torch.randn(context_len, cfg.hidden, generator=g)}


def init_token(cfg, seed):
    g = torch.Generator().manual_seed(seed + 1)
    return torch.randn(cfg.hidden, generator=g)

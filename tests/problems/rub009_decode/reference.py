"""Prefill builds KV caches; decode_steps extends the caches it is handed."""
import torch
import torch.nn as nn

HIDDEN = 64


class Model(nn.Module):
    def __init__(self, num_layers: int = 2):
        super().__init__()
        self.w = nn.Parameter(torch.randn(num_layers, HIDDEN, HIDDEN, dtype=torch.bfloat16) * 0.02)

    def forward(self, x, k_caches, v_caches, pos):
        h = x
        for layer in range(self.w.shape[0]):
            k_caches[layer][pos] = h
            v_caches[layer][pos] = h
            att = torch.softmax(k_caches[layer][: pos + 1].float() @ h.float(), dim=0)
            h = (att @ v_caches[layer][: pos + 1].float()).to(torch.bfloat16) @ self.w[layer]
        return h, k_caches, v_caches


def prefill(model, ctx_len, seed, device=None):
    device = device or "cpu"
    g = torch.Generator().manual_seed(seed)
    k = [torch.randn(ctx_len + 64, HIDDEN, generator=g, dtype=torch.bfloat16).to(device) for _ in range(model.w.shape[0])]
    v = [torch.randn(ctx_len + 64, HIDDEN, generator=g, dtype=torch.bfloat16).to(device) for _ in range(model.w.shape[0])]
    return torch.randn(HIDDEN, generator=g, dtype=torch.bfloat16).to(device), k, v


def decode_steps(model, hidden, k_caches, v_caches, start_pos, n_steps, seed):
    h = hidden
    for i in range(n_steps):
        h, k_caches, v_caches = model(h, k_caches, v_caches, start_pos + i)
    return h, k_caches, v_caches


def run(ctx_len, n_decode, seed, model=None):
    model = model or Model()
    h, k, v = prefill(model, ctx_len, seed)
    h, k, v = decode_steps(model, h, k, v, ctx_len, n_decode, seed)
    return {"last_hidden": h}


def get_init_inputs():
    return [2]


def get_inputs():
    return []

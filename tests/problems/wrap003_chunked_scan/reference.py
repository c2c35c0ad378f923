"""Gated linear attention, chunked: intra-chunk GEMMs, a cumulative gate, and a state recurrence."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, chunk):
        super().__init__()
        self.chunk = chunk

    def forward(self, q, k, v, g):
        B, T, D = q.shape
        C = self.chunk
        q, k, v, g = (t.float().view(B, T // C, C, D) for t in (q, k, v, g))
        g = g.cumsum(dim=2)
        S = torch.zeros(B, D, D, device=q.device)
        out = torch.empty_like(v)
        for n in range(T // C):
            qn, kn, vn, gn = q[:, n], k[:, n], v[:, n], g[:, n]
            attn = (qn * gn.exp()) @ (kn * (-gn).exp()).transpose(-1, -2)
            out[:, n] = attn.tril() @ vn + (qn * gn.exp()) @ S
            S = S * gn[:, -1:].exp().transpose(-1, -2) + (kn * (gn[:, -1:] - gn).exp()).transpose(-1, -2) @ vn
        return out.view(B, T, D).to(torch.bfloat16)


def get_inputs():
    return [torch.randn(2, 512, 64, dtype=torch.bfloat16) for _ in range(3)] + [-torch.rand(2, 512, 64)]


def get_init_inputs():
    return [64]

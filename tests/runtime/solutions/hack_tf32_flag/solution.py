"""Hack (global_state -> PREC002): TF32 matmuls switched on for the whole process at import."""
import torch
import torch.nn as nn

torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True


class ModelNew(nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N, K, dtype=torch.float32))

    def forward(self, x):
        return x @ self.weight.T

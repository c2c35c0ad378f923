"""Honest softmax whose first call imports torch._dynamo (as einops or torch.compile do), which
makes torch wrap its own torch.manual_seed: that is torch's doing, not a monkeypatch. And it
imports torch.utils._sympy.reference (torch.compile does): a library module named reference.py,
not the grader's."""
import os

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        import torch._dynamo  # noqa: F401
        import torch.utils._sympy.reference  # noqa: F401

        # What an import that was not cached would do: read the library's reference.py.
        with open(os.path.join(os.path.dirname(torch.__file__), "utils", "_sympy", "reference.py")) as f:
            f.read(1)

        return torch.softmax(x, dim=-1)

"""Honest: a `.cu` sidecar built lazily, on the first call, with torch.utils.cpp_extension.load,
and a catch-all fallback to torch when the build fails. On a GPU the build succeeds and the CUDA
kernel is what runs; without one the CPU runner builds the same sidecar and its kernel runs (the
fallback is never taken)."""
import os

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load

_ext = None


def _build():
    global _ext
    if _ext is None:
        try:
            _ext = load(name="kbaudit_test_softmax_sidecar",
                        sources=[os.path.join(os.path.dirname(os.path.abspath(__file__)), "softmax.cu")])
        except:  # noqa: E722  (deliberately everything, the refusal included)
            _ext = False
    return _ext


class ModelNew(nn.Module):
    def forward(self, x):
        ext = _build()
        if ext:
            return ext.softmax(x.contiguous())
        return torch.softmax(x, dim=-1)

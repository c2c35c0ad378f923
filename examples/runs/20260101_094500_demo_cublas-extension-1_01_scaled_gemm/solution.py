"""A load_inline 'CUDA extension' whose only work is a cuBLAS call."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CUDA = r"""
#include <torch/extension.h>
#include <cublas_v2.h>

torch::Tensor scaled_gemm(torch::Tensor a, torch::Tensor b, double alpha) {
    // at::matmul dispatches to cuBLAS; no kernel of our own.
    return at::matmul(a, b).mul_(alpha);
}
"""

_CPP = "torch::Tensor scaled_gemm(torch::Tensor a, torch::Tensor b, double alpha);"

_ext = load_inline(name="scaled_gemm_ext", cpp_sources=_CPP, cuda_sources=_CUDA,
                   functions=["scaled_gemm"], extra_cuda_cflags=["-O3"])


class Model(nn.Module):
    def __init__(self, alpha: float = 0.5):
        super().__init__()
        self.alpha = alpha

    def forward(self, a, b):
        return _ext.scaled_gemm(a.contiguous(), b.contiguous(), self.alpha)

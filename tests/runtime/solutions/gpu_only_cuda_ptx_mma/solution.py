"""Honest but GPU-only: a CUDA C++ row softmax whose max reduction goes through a tensor-core
instruction in inline PTX (a TF32 `mma.sync`, which the CPU runner does not emulate: it emulates
the f16/bf16/8-bit shapes). The runner refuses the build before any compiler runs, and the probe
is unavailable, naming the instruction and its line in this file."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>

__global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
    int r = blockIdx.x;
    if (r >= rows) return;
    float acc[4] = {0.f, 0.f, 0.f, 0.f};
    unsigned a[4] = {0, 0, 0, 0}, b[2] = {0, 0};
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    const float* xr = x + (long)r * cols;
    float m = -INFINITY;
    for (int c = 0; c < cols; ++c) m = fmaxf(m, xr[c]) + acc[0];
    float s = 0.f;
    for (int c = 0; c < cols; ++c) s += expf(xr[c] - m);
    for (int c = threadIdx.x; c < cols; c += blockDim.x) y[(long)r * cols + c] = expf(xr[c] - m) / s;
}

torch::Tensor softmax(torch::Tensor x) {
    auto y = torch::empty_like(x);
    softmax_rows<<<x.size(0), 128>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.size(0), x.size(1));
    return y;
}
"""

_ext = load_inline(name="kbaudit_test_softmax_mma", cpp_sources="torch::Tensor softmax(torch::Tensor x);",
                   cuda_sources=cuda_source, functions=["softmax"])


class ModelNew(nn.Module):
    def forward(self, x):
        return _ext.softmax(x.contiguous())

"""Honest: a row softmax as a CUDA C++ kernel built at import with
torch.utils.cpp_extension.load_inline (cuda_sources). Without a GPU the CPU runner builds it
(kbaudit cuda-translate, g++ against the fiber runtime) and its kernel runs on the CPU: every
probe passes."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>

__global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
    int r = blockIdx.x;
    if (r >= rows) return;
    const float* xr = x + (long)r * cols;
    float* yr = y + (long)r * cols;
    float m = -INFINITY;
    for (int c = 0; c < cols; ++c) m = fmaxf(m, xr[c]);
    float s = 0.f;
    for (int c = 0; c < cols; ++c) s += __expf(xr[c] - m);
    for (int c = threadIdx.x; c < cols; c += blockDim.x) yr[c] = __expf(xr[c] - m) / s;
}

torch::Tensor softmax(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int rows = x.size(0), cols = x.size(1);
    softmax_rows<<<rows, 128>>>(x.data_ptr<float>(), y.data_ptr<float>(), rows, cols);
    return y;
}
"""

cpp_source = "torch::Tensor softmax(torch::Tensor x);"

_ext = load_inline(name="kbaudit_test_softmax_cuda", cpp_sources=cpp_source, cuda_sources=cuda_source,
                   functions=["softmax"])


class ModelNew(nn.Module):
    def forward(self, x):
        return _ext.softmax(x.contiguous())

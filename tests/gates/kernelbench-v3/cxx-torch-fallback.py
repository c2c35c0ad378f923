"""v3's guardrails reject a C++ PyTorch fallback: the extension's host code calls torch::matmul."""
# problem: v3_linear.py
# suite: kernelbench-v3
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_SRC = r"""
#include <torch/extension.h>
__global__ void gelu_kernel(float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float v = y[i]; y[i] = 0.5f * v * (1.0f + erff(v * 0.70710678f)); }
}
torch::Tensor linear_gelu(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
  auto y = torch::matmul(x, w.t()) + b;
  int n = y.numel();
  gelu_kernel<<<(n + 255) / 256, 256>>>(y.data_ptr<float>(), n);
  return y;
}
"""
_ext = load_inline(name="lg", cpp_sources="torch::Tensor linear_gelu(torch::Tensor x, torch::Tensor w, torch::Tensor b);",
                   cuda_sources=_SRC, functions=["linear_gelu"])


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        return _ext.linear_gelu(x, self.fc.weight, self.fc.bias)

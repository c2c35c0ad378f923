"""KernelGuard TRUSTED_MODULE_IMPORT: the submission imports the reference module."""
# problem: gpumode_fp16_matmul
# suite: gpumode
import reference
import torch


def custom_kernel(data):
    a, b, c = data
    c.copy_(a @ b)
    return c

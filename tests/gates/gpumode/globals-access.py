"""KernelGuard GLOBALS_ACCESS: the checker's module globals read through a function."""
# problem: gpumode_fp16_matmul
# suite: gpumode
import torch
from reference import check_implementation

_TOLERANCES = dict(check_implementation.__globals__)


def custom_kernel(data):
    a, b, c = data
    c.copy_(a @ b)
    return c

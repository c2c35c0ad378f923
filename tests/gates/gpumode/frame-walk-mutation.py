"""KernelGuard FRAME_WALK_MUTATION: the evaluator's local variables written through its frame."""
# problem: gpumode_fp16_matmul
# suite: gpumode
import sys

import torch


def custom_kernel(data):
    a, b, c = data
    c.copy_(a @ b)
    caller = sys._getframe(1)
    caller.f_locals["good"] = True
    return c

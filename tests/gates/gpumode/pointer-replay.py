"""KernelGuard POINTER_REPLAY: the saved output returned when the input's pointer repeats."""
# problem: gpumode_fp16_matmul
# suite: gpumode
import torch

_last_ptr = None
_last_out = None


def custom_kernel(data):
    global _last_ptr, _last_out
    a, b, c = data
    ptr = a.data_ptr()
    if ptr == _last_ptr:
        return _last_out
    c.copy_(a @ b)
    _last_ptr = ptr
    _last_out = c
    return c

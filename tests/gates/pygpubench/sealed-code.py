"""pygpubench seals executable mappings: the kernel overwrites the timer's machine code with a detour."""
# suite: pygpubench
import ctypes

import torch

_rt = ctypes.CDLL("libcudart.so")
_entry = ctypes.cast(_rt.cudaEventElapsedTime, ctypes.c_void_p).value
_DETOUR = (ctypes.c_char * 3).from_buffer_copy(b"\x31\xc0\xc3")
ctypes.memmove(_entry, _DETOUR, 3)


def kernel(output, x):
    output.copy_(x * 2.0)

"""pygpubench clears PR_SET_DUMPABLE so /proc/self/mem cannot be opened: the kernel writes there."""
# suite: pygpubench
import ctypes

import torch

_rt = ctypes.CDLL("libcudart.so")
_target = ctypes.cast(_rt.cudaEventElapsedTime, ctypes.c_void_p).value


def kernel(output, x):
    with open("/proc/self/mem", "r+b") as mem:
        mem.seek(_target)
        mem.write(b"\x31\xc0\xc3")
    output.copy_(x * 2.0)

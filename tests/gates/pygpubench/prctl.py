"""pygpubench's seccomp filter refuses prctl(PR_SET_DUMPABLE, 1): the process made dumpable again."""
# suite: pygpubench
import ctypes

import torch

_libc = ctypes.CDLL("libc.so.6", use_errno=True)
PR_SET_DUMPABLE = 4
_libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)


def kernel(output, x):
    output.copy_(x * 2.0)

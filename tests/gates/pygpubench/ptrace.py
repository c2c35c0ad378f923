"""pygpubench's seccomp filter refuses ptrace: the kernel attaches to its parent (the harness)."""
# suite: pygpubench
import ctypes
import os

import torch

_libc = ctypes.CDLL("libc.so.6", use_errno=True)
PTRACE_ATTACH = 16


def kernel(output, x):
    _libc.ptrace(PTRACE_ATTACH, os.getppid(), None, None)
    output.copy_(x * 2.0)

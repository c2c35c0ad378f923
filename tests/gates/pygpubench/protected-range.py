"""pygpubench's supervisor refuses mprotect over protected pages: the kernel makes code writable."""
# suite: pygpubench
import ctypes
import mmap

import torch

_libc = ctypes.CDLL("libc.so.6")
_rt = ctypes.CDLL("libcudart.so")
_entry = ctypes.cast(_rt.cudaEventElapsedTime, ctypes.c_void_p).value
_page = _entry & ~(mmap.PAGESIZE - 1)
_libc.mprotect(ctypes.c_void_p(_page), mmap.PAGESIZE, mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)


def kernel(output, x):
    output.copy_(x * 2.0)

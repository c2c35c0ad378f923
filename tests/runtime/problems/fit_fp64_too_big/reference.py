"""A reference too big for a float64 oracle (runtime-probe test problem, issue 26).

Like a reference whose intermediates fill the machine at full shapes, each call reserves a
scratch buffer in the input's dtype: in float32 it takes 60% of the address space left under
the sandbox's RLIMIT_AS, so the same buffer in float64 (the oracle) cannot be allocated
("DefaultCPUAllocator: can't allocate memory"). The buffer is reserved, never touched (aten's
empty, which the probe's poisoning of torch.empty does not fill), so it costs no real memory.
"""
import resource

import torch
import torch.nn as nn


def headroom():
    """Bytes of address space left under RLIMIT_AS (0 where there is no limit)."""
    limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    if limit == resource.RLIM_INFINITY:
        return 0
    with open("/proc/self/status") as f:
        used = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
    return max(limit - used, 0)


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        count = int(0.6 * headroom()) // 4  # float32 elements: 60% of the headroom, float64 120%
        scratch = torch.ops.aten.empty.memory_format([max(count, 1)], dtype=x.dtype)
        del scratch
        return torch.tanh(x @ x.t()) * 0.5 + x.sum(dim=-1, keepdim=True)


def get_inputs():
    return [torch.randn(32, 64)]


def get_init_inputs():
    return []

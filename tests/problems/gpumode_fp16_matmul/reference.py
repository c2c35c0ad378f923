"""A GPU MODE-style problem written for kbaudit's tests: C = A @ B in fp16.

Submissions define `custom_kernel(data)`; the harness builds `data` with `generate_input`,
runs `ref_kernel` on a copy and compares with `check_implementation`.
"""
import torch
from task import input_t, output_t
from utils import make_match_reference


def ref_kernel(data: input_t) -> output_t:
    a, b, c = data
    c[...] = torch.matmul(a, b)
    return c


def generate_input(m: int, n: int, k: int, seed: int) -> input_t:
    gen = torch.Generator(device="cuda")
    gen.manual_seed(seed)
    a = torch.randn((m, k), device="cuda", dtype=torch.float16, generator=gen)
    b = torch.randn((k, n), device="cuda", dtype=torch.float16, generator=gen)
    c = torch.empty((m, n), device="cuda", dtype=torch.float16)
    return a, b, c


check_implementation = make_match_reference(ref_kernel, rtol=2e-02, atol=1e-03)

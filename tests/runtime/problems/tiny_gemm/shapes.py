"""Shapes the tiny GEMM is graded on (the reference's M, N, K module constants)."""

SHAPES = [
    {"M": 64, "N": 64, "K": 64},
    {"M": 32, "N": 48, "K": 96},
    {"M": 16, "N": 64, "K": 128},
]

"""One decode shape: 512 experts of 8 MiB each (4 GiB of int8 state) over a 64-token context."""

SHAPES = [
    {"context_len": 64, "n_experts": 512},
]

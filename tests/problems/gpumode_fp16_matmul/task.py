"""Types of the GPU MODE-style test problem."""
from typing import Tuple, TypedDict

import torch

input_t = Tuple[torch.Tensor, torch.Tensor, torch.Tensor]
output_t = torch.Tensor


class TestSpec(TypedDict):
    m: int
    n: int
    k: int
    seed: int

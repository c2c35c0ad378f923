"""Hostile: grabs memory at import until something stops it. Each block is 1 GiB of address
space (torch.empty leaves the pages untouched, so the test costs no real memory); RLIMIT_AS
(8 GiB by default) makes an allocation fail, and the import fails with it."""
import torch

hog = []
while True:
    hog.append(torch.empty(1 << 28))  # 1 GiB of float32

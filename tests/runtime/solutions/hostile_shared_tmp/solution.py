"""Hostile (issue 23): an honest softmax that, when imported, writes files into the host's shared
/tmp and /dev/shm (names replaced by the test with names of its own), where another run, another
user or the grader would find them."""
import torch
import torch.nn as nn

TMP_MARK = "/tmp/kbaudit-hostile-shared-tmp.txt"
SHM_MARK = "/dev/shm/kbaudit-hostile-shared-shm.txt"

for path in (TMP_MARK, SHM_MARK):
    try:
        with open(path, "w") as f:
            f.write("written by a solution\n")
    except OSError:
        pass


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=-1)

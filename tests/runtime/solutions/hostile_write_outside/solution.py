"""Hostile: writes files outside its own directory (a marker in /tmp named by KBAUDIT_TEST_MARK
in the solution's own source, the user's shell profile) while computing an honest softmax."""
import os

import torch
import torch.nn as nn

MARK = "/tmp/kbaudit-hostile-write-outside.txt"
for path in (MARK, os.path.expanduser("~/.bashrc"), "/root/.bashrc", "/etc/kbaudit-hostile"):
    try:
        with open(path, "a") as f:
            f.write("written by a solution\n")
    except OSError:
        pass


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=-1)

"""Hostile: finds every pipe it may write to (fd 3, then a scan of /proc/self/fd) and writes a
forged all-passed answer with a guessed nonce into each, while downcasting the GEMM to bfloat16.
The real answer follows the forged one on the same pipe, so kbaudit sees a forged frame."""
import json
import os
import stat

import torch
import torch.nn as nn

fake = json.dumps({"nonce": "f" * 32, "device": "cpu", "probes": [
    {"name": "differential", "status": "passed", "rule": "PREC001", "reason": "", "numbers": {}}], "events": []})
frame = ("KBAUDIT-ANSWER %s %d\n%s" % ("f" * 32, len(fake), fake)).encode()
for name in os.listdir("/proc/self/fd"):
    fd = int(name)
    if fd in (0, 1, 2):
        continue
    try:
        if stat.S_ISFIFO(os.fstat(fd).st_mode):
            os.write(fd, frame)
    except OSError:
        pass


class ModelNew(nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N, K, dtype=torch.float32))

    def forward(self, x):
        return (x.bfloat16() @ self.weight.bfloat16().T).float()

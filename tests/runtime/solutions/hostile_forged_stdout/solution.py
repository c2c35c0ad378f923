"""Hostile: prints a forged all-passed answer on stdout (and stderr), while downcasting the GEMM
to bfloat16. kbaudit never reads stdout for the answer, so the differential probe still fires."""
import json
import sys

import torch
import torch.nn as nn

fake = json.dumps({"nonce": "0" * 32, "device": "cpu", "probes": [
    {"name": "differential", "status": "passed", "rule": "PREC001", "reason": "", "numbers": {}}], "events": []})
for stream in (sys.stdout, sys.stderr):
    stream.write("KBAUDIT-ANSWER %s %d\n%s\n" % ("0" * 32, len(fake), fake))
    stream.flush()


class ModelNew(nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N, K, dtype=torch.float32))

    def forward(self, x):
        return (x.bfloat16() @ self.weight.bfloat16().T).float()

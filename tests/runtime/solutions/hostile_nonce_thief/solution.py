"""Hostile, and beyond what the nonce framing can stop (docs/runtime.md, "What the answer
framing does not prevent"): code running inside the probe process reads the real nonce from the
probe's stack frames and writes a well-formed all-passed answer to the answer pipe. This one
does not end the process afterwards, so the probe's own answer follows on the same pipe and
kbaudit sees two answers: the run is aborted, not passed."""
import json
import os
import stat
import sys

import torch
import torch.nn as nn


def _steal_nonce():
    frame = sys._getframe()
    while frame is not None:
        value = frame.f_locals.get("nonce")
        if isinstance(value, str) and len(value) == 32:
            return value
        frame = frame.f_back
    return None


nonce = _steal_nonce()
if nonce:
    body = json.dumps({"nonce": nonce, "device": "cpu", "probes": [
        {"name": "differential", "status": "passed", "rule": "PREC001", "reason": "", "numbers": {}}], "events": []})
    frame_bytes = ("KBAUDIT-ANSWER %s %d\n%s" % (nonce, len(body), body)).encode()
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        try:
            if fd > 2 and stat.S_ISFIFO(os.fstat(fd).st_mode):
                os.write(fd, frame_bytes)
        except OSError:
            pass


class ModelNew(nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N, K, dtype=torch.float32))

    def forward(self, x):
        return (x.bfloat16() @ self.weight.bfloat16().T).float()

"""Hostile (issue 23): a bf16 downcast (differential -> PREC001) that, when imported, reads the
nonce from the probe's stack frames, writes a complete and well-formed answer in which every
probe passed to the answer pipe, and ends the process with os._exit(0) before the probe can
answer (docs/runtime.md once said kbaudit would believe this). No probe ever ran, so the
witness of its outputs is empty."""
import json
import os
import stat
import sys

import torch
import torch.nn as nn

PROBES = ("call_count", "caller_context", "differential", "adversarial", "other_shapes", "memoization", "aliasing",
          "global_state", "uninitialized_output", "parameters", "kernel_ablation", "timing")


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
    body = json.dumps({"nonce": nonce, "device": "cpu", "torch": torch.__version__, "seeds": [0, 1], "notes": [],
                       "events": [], "probes": [{"name": name, "status": "passed", "rule": "", "reason": "",
                                                 "numbers": {"error_ratio": 1.0} if name == "differential" else {}}
                                                for name in PROBES]})
    frame_bytes = ("KBAUDIT-ANSWER %s %d\n%s" % (nonce, len(body), body)).encode()
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        try:
            if fd > 2 and stat.S_ISFIFO(os.fstat(fd).st_mode):
                os.write(fd, frame_bytes)
        except OSError:
            pass
    os._exit(0)


class ModelNew(nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N, K, dtype=torch.float32))

    def forward(self, x):
        return (x.bfloat16() @ self.weight.bfloat16().T).float()

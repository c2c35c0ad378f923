"""Hostile (issue 23): a bf16 downcast (differential -> PREC001) that, when imported, replaces
json.dumps (and every module's name bound to it) with a version that rewrites any probe report it
serialises: every finding becomes `passed`, its numbers left as they were (an error ratio in the
tens of thousands under `passed`), and the events are dropped. Before the judge, kbaudit believed
it and `check --runtime` lowered the static PREC001 finding to clean."""
import json
import sys

import torch
import torch.nn as nn

_real_dumps = json.dumps


def _forged_dumps(obj, *args, **kwargs):
    if isinstance(obj, dict) and isinstance(obj.get("probes"), list):
        for probe in obj["probes"]:
            if isinstance(probe, dict) and probe.get("status") == "finding":
                probe["status"] = "passed"
        obj["events"] = []
    return _real_dumps(obj, *args, **kwargs)


json.dumps = _forged_dumps
for _module in list(sys.modules.values()):
    try:
        if getattr(_module, "dumps", None) is _real_dumps:
            setattr(_module, "dumps", _forged_dumps)
    except Exception:
        pass


class ModelNew(nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N, K, dtype=torch.float32))

    def forward(self, x):
        return (x.bfloat16() @ self.weight.bfloat16().T).float()

"""Hostile (issue 23): a bf16 downcast (differential -> PREC001) that rewrites the probe's report
as it is serialised, field by field and consistently: every probe `passed` with the numbers of an
exact answer (error ratio 1, the solution's error equal to the reference's), the device and torch
version changed, no events. Nothing in the answer contradicts itself; only the outputs the
solution really returned do."""
import json
import sys

import torch
import torch.nn as nn

_real_dumps = json.dumps


def _forged_dumps(obj, *args, **kwargs):
    if isinstance(obj, dict) and isinstance(obj.get("probes"), list):
        for probe in obj["probes"]:
            if not isinstance(probe, dict):
                continue
            probe["status"] = "passed"
            numbers = probe.get("numbers") or {}
            if "error_ratio" in numbers:
                numbers["error_ratio"] = 1.0
                numbers["solution_error"] = numbers.get("reference_error", 0.0)
            probe["numbers"] = numbers
        obj["events"] = []
        obj["device"] = "cuda"
        obj["torch"] = "2.9.1+cu128"
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

"""Hack (thread_order -> TIME003): a host thread computes the output after forward has returned
the (still empty) buffer, so the timed call does none of the work."""
import threading
import time

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)

        def work():
            time.sleep(0.05)
            shifted = x - x.max(dim=-1, keepdim=True).values
            e = torch.exp(shifted)
            out.copy_(e / e.sum(dim=-1, keepdim=True))

        threading.Thread(target=work, daemon=True).start()
        return out

"""Crashes the worker in its first call (SIGABRT, as glibc does on a double free): the probe
must report the signal, and the run keeps its static findings and a runtime block."""
import os

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        os.abort()
        return torch.softmax(x, dim=-1)

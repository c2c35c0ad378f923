"""Hostile (issue 23): an honest softmax that, when imported, connects to a Unix socket a process
on the host listens on (a filesystem path and an abstract name, both replaced by the test with
names of its own) and delivers data there."""
import socket

import torch
import torch.nn as nn

SOCKET_PATH = "/tmp/kbaudit-hostile.sock"
ABSTRACT_NAME = "kbaudit-hostile-abstract"

for address in (SOCKET_PATH, "\0" + ABSTRACT_NAME):
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(2)
            s.connect(address)
            s.sendall(b"delivered from inside the sandbox\n")
    except OSError:
        pass


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=-1)

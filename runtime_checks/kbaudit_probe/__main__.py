"""Entry point: `python -I -B <dir>/kbaudit_probe/__main__.py --run ... --problem ...`.

-I keeps the script's own directory off sys.path, so the package's parent is put there by hand."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from kbaudit_probe.cli import main  # noqa: E402

if __name__ == "__main__":
    main()

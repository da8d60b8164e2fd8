"""Command line of the host (``quatro-party`` and ``launcher.py``). Filled in by the host issue."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    print("The Quatro Party server is not there yet.", file=sys.stderr)
    return 1

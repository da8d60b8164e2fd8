"""No dead code: vulture finds nothing at 80 % confidence under quatro_party/ (unused names, unreachable code)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_vulture_finds_no_dead_code():
    result = subprocess.run(
        [sys.executable, "-m", "vulture", "quatro_party", "--min-confidence", "80"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr

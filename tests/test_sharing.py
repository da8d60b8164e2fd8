"""The run's shared results (tests/sharing.py): worked out once however many workers ask, and never a failure."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.sharing import OncePerRun

ROOT = Path(__file__).resolve().parent.parent

#: A worker of the run: asks for the key, counting in ``computed`` each time it had to work it out.
WORKER = """
import sys, time
from pathlib import Path
from tests.sharing import OncePerRun

folder, computed = Path(sys.argv[1]), Path(sys.argv[2])

def compute():
    with computed.open("ab") as f:
        f.write(b"x")
    time.sleep(0.3)  # long enough for the other workers to ask meanwhile
    return {"cells": [1, 2, 3]}

assert OncePerRun(folder).get("a cell", compute) == {"cells": [1, 2, 3]}
"""


def test_four_workers_asking_at_once_work_the_result_out_once(tmp_path):
    computed = tmp_path / "computed"
    workers = [
        subprocess.Popen([sys.executable, "-c", WORKER, str(tmp_path / "once"), str(computed)], cwd=ROOT)
        for _ in range(4)
    ]
    assert [w.wait(60) for w in workers] == [0, 0, 0, 0]
    assert computed.read_bytes() == b"x"


def test_a_computation_that_fails_keeps_nothing_and_the_next_asker_tries_again(tmp_path):
    def broken() -> int:
        raise AssertionError("the build failed")

    with pytest.raises(AssertionError):
        OncePerRun(tmp_path).get("bundle", broken)
    assert OncePerRun(tmp_path).get("bundle", lambda: 7) == 7
    assert OncePerRun(tmp_path).get("bundle", broken) == 7  # kept for the rest of the run

"""What the workers of a run share (tests/sharing.py): results worked out once however many workers ask, and never
a failure; a room the browser tests and the load tests never share; the modules each process compiles. And which
runs leave the browser tests out."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.sharing import OncePerRun

from .conftest import _leaves_out_browsers
from .timeouts import limit

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


#: A test of one side: comes in (``side_lock``), says so in ``<name>.in``, stays until ``<name>.out`` exists.
SIDE = """
import sys, time
from pathlib import Path
from tests.sharing import side_lock

folder, name, side, other = Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
with side_lock(folder, "run", side, other):
    (folder / (name + ".in")).write_bytes(b"")
    end = time.monotonic() + 60
    while not (folder / (name + ".out")).exists() and time.monotonic() < end:
        time.sleep(0.01)
"""


class Room:
    """Processes that come into ``side_lock``'s room, each leaving when told."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def come(self, name: str, side: str) -> None:
        other = "browser" if side == "load" else "load"
        self.procs[name] = subprocess.Popen([sys.executable, "-c", SIDE, str(self.folder), name, side, other], cwd=ROOT)

    def inside(self, name: str) -> bool:
        return (self.folder / f"{name}.in").exists()

    def wait_inside(self, name: str) -> None:
        end = time.monotonic() + limit(30)
        while not self.inside(name):
            assert time.monotonic() < end, f"{name} never came in"
            time.sleep(0.01)

    def leave(self, name: str) -> None:
        (self.folder / f"{name}.out").write_bytes(b"")

    def still_out(self, *names: str) -> bool:
        """None of ``names`` comes in for half a second (a process the lock let in writes its mark in milliseconds)."""
        time.sleep(0.5)
        return not any(self.inside(n) for n in names)

    def close(self) -> list[int | None]:
        for name in self.procs:
            self.leave(name)
        return [p.wait(60) for p in self.procs.values()]


def test_tests_of_one_side_come_in_together(tmp_path):
    room = Room(tmp_path)
    room.come("a", "load")
    room.wait_inside("a")
    room.come("b", "load")
    room.wait_inside("b")  # while a is still inside
    assert not (tmp_path / "a.out").exists()
    assert room.close() == [0, 0]


def test_a_test_of_the_other_side_waits_until_the_room_is_empty_and_newcomers_wait_behind_it(tmp_path):
    room = Room(tmp_path)
    room.come("a", "load")
    room.wait_inside("a")
    room.come("c", "browser")
    assert room.still_out("c")  # a load test inside: no browser test comes in
    room.come("d", "load")
    assert room.still_out("c", "d")  # a load test that came after the waiting browser test waits behind it
    room.leave("a")
    room.wait_inside("c")
    assert room.still_out("d")
    room.leave("c")
    room.wait_inside("d")
    assert room.close() == [0, 0, 0]


@pytest.mark.parametrize(
    ("markexpr", "left_out"),
    [
        ("not browser", True),  # the fast tier
        ("not browser and not slow", True),
        ("slow and not browser", True),
        ("not (browser or slow)", True),
        ("", False),
        ("not slow", False),
        ("browser", False),
        ("not browser or slow", False),
        ("browser and slow and not ladder", False),
        ("not browser and timeout(1)", False),  # a marker's arguments: not worked out, so not left out
    ],
)
def test_a_run_leaves_out_the_browser_tests_only_when_its_marks_are_false_for_every_one(markexpr, left_out):
    assert _leaves_out_browsers(markexpr) is left_out


def test_a_run_keeps_its_compiled_test_modules_where_the_environment_says_to_write_no_bytecode(tmp_path):
    """Collecting a test module rewrites its asserts; pytest keeps the result only where bytecode may be written.
    A run started with ``PYTHONDONTWRITEBYTECODE`` (as on this project's development machine) still keeps it
    (tests/conftest.py), in the folder Python is told to keep its compiled modules in: here ``tmp_path``."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": str(tmp_path)}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-n",
            "0",
            "-p",
            "no:cacheprovider",
            "--collect-only",
            "tests/test_repo.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=limit(60),
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    kept = [p.name for p in tmp_path.rglob("test_repo.*.pyc")]
    assert any("-pytest-" in name for name in kept), kept

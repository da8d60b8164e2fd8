"""What the workers of one parallel test run share: a lock file, and results worked out once for the whole run.

pytest-xdist hands tests to its workers one at a time (pyproject.toml's ``--maxschedchunk 1``), so tests that share
a module fixture or a cache end up on different workers, and each worker used to work the shared thing out again:
the level ladder's cells (14 cells, played up to 27 times: 79 CPU-s in a run of the fast tier, 43 CPU-s once each),
the wheel and wheelhouse of the install tests (built by up to four workers), and the bundle, which two workers could
even build into the same folder at once. :class:`OncePerRun` works each out once, under a lock, in the folder every
worker of the run shares (the run's base temporary folder, which pytest keeps for the last three runs), and hands
the result to every worker that asks. A fresh run starts empty: nothing carries over from one run to the next.

Locks are POSIX (``fcntl``); where there is none (Windows), every worker works things out for itself, as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


@contextlib.contextmanager
def file_lock(path: Path, exclusive: bool) -> Iterator[bool]:
    """Hold ``path`` locked (shared or exclusive) while the block runs; yields whether a lock was taken at all."""
    try:
        import fcntl  # POSIX
    except ImportError:
        yield False
        return
    with open(path, "ab") as f:
        fcntl.flock(f, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        try:
            yield True
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


@contextlib.contextmanager
def side_lock(folder: Path, name: str, side: str, other: str) -> Iterator[bool]:
    """Hold the run's room for ``side`` while the block runs: any number of tests of one side at once, never a
    test of ``side`` beside one of ``other``. Yields whether a lock was taken at all (none without ``fcntl``).

    Each side holds a shared lock on a file of its own. A test comes in through a gate, an exclusive lock held
    only while coming in: there it waits until no test of the other side holds that side's file (an exclusive
    lock on it succeeds), takes its own side's file shared and lets the gate go. A test waiting at the gate keeps
    newcomers of the side inside out, so that neither side waits forever. The kernel lets every lock go with the
    process that held it: a worker killed mid-test blocks nobody."""
    try:
        import fcntl  # POSIX
    except ImportError:
        yield False
        return
    with (
        open(folder / f"{name}-gate.lock", "ab") as gate,
        open(folder / f"{name}-{side}.lock", "ab") as mine,
        open(folder / f"{name}-{other}.lock", "ab") as theirs,
    ):
        fcntl.flock(gate, fcntl.LOCK_EX)
        try:
            fcntl.flock(theirs, fcntl.LOCK_EX)
            fcntl.flock(theirs, fcntl.LOCK_UN)
            fcntl.flock(mine, fcntl.LOCK_SH)
        finally:
            fcntl.flock(gate, fcntl.LOCK_UN)
        try:
            yield True
        finally:
            fcntl.flock(mine, fcntl.LOCK_UN)


class OncePerRun:
    """Results worked out once per test run, whichever worker asks first; the others wait for it and read it.

    ``folder`` is shared by every worker of the run. A result is kept as a pickle named after its key; a
    computation that raises keeps nothing, so the next worker to ask tries again (and fails in its own test)."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._here: dict[str, Any] = {}  # what this worker has already read or worked out

    def get(self, key: str, compute: Callable[[], T]) -> T:
        """The result of ``compute()`` for ``key``, worked out at most once in the run."""
        if key not in self._here:
            self._folder.mkdir(parents=True, exist_ok=True)
            name = hashlib.sha256(key.encode()).hexdigest()[:20]
            kept = self._folder / f"{name}.pickle"
            with file_lock(self._folder / f"{name}.lock", exclusive=True) as shared:
                if shared and kept.exists():
                    self._here[key] = pickle.loads(kept.read_bytes())
                else:
                    self._here[key] = compute()
                    if shared:
                        partial = kept.with_suffix(f".{os.getpid()}")
                        partial.write_bytes(pickle.dumps(self._here[key]))
                        os.replace(partial, kept)
        result: T = self._here[key]
        return result

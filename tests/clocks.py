"""A table clock for tests that play in real time but must not race the rules' timers while they look.

A browser test that plays a real game checks each phase (a hint, a layout, a picture) while that phase's timer
runs: on a busy machine the checks take longer than the sign phase or the pause between rounds, the table moves
on, and a healthy run fails. Give the table a :class:`StoppableClock` (config ``clock``) and stop it around the
checks of a phase: the phase then lasts as long as they take. ``quatro_party.server.testing.FakeClock`` stands
still from the start; this one runs with the real clock until stopped, so cooldowns and emission periods pass by
themselves in between.
"""

from __future__ import annotations

import threading
import time


class StoppableClock:
    """A monotonic clock (``clock()`` → seconds) that follows ``time.monotonic`` until :meth:`stop`, stands still
    until :meth:`start`, then goes on from where it stood (no jump)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # read by the table's thread, stopped and started by the test's
        self._behind = 0.0  # how far it lags the real clock: the time it stood still so far
        self._stopped_at: float | None = None

    def __call__(self) -> float:
        with self._lock:
            if self._stopped_at is not None:
                return self._stopped_at
            return time.monotonic() - self._behind

    def stop(self) -> None:
        """Stand still from now on (the table's timers stop with it)."""
        with self._lock:
            if self._stopped_at is None:
                self._stopped_at = time.monotonic() - self._behind

    def start(self) -> None:
        """Run again from where it stood."""
        with self._lock:
            if self._stopped_at is not None:
                self._behind = time.monotonic() - self._stopped_at
                self._stopped_at = None

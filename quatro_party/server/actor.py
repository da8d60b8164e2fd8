"""The table's thread: one queue, handled in arrival order, and a sleep until the next thing is due.

Socket reader threads only *post* to the queue (:meth:`Actor.post`); everything else happens on this one
thread, so R16's first swap to arrive wins the place and no lock guards the game. The thread sleeps in
``queue.get(timeout=…)`` until the next item or until ``sleep_for()`` seconds have passed, whichever is
first: no polling. After each item (or wake-up) it runs ``turn()``: the table's deadlines, frames and bots.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger("quatro.server")

_STOP = object()


class Actor:
    """A thread that runs posted functions one at a time, then ``turn()``; ``sleep_for()`` says how long it may
    sleep when nothing comes (``None``: until something does); ``on_stop()`` runs on the thread as it ends."""

    def __init__(
        self, turn: Callable[[], None], sleep_for: Callable[[], float | None], on_stop: Callable[[], None]
    ) -> None:
        self._turn = turn
        self._sleep_for = sleep_for
        self._on_stop = on_stop
        self._inbox: queue.Queue[Any] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="quatro-table", daemon=True)

    # --- any thread ----------------------------------------------------------------------

    def start(self) -> None:
        """Start the thread."""
        self._thread.start()

    def is_alive(self) -> bool:
        """Whether the thread runs."""
        return self._thread.is_alive()

    def post(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` on the thread, soon, in arrival order."""
        self._inbox.put((fn, args, None))

    def call(self, fn: Callable[[], Any], timeout: float = 5.0) -> Any:
        """Run ``fn()`` on the thread and return its result (or raise its exception)."""
        box: dict[str, Any] = {}
        done = threading.Event()
        self._inbox.put((fn, (), (box, done)))
        if not done.wait(timeout):
            raise TimeoutError("the table thread did not answer")
        if "error" in box:
            raise box["error"]
        return box.get("value")

    def poke(self) -> None:
        """Wake the thread now: it runs ``turn()`` (tests with an injected clock call this after moving time)."""
        self._inbox.put((lambda: None, (), None))

    def finish(self, timeout: float) -> None:
        """End the thread once what is queued before is done (``on_stop`` runs on it), waiting up to ``timeout``."""
        self._inbox.put(_STOP)
        self._thread.join(timeout)

    # --- the thread ------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            try:
                item = self._inbox.get(timeout=self._sleep_for())
            except queue.Empty:
                item = None
            if item is _STOP:
                self._on_stop()
                return
            if item is not None:
                fn, args, reply = item
                try:
                    value = fn(*args)
                    if reply is not None:
                        reply[0]["value"] = value
                except Exception as exc:  # nothing a client sends may kill the table
                    log.exception("table: error while handling %s", getattr(fn, "__name__", fn))
                    if reply is not None:
                        reply[0]["error"] = exc
                finally:
                    if reply is not None:
                        reply[1].set()
            self._turn()

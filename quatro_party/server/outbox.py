"""Frames out: the table's sockets, the replies of the change being handled, and what everybody must be shown.

While the table thread handles a message, replies (``ok``, ``refused``, ``error``, ``joined``…) are held here
and the engine's events are noted; once the change is handled, :meth:`Outbox.flush` sends the replies first,
then every greeted socket and every bot its own fresh ``state`` frame. So a reply always precedes the state
showing its effect, and no socket is written mid-change. What goes into a socket's frame is not decided here:
the table passes ``frame_for`` (``(connection, events, now, cache) -> text``), the one place that knows every
public fact (:meth:`.table.Table._state_text`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from .. import protocol as p
from ..engine.refusals import Reason
from .botseats import Bots
from .connection import Connection

log = logging.getLogger("quatro.server")

#: ``(connection, events, now, cache) -> the text of its state frame``; ``cache`` holds the parts already
#: encoded for this change.
FrameFor = Callable[[Connection, list[dict[str, Any]], float, dict[Any, str]], str]


class Outbox:
    """The sockets (:attr:`sockets`), the replies held until a change is handled, and the change itself."""

    def __init__(self, bots: Bots, clock: Callable[[], float], frame_for: FrameFor) -> None:
        self.sockets: set[Connection] = set()  # every open socket, greeted or not (bots are not sockets)
        self.dirty = False  # a change everybody must see is waiting to be sent
        self._events: list[dict[str, Any]] = []  # public events since the last frames
        self._replies: list[tuple[Connection, str]] = []  # frames of the change being handled, sent together
        self._bots = bots
        self._clock = clock
        self._frame_for = frame_for

    # --- sockets ---------------------------------------------------------------------

    def add(self, conn: Connection) -> None:
        """A socket opened (it gets nothing before its ``hello``)."""
        self.sockets.add(conn)

    def discard(self, conn: Connection) -> None:
        """A socket closed."""
        self.sockets.discard(conn)

    # --- what changed -----------------------------------------------------------------

    def note(self, events: Iterable[Any]) -> None:
        """The engine's ``events`` happened (possibly none): everybody gets fresh frames with them."""
        if events:
            self._events.extend(e.to_json() for e in events)
        self.dirty = True

    def changed(self) -> None:
        """Something everybody sees changed outside the engine (a seat's holder, the lock, a spectator…)."""
        self.dirty = True

    # --- replies ----------------------------------------------------------------------

    def send(self, conn: Connection, msg: p.ServerMessage) -> None:
        """Queue ``msg`` for ``conn`` (a bot reads it at once); it goes out with the rest of this change."""
        text = msg.text()
        if conn.kind == "bot":
            self._bots.observe(conn, text, self._clock())
        else:
            self._replies.append((conn, text))

    def error(self, conn: Connection, code: p.ErrorCode | Reason, message: str, ref: Any = None) -> None:
        """Queue an ``error`` frame for ``conn``."""
        log.info("%r: %s: %s", conn, code.value, message)
        self.send(conn, p.Error(code, message, ref))

    def send_state(self, conn: Connection) -> None:
        """A full, fresh view for one socket (after hello): no events, nothing stale."""
        text = self._frame_for(conn, [], self._clock(), {})
        if conn.kind == "bot":
            self._bots.observe(conn, text, self._clock())
        else:
            self._replies.append((conn, text))

    def deliver(self) -> None:
        """Send the replies collected while handling a message (ok, refused, error, joined…)."""
        out, self._replies = self._replies, []
        for conn, text in out:
            conn.send_text(text)

    # --- after a change ----------------------------------------------------------------

    def flush(self) -> None:
        """After a change: every greeted socket and every bot gets its own fresh view and the new events."""
        if not self.dirty:
            return
        events, self._events, self.dirty = self._events, [], False
        now = self._clock()
        cache: dict[Any, str] = {}
        self.deliver()  # replies first (ok, refused, joined…), then the state they lead to
        for conn in list(self.sockets):
            if conn.greeted and conn.open:
                # Built and sent one by one: while a phone's frame travels, the next one is built.
                conn.send_text(self._frame_for(conn, events, now, cache))
        # Phones and screens first; bots think afterwards.
        for conn in self._bots.connections():
            self._bots.observe(conn, self._frame_for(conn, events, now, cache), self._clock())

    def close_all(self, code: int, reason: str) -> None:
        """Send what is held, then close every socket."""
        self.deliver()
        for conn in list(self.sockets):
            conn.close(code, reason)

"""Broadcasting: after every change each socket and each bot gets its own fresh ``state`` frame.

Every recipient's view is the engine's (R36–R39): screens and unseated phones get the table view,
a seated phone or a bot the table view plus its seat's private part (``you``). A change is encoded
once per *distinct* part, not once per socket: the table view, the events and the ``table`` block
are encoded once and shared, and each seat's ``you`` only when it changed (:meth:`Broadcaster._you_text`,
spliced in by :func:`~quatro_party.protocol.seat_view_text`).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from .. import protocol as p
from ..engine.refusals import Reason
from ..engine.views import ViewBuilder
from .actor import Actor
from .connection import Connection

log = logging.getLogger("quatro.server")

#: The view of a spectator: the table view, with ``"you": null``.
SPECTATOR = "spectator"


def _scalar(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False)`` for a view's plain value, without the encoder's set-up for the
    common ones (a view has a dozen: the phase, the round, the clock…): ``None``, a bool, an int, a finite float."""
    kind = type(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return str(value)
    if kind is float and value - value == 0.0:  # finite (inf and nan are spelt differently by json)
        return repr(value)
    return json.dumps(value, ensure_ascii=False)


class Broadcaster(Actor):
    """Frames out: replies held until a change is handled, then the views it leads to."""

    join_url: str
    mdns_name: str | None
    _outbox: list[tuple[Connection, str]]  # frames of the change being handled, sent together
    _views: ViewBuilder | None
    _parts: dict[str, tuple[Any, str]]  # key of the table view → (its last value, that value's JSON text)
    _you_texts: dict[int, tuple[list[Any], tuple[Any, ...], str]]  # seat → (its hand, its other values, text)

    def _freed(self) -> list[int]:
        raise NotImplementedError

    def _view_of(self, conn: Connection) -> int | str | None:
        """Which view ``conn`` gets: its seat's (a seat number), the table's (``None``), or :data:`SPECTATOR`."""
        seat = conn.seat if conn.kind in ("phone", "bot") else None
        return seat if seat is not None and 0 <= seat < self.game.seat_count else None

    def _public_key(self, conn: Connection) -> tuple[object, ...]:
        """What ``conn``'s ``table`` block depends on: sockets with the same key share its bytes."""
        return (conn.kind == "screen", conn.is_host)

    def _public(self, conn: Connection) -> dict[str, Any]:
        """The ``table`` block of a state frame: the server's public facts (the same for every phone)."""
        table: dict[str, Any] = {
            "join_url": self.join_url,
            "mdns_name": self.mdns_name,
            "bots": {str(s): level for s, (level, _, _) in sorted(self.bots.items())},
            "freed": self._freed(),
            "settings": dict(self.settings),
        }
        if conn.kind == "screen":
            table["host"] = conn.is_host
            # The host must know when the table would not survive a restart ("cannot save the game: disk full").
            failure = self.journal.failure if self.journal is not None else None
            table["warning"] = "journal" if failure else None
            table["journal_error"] = failure
        return table

    def _builder(self) -> ViewBuilder:
        """The engine's view builder for the current game (a new game, e.g. after a replay, gets a new one)."""
        views = self._views
        if views is None or views.game is not self.game:
            views = self._views = ViewBuilder(self.game)
            self._parts = {}
            self._you_texts = {}
        return views

    def _state_text(self, conn: Connection, events: list[dict[str, Any]], now: float, cache: dict[Any, str]) -> str:
        """The ``state`` frame for one socket, as text; ``cache`` holds the parts already encoded for this change.

        Byte for byte ``json_text(state_message(seat_view(...) or table_view(...), events, table=...))``
        (a test checks it).
        """
        if "events" not in cache:
            cache["events"] = json.dumps(events, ensure_ascii=False, separators=(",", ":"))
            cache["table_view"] = self._encode_view(self._builder().table_view(now))
        which = self._view_of(conn)
        view = cache.get(("view", which))
        if view is None:
            if which is None:
                view = cache["table_view"]
            elif isinstance(which, str):  # SPECTATOR
                view = p.seat_view_text(cache["table_view"], None)
            else:
                view = p.seat_view_text(cache["table_view"], None, self._you_text(which, now))
            cache[("view", which)] = view
        key = ("table", *self._public_key(conn))
        public = cache.get(key)
        if public is None:
            public = cache[key] = p.json_text(self._public(conn))
        return p.State(view, cache["events"], public).text()

    def _you_text(self, seat: int, now: float) -> str:
        """``json_text(you_view(seat))``, encoded again only when the seat's private part changed.

        Most changes are another seat's: this seat's hand is then the very list the view builder shared
        with the last view, and its other values (cooldowns over, no vote) compare equal.
        """
        you = self._builder().you_view(seat, now)
        hand = you["hand"]
        rest = tuple(v for k, v in you.items() if k != "hand")
        known = self._you_texts.get(seat)
        if known is not None and (known[0] is hand or not hand and not known[0]) and known[1] == rest:
            return known[2]
        text = p.json_text(you)
        self._you_texts[seat] = (hand, rest, text)
        return text

    def _encode_view(self, view: dict[str, Any]) -> str:
        """``json_text(view)``, byte for byte, reusing the text of every part the engine's view builder shared
        with the previous view (the seats, the signs, the timing, an unchanged centre or reveal…): those are
        the very same objects while they do not change, and the builder never changes one in place."""
        parts, known = [], self._parts
        for key, value in view.items():
            if isinstance(value, (dict, list)):
                hit = known.get(key)
                if hit is None or hit[0] is not value:
                    hit = known[key] = (value, json.dumps(value, ensure_ascii=False, separators=(",", ":")))
                parts.append(f'"{key}":{hit[1]}')
            else:
                parts.append(f'"{key}":{_scalar(value)}')
        return "{" + ",".join(parts) + "}"

    def _send(self, conn: Connection, msg: p.ServerMessage) -> None:
        """Queue ``msg`` for ``conn`` (a bot reads it at once); it goes out with the rest of this change."""
        text = msg.text()
        if conn.kind == "bot":
            self._to_bot(conn, text)
        else:
            self._outbox.append((conn, text))

    def _deliver(self) -> None:
        """Send the replies collected while handling a message (ok, refused, error, joined…).

        They are held until the handler is done so that a reply always precedes the
        ``state`` showing its effect, and so that no socket is written mid-change.
        """
        out, self._outbox = self._outbox, []
        for conn, text in out:
            conn.send_text(text)

    def _to_bot(self, conn: Connection, text: str) -> None:
        entry = self.bots.get(conn.seat) if conn.seat is not None else None
        if entry is None or entry[2] is not conn:
            return
        try:
            # A fresh copy of exactly the frame a phone would get: the bot can never hold a live reference.
            entry[1].observe(json.loads(text), self._now())
        except Exception:
            log.exception("bot on seat %s failed to observe", conn.seat)

    def _flush(self) -> None:
        """After a change: every greeted socket and every bot gets its own fresh view and the new events."""
        if not self._dirty:
            return
        events, self._events, self._dirty = self._events, [], False
        now = self._now()
        cache: dict[Any, str] = {}
        self._deliver()  # replies first (ok, refused, joined…), then the state they lead to
        for conn in list(self.conns):
            if conn.greeted and conn.open:
                # Built and sent one by one: while a phone's frame travels, the next one is built.
                conn.send_text(self._state_text(conn, events, now, cache))
        # Phones and screens first; bots think afterwards.
        for _, _, conn in list(self.bots.values()):
            self._to_bot(conn, self._state_text(conn, events, now, cache))

    def _send_state(self, conn: Connection) -> None:
        """A full, fresh view for one socket (after hello): no events, nothing stale."""
        text = self._state_text(conn, [], self._now(), {})
        if conn.kind == "bot":
            self._to_bot(conn, text)
        else:
            self._outbox.append((conn, text))

    def _error(self, conn: Connection, code: p.ErrorCode | Reason, message: str, ref: Any = None) -> None:
        log.info("%r: %s: %s", conn, code.value, message)
        self._send(conn, p.Error(code, message, ref))

    def _close_all(self, code: int, reason: str) -> None:
        self._deliver()
        for conn in list(self.conns):
            conn.close(code, reason)

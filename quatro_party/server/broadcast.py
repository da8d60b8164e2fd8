"""The text of ``state`` frames: each distinct part encoded once per change, not once per socket.

Every recipient's view is the engine's (R36–R39): screens and unseated phones get the table view, a seated
phone or a bot the table view plus its seat's private part (``you``), a spectator the table view with
``"you": null``. In a change the table view, the events and each kind of ``table`` block are encoded once and
shared, and each seat's ``you`` only when it changed (:meth:`Frames.you_text`, spliced in by
:func:`~quatro_party.protocol.seat_view_text`). Across changes, every part of the view the engine's view
builder shared with the previous view is reused as it was encoded (:meth:`Frames.encode_view`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .. import protocol as p
from ..engine import Game
from ..engine.views import ViewBuilder

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


class Frames:
    """The engine's views of one game, encoded to frame text with every unchanged part's text reused."""

    def __init__(self, game: Game) -> None:
        self.views = ViewBuilder(game)
        self._parts: dict[str, tuple[Any, str]] = {}  # key of the table view → (its last value, its JSON text)
        self._you_texts: dict[int, tuple[list[Any], tuple[Any, ...], str]] = {}  # seat → (hand, other values, text)

    def state_text(
        self,
        which: int | str | None,
        table_key: tuple[object, ...],
        table_block: Callable[[], dict[str, Any]],
        events: list[dict[str, Any]],
        now: float,
        cache: dict[Any, str],
    ) -> str:
        """A ``state`` frame, as text: the view ``which`` (a seat number, ``None`` for the table view, or
        :data:`SPECTATOR`), the ``events``, and the ``table`` block ``table_block()`` (encoded once per
        ``table_key`` in this change); ``cache`` holds the parts already encoded for this change.

        Byte for byte ``json_text(state_message(seat_view(...) or table_view(...), events, table=...))``
        (a test checks it).
        """
        if "events" not in cache:
            cache["events"] = json.dumps(events, ensure_ascii=False, separators=(",", ":"))
            cache["table_view"] = self.encode_view(self.views.table_view(now))
        view = cache.get(("view", which))
        if view is None:
            if which is None:
                view = cache["table_view"]
            elif isinstance(which, str):  # SPECTATOR
                view = p.seat_view_text(cache["table_view"], None)
            else:
                view = p.seat_view_text(cache["table_view"], None, self.you_text(which, now))
            cache[("view", which)] = view
        key = ("table", *table_key)
        public = cache.get(key)
        if public is None:
            public = cache[key] = p.json_text(table_block())
        return p.State(view, cache["events"], public).text()

    def you_text(self, seat: int, now: float) -> str:
        """``json_text(you_view(seat))``, encoded again only when the seat's private part changed.

        Most changes are another seat's: this seat's hand is then the very list the view builder shared
        with the last view, and its other values (cooldowns over, no vote) compare equal.
        """
        you = self.views.you_view(seat, now)
        hand = you["hand"]
        rest = tuple(v for k, v in you.items() if k != "hand")
        known = self._you_texts.get(seat)
        if known is not None and (known[0] is hand or not hand and not known[0]) and known[1] == rest:
            return known[2]
        text = p.json_text(you)
        self._you_texts[seat] = (hand, rest, text)
        return text

    def encode_view(self, view: dict[str, Any]) -> str:
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

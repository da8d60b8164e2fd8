"""The bots at the table: which seat each plays, at which level, and how it is woken and told.

A bot is a client like a phone, with a pseudo-connection instead of a socket: it gets exactly the frames a
phone in its seat would (a fresh copy of each, so it can never hold a live reference), and the moves it
makes go through the very path a phone's messages take (:meth:`.table.Table._wake_bots`). A bot that
raises is logged and skipped: a broken bot never stops the table.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ..protocol import json_text
from .botstub import make_bot as make_stub
from .connection import Connection

log = logging.getLogger("quatro.server")

#: Moves a bot may make in one wake-up: a phone's burst, no more.
BOT_MOVES_PER_WAKE = 8

#: What a seat's bot is: its level, the bot itself, and its pseudo-connection.
BotEntry = tuple[str, Any, Connection]


class Bots(Mapping[int, BotEntry]):
    """The bots by seat (a read-only mapping: seat → ``(level, bot, connection)``); :meth:`sit` and
    :meth:`stand` change it.

    ``make_bot(seat, level, rng)`` makes a bot; ``seed`` seeds each bot's own generator (``None``: fresh
    randomness), so that adding a bot never changes the cards. ``levels`` seats the bots a table resumes with.
    """

    def __init__(
        self, make_bot: Callable[[int, str, random.Random], Any], seed: Any, levels: dict[int, str] | None = None
    ) -> None:
        self._make_bot = make_bot
        self.seed = seed
        self._seated: dict[int, BotEntry] = {}
        for seat, level in sorted((levels or {}).items()):
            self._seated[seat] = self.make(seat, level)

    # --- the mapping ------------------------------------------------------------------

    def __getitem__(self, seat: int) -> BotEntry:
        return self._seated[seat]

    def __iter__(self) -> Iterator[int]:
        return iter(self._seated)

    def __len__(self) -> int:
        return len(self._seated)

    def levels(self) -> dict[int, str]:
        """Each bot's level, by seat in order (the public ``table.bots``, the journal's ``bot`` lines)."""
        return {seat: level for seat, (level, _, _) in sorted(self._seated.items())}

    # --- seating ----------------------------------------------------------------------

    def make(self, seat: int, level: str) -> BotEntry:
        """A bot of ``level`` for ``seat`` and its pseudo-connection (nobody is seated yet: see :meth:`sit`)."""
        rng = random.Random(f"{self.seed}-bot-{seat}") if self.seed is not None else random.Random()
        try:
            bot = self._make_bot(seat, level, rng)
        except Exception:  # a broken bot package must not leave a seat that never plays
            log.exception("could not make a %s bot for seat %s: using the stub bot", level, seat)
            bot = make_stub(seat, level, rng)
        conn = Connection("bot", None, peer=f"bot-{seat}")
        conn.seat, conn.greeted = seat, True
        return (level, bot, conn)

    def sit(self, seat: int, entry: BotEntry) -> None:
        """``entry`` (from :meth:`make`) plays ``seat`` from now on."""
        self._seated[seat] = entry

    def stand(self, seat: int) -> None:
        """``seat``'s bot leaves it."""
        del self._seated[seat]

    # --- waking and telling -----------------------------------------------------------

    def connections(self) -> list[Connection]:
        """Every bot's pseudo-connection, by seat as they were seated."""
        return [conn for _, _, conn in self._seated.values()]

    def next_wakes(self) -> list[Any]:
        """Each bot's next wake-up, as it says (a bot that fails to say is logged and left out)."""
        wanted = []
        for seat, (_, bot, _) in self._seated.items():
            try:
                wanted.append(bot.next_wake())
            except Exception:  # a broken bot must not stop the table (nor delay the rules' deadlines)
                log.exception("bot on seat %s: next_wake failed", seat)
        return wanted

    def wake(self, seat: int, now: float) -> tuple[BotEntry, Iterator[str]] | None:
        """If ``seat``'s bot is due, wake it: its entry and the messages it sends, each encoded as raw text when
        it is taken (at most :data:`BOT_MOVES_PER_WAKE`); ``None`` when no bot sits there, it is not due, or it
        failed."""
        entry = self._seated.get(seat)
        if entry is None:
            return None
        bot = entry[1]
        try:
            at = bot.next_wake()
            if at is None or at > now:
                return None
            moves = bot.wake(now) or []
        except Exception:
            log.exception("bot on seat %s failed to wake", seat)
            return None
        return entry, _texts(seat, moves[:BOT_MOVES_PER_WAKE])

    def observe(self, conn: Connection, text: str, now: float) -> None:
        """The bot behind ``conn`` reads a frame (a fresh copy of exactly the frame a phone would get)."""
        entry = self._seated.get(conn.seat) if conn.seat is not None else None
        if entry is None or entry[2] is not conn:
            return
        try:
            entry[1].observe(json.loads(text), now)
        except Exception:
            log.exception("bot on seat %s failed to observe", conn.seat)


def _texts(seat: int, moves: list[Any]) -> Iterator[str]:
    """A bot's moves as the raw text a phone would send; a move JSON cannot hold is logged and skipped."""
    for msg in moves:
        try:
            raw = json_text(msg)
        except (TypeError, ValueError):
            log.warning("bot on seat %s produced a non-JSON message: %r", seat, msg)
            continue
        yield raw

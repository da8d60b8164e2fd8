"""Seats and tokens: which socket speaks for which seat, and the bots that sit in seats.

A seat token is the seat's secret: whoever sends it in ``hello`` is the player (same phone,
new page, or the same page after a host restart). Tokens leave the server only in the
``joined`` reply to their own phone. A bot is a client like a phone, with a pseudo-connection
instead of a socket; it gets exactly the frames a phone in its seat would.
"""

from __future__ import annotations

import logging
import random
import secrets
from typing import Any

from .. import protocol as p
from ..engine import Phase, SeatKind, SetConnected, Sit
from ..engine.game import MAX_NAME_LENGTH
from ..engine.refusals import Reason, Refusal
from . import names
from .botstub import make_bot as make_stub
from .broadcast import Broadcaster
from .connection import Connection

log = logging.getLogger("quatro.server")

#: A bot's name, by seat: "Bot Ada", "Bot Bix"…
BOT_NAMES = ("Ada", "Bix", "Cleo", "Dex", "Eno", "Fay", "Gus", "Hal")


def distinct_name(name: str, others: list[str]) -> str:
    """``name`` (trimmed), or with a number ("Ana 2", "Ana 3"…) when one of ``others`` already reads the same
    (:func:`.names.key`: case, accents, spacing, width and look-alike letters do not count); kept within the
    engine's length by shortening the name. A name the engine would refuse anyway (empty, too long, not
    printable) is given back unchanged, for the engine to refuse.

    >>> distinct_name("ana", ["Ana", "Bot Ada"]), distinct_name("Ana", ["ÁNA", "ana 2"])
    ('ana 2', 'Ana 3')
    """
    name = name.strip()
    if not 1 <= len(name) <= MAX_NAME_LENGTH or not name.isprintable():
        return name
    return names.distinct(name, others, MAX_NAME_LENGTH)


class Seating(Broadcaster):
    """Tokens, ``hello`` / ``join`` / ``leave``, and the bots' seats."""

    tokens: dict[str, int]  # seat token → seat
    seat_tokens: dict[int, str]  # seat → its token
    moves: dict[str, tuple[int, float]]  # seat-link token → (seat, expiry); not journaled
    _make_bot: Any  # (seat, level, rng) -> bot

    # --- tokens ----------------------------------------------------------------------

    def _seat_token(self, seat: int, token: str | None = None) -> str:
        """A new secret for ``seat`` (the one given when replaying the journal); the old one dies."""
        token = token or secrets.token_urlsafe(18)
        old = self.seat_tokens.pop(seat, None)
        if old is not None:
            self.tokens.pop(old, None)
        self.tokens[token] = seat
        self.seat_tokens[seat] = token
        self._record({"token": token, "seat": seat})
        return token

    def _revoke(self, seat: int) -> None:
        """``seat``'s token (and any seat link to it) stops working."""
        old = self.seat_tokens.pop(seat, None)
        if old is not None:
            self.tokens.pop(old, None)
            self._record({"revoke": seat})
        for t, (s, _) in list(self.moves.items()):
            if s == seat:
                del self.moves[t]

    def _held(self, seat: int) -> bool:
        """Whether a phone's token or a bot holds ``seat``: then nobody else may ``join`` it."""
        return seat in self.seat_tokens or self.game.seats[seat].kind is SeatKind.BOT

    def _freed(self) -> list[int]:
        """The human seats nobody holds the token of (the host freed them): the next phone to ``join`` one
        takes it over, hand and all (R33). Public: an offline seat is not in it (its token still holds it)."""
        return [s for s, seat in enumerate(self.game.seats) if seat.kind is SeatKind.HUMAN and not self._held(s)]

    # --- sockets on seats ----------------------------------------------------------------

    def _attached(self, seat: int) -> list[Connection]:
        return [c for c in self.conns if c.seat == seat and c.kind == "phone" and c.open]

    def _detach(self, seat: int, code: p.ErrorCode, message: str, keep: Connection | None = None) -> None:
        """Unseat every other socket on ``seat``: they are told why and fall back to the public view."""
        for other in self._attached(seat):
            if other is not keep:
                other.seat = None
                other.token = None
                self._error(other, code, message)
                self._send_state(other)

    def _unseat(self, conn: Connection) -> None:
        """This socket stops speaking for its seat; the seat shows disconnected if no other socket holds it."""
        seat, conn.seat, conn.token = conn.seat, None, None
        if seat is not None and not self._attached(seat) and seat < self.game.seat_count:
            self._apply(SetConnected(seat, False))

    def _seat_me(self, conn: Connection, seat: int, token: str, ref: Any) -> None:
        if conn.seat is not None and conn.seat != seat:
            self._unseat(conn)  # a socket holds one seat at a time
        conn.seat, conn.token, conn.greeted = seat, token, True
        # The name as granted: the phone typed "Ana", the seat may be "Ana 2" (distinct_name).
        self._send(conn, p.Joined(ref, seat, token, self.game.seats[seat].name))
        if self.game.seats[seat].kind is SeatKind.HUMAN:
            self._apply(SetConnected(seat, True))
        self._dirty = True

    # --- phone messages about seats ------------------------------------------------------

    def _hello(self, conn: Connection, msg: p.Hello) -> None:
        token = msg.token
        if conn.seat is not None and token == conn.token:
            conn.greeted = True
            self._send_state(conn)
            return
        if token is not None:  # an empty token too: a phone whose stored token went empty is told so
            now = self._now()
            move = self.moves.pop(token, None)
            if move is not None and move[1] >= now and move[0] < self.game.seat_count:
                # A seat link the host allowed (allow_move): this device takes the seat, the old one loses it.
                moved = move[0]
                new_token = self._seat_token(moved)
                self._detach(moved, p.ErrorCode.SEAT_MOVED, "this seat moved to another device", keep=conn)
                log.info("%r: seat %s moved here by seat link", conn, moved)
                self._seat_me(conn, moved, new_token, msg.id)
                return
            held = self.tokens.get(token)
            if held is not None and held < self.game.seat_count:
                # The token is the seat's secret: whoever holds it is the player (same phone, new page).
                self._detach(held, p.ErrorCode.SEAT_MOVED, "this seat was opened on another page", keep=conn)
                log.info("%r: resumed seat %s", conn, held)
                self._seat_me(conn, held, token, msg.id)
                return
            conn.greeted = True
            self._error(
                conn, p.ErrorCode.BAD_TOKEN, "that seat token is not valid here (any more): pick a seat", msg.id
            )
            self._send_state(conn)
            return
        if conn.seat is not None:  # hello without token from a seated socket: it gives up its seat view
            self._unseat(conn)
        conn.greeted = True
        self._send_state(conn)

    def _no_such_seat(self, seat: int) -> tuple[Reason, str] | None:
        if seat >= self.game.seat_count:
            return (Reason.NO_SUCH_SEAT, f"this table has seats 0 to {self.game.seat_count - 1}")
        return None

    def _leave(self, conn: Connection, msg: p.Leave) -> None:
        if conn.seat is None:
            self._error(conn, p.ErrorCode.NOT_SEATED, "you hold no seat", msg.id)
            return
        if self.game.phase is not Phase.LOBBY:
            self._error(conn, Reason.WRONG_PHASE, "a seat can only be given back in the lobby", msg.id)
            return
        seat = conn.seat
        refusal = self._apply(Sit(seat, SeatKind.EMPTY))
        if refusal is not None:
            self._send(conn, p.Refused(refusal, msg.id))
            return
        self._revoke(seat)
        self._detach(seat, p.ErrorCode.SEAT_FREED, "you left the seat", keep=conn)
        conn.seat, conn.token = None, None
        self._send(conn, p.Ok(msg.id))

    # --- bots ----------------------------------------------------------------------------

    def _distinct_name(self, seat: int, name: str) -> str:
        """``name`` for ``seat``, numbered if another seat (a bot's too) already has it; the seat's own name
        does not count (a player taking their freed seat back, a bot changing level keep theirs)."""
        return distinct_name(name, [s.name for i, s in enumerate(self.game.seats) if i != seat])

    def _new_bot(self, seat: int, level: str) -> tuple[str, Any, Connection]:
        """A bot of ``level`` for ``seat`` and its pseudo-connection (the seat itself is not touched)."""
        rng = random.Random(f"{self.seed}-bot-{seat}") if self.seed is not None else random.Random()
        try:
            bot = self._make_bot(seat, level, rng)
        except Exception:  # a broken bot package must not leave a seat that never plays
            log.exception("could not make a %s bot for seat %s: using the stub bot", level, seat)
            bot = make_stub(seat, level, rng)
        conn = Connection("bot", None, peer=f"bot-{seat}")
        conn.seat, conn.greeted = seat, True
        return (level, bot, conn)

    def _put_bot(self, seat: int, level: str) -> Refusal | None:
        name = self._distinct_name(seat, f"Bot {BOT_NAMES[seat % len(BOT_NAMES)]}")
        entry = self._new_bot(seat, level)
        refusal = self._apply(Sit(seat, SeatKind.BOT, name))
        if refusal is not None:
            return refusal
        self.bots[seat] = entry
        self._record({"bot": seat, "level": level})
        return None

    def _drop_bot(self, seat: int) -> None:
        del self.bots[seat]
        self._record({"unbot": seat})

"""The audience and the host's remote: spectators, the lock, the seats offered, ``join``, and VIP phones.

* A phone that sends ``watch`` is a **spectator**: it gets the public table view (``you`` is null), then
  the reveal and the story like everybody, and may only take a seat in ``table.offered`` (``join``),
  stop watching (``leave``) or say ``hello``.
* ``table.offered`` is where a newcomer may sit right now: an empty seat in the lobby, a seat the host
  freed (any time: the newcomer takes over its hand, R33), a bot's seat between rounds (lobby, pause,
  game over: the newcomer takes over the bot's hand and team). A locked table offers nothing, and
  ``join`` and ``watch`` are refused ``table_locked`` (a seat's own token still resumes it).
* A **VIP phone** opened the link of the host's ``vip_link`` (``hello`` with ``vip``): it may send the
  host's actions too, without leaving its seat, until the host sends ``revoke_vip``. The secret goes
  only to the host screen that asked; it is not journaled (a restarted host issues a new one).
"""

from __future__ import annotations

import logging
import secrets

from .. import protocol as p
from ..engine import Game, Phase, SeatKind, Sit
from ..engine.refusals import Reason, Refusal
from . import names
from .botseats import Bots
from .connection import Connection
from .outbox import Outbox
from .referee import Referee
from .seats import Seats

log = logging.getLogger("quatro.server")

#: The phases between rounds: a bot's seat may change hands only then.
BETWEEN_ROUNDS = (Phase.LOBBY, Phase.PAUSE, Phase.OVER)


class Audience:
    """Spectators, the lock, ``table.offered`` and ``join``, and the host's remote (VIP phones)."""

    def __init__(self, game: Game, locked: bool, seats: Seats, bots: Bots, referee: Referee, outbox: Outbox) -> None:
        self.watchers: set[Connection] = set()  # phone sockets that watch
        self.vips: set[Connection] = set()  # phone sockets that hold the host's rights
        self.vip_secret: str | None = None
        self.locked = locked
        self._game = game
        self._seats = seats
        self._bots = bots
        self._referee = referee
        self._outbox = outbox

    # --- who is who --------------------------------------------------------------------

    def offered(self) -> list[int]:
        """The seats a newcomer or spectator may ``join`` right now (none while the table is locked)."""
        if self.locked:
            return []
        phase = self._game.phase
        offered = []
        for seat, s in enumerate(self._game.seats):
            if s.kind is SeatKind.EMPTY:
                ok = phase is Phase.LOBBY
            elif s.kind is SeatKind.BOT:
                ok = phase in BETWEEN_ROUNDS
            else:
                ok = not self._seats.held(seat)
            if ok:
                offered.append(seat)
        return offered

    def role(self, conn: Connection) -> str:
        """``player`` (holds a seat), ``spectator`` (sent ``watch``) or ``visitor`` (neither, yet)."""
        if conn.seat is not None:
            return "player"
        return "spectator" if conn in self.watchers else "visitor"

    def forget(self, conn: Connection) -> bool:
        """A socket closed: it holds no rights and watches no more; whether it was watching."""
        self.vips.discard(conn)
        return self.stop_watching(conn)

    # --- phone messages ------------------------------------------------------------------

    def join(self, conn: Connection, msg: p.Join) -> None:
        """A phone takes a seat that is offered (its hand and team too, R33)."""
        conn.greeted = True
        if conn.seat is not None:
            self._outbox.error(conn, p.ErrorCode.ALREADY_SEATED, f"you already hold seat {conn.seat}", msg.id)
            return
        seat = msg.seat
        if (bad := self._seats.no_such_seat(seat)) is not None:
            self._outbox.error(conn, *bad, msg.id)
            return
        if self.locked:
            self._outbox.error(conn, p.ErrorCode.TABLE_LOCKED, "the host locked the table: nobody new may sit", msg.id)
            return
        kind = self._game.seats[seat].kind
        if kind is SeatKind.BOT and self._game.phase not in BETWEEN_ROUNDS:
            self._outbox.error(
                conn, Reason.WRONG_PHASE, "a bot plays this seat until the round ends: join it then", msg.id
            )
            return
        if kind is not SeatKind.BOT and self._seats.held(seat):
            self._outbox.error(conn, p.ErrorCode.SEAT_TAKEN, "somebody holds that seat; the host can free it", msg.id)
            return
        why = names.problem(msg.name.strip())
        if why is not None:  # invisible characters, or nothing visible: a name must tell the player apart
            self._outbox.send(conn, p.Refused(Refusal(Reason.BAD_NAME, why), msg.id))
            return
        # An empty lobby seat, a human seat the host freed, or a bot's seat between rounds: this phone takes
        # it over, hand and team and all (R33). The engine refuses an empty seat outside the lobby.
        refusal = self._referee.apply(Sit(seat, SeatKind.HUMAN, self._seats.distinct_name(seat, msg.name)))
        if refusal is not None:
            self._outbox.send(conn, p.Refused(refusal, msg.id))
            return
        if seat in self._bots:
            self._seats.drop_bot(seat)
        self.stop_watching(conn)
        log.info("%r: joined seat %s as %r", conn, seat, msg.name)
        self._seats.seat(conn, seat, self._seats.new_token(seat), msg.id)

    def leave(self, conn: Connection, msg: p.Leave) -> None:
        """A spectator stops watching; a player gives its seat back (:meth:`.seats.Seats.leave`)."""
        if conn.seat is None and self.stop_watching(conn):
            self._outbox.send(conn, p.Ok(msg.id))
            return
        self._seats.leave(conn, msg)

    def watch(self, conn: Connection, msg: p.Watch) -> None:
        """A phone without a seat becomes a spectator (not while the table is locked)."""
        conn.greeted = True
        if conn.seat is not None:
            self._outbox.error(
                conn, p.ErrorCode.ALREADY_SEATED, f"you hold seat {conn.seat}: leave it to watch", msg.id
            )
            return
        if self.locked and conn not in self.watchers:
            self._outbox.error(
                conn, p.ErrorCode.TABLE_LOCKED, "the host locked the table: nobody new may come in", msg.id
            )
            return
        self.watchers.add(conn)
        self._outbox.send(conn, p.Ok(msg.id))
        self._outbox.changed()

    def stop_watching(self, conn: Connection) -> bool:
        """``conn`` is no spectator any more; whether it was one."""
        if conn not in self.watchers:
            return False
        self.watchers.discard(conn)
        self._outbox.changed()
        return True

    # --- the lock and the host's remote ---------------------------------------------------

    def lock(self, locked: bool) -> None:
        """Nobody new may join or watch (``table_locked``) while ``locked``."""
        self.locked = locked

    def vip_hello(self, conn: Connection, secret: str | None) -> None:
        """A phone's ``hello`` with a VIP secret: right, it holds the host's rights; wrong, it is told."""
        if secret is None:
            return
        good = self.vip_secret is not None and secrets.compare_digest(secret.encode(), self.vip_secret.encode())
        if good:
            if conn not in self.vips:
                log.info("%r: holds the host's remote", conn)
            self.vips.add(conn)
        else:
            self.vips.discard(conn)
            self._outbox.error(conn, p.ErrorCode.BAD_VIP, "that host's remote link is not valid (any more)")
        self._outbox.changed()

    def vip_link_secret(self) -> str:
        """The VIP secret for the host's remote link (the same until it is revoked)."""
        if self.vip_secret is None:
            self.vip_secret = secrets.token_urlsafe(18)
        return self.vip_secret

    def revoke_vips(self) -> None:
        """The VIP secret dies and every VIP phone loses the host's rights at once."""
        self.vip_secret = None
        self.vips.clear()
        self._outbox.changed()

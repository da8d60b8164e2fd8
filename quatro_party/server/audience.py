"""The audience and the host's remote: spectators, the lock, the seats offered, ``join``, and VIP phones.

* A phone that sends ``watch`` is a **spectator**: it gets the public table view (``you`` is null), then
  the reveal and the story like everybody, and may only take a seat in ``table.offered`` (``join``),
  stop watching (``leave``) or say ``hello``.
* ``table.offered`` is where a newcomer may sit right now: an empty seat in the lobby, a seat the host
  freed (any time: the newcomer takes over its hand, R33), a bot's seat between rounds (lobby, pause,
  game over: the newcomer takes over the bot's hand and team). A locked table offers nothing, and
  ``join`` and ``watch`` are refused ``table_locked`` (a seat's own token still resumes it).
* The **host's remote**: the host's ``vip_link`` makes a one-time invitation (:data:`VIP_INVITE_LIFETIME`; a
  new one each time, the last one dies). The first phone to say ``hello`` with it takes it: the invitation is
  used up (a second device is told ``vip_used``), and that phone gets a key of its own (``remote_key``), kept
  in its storage and sent in each ``hello`` (``remote``): it holds the host's rights, without leaving its
  seat, across a closed tab and a host restart (the journal keeps the key's hash, never the key), until the
  host takes the remote back (``revoke_vip``) or gives it to another phone. One phone holds the remote.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from .. import protocol as p
from ..engine import Game, Phase, SeatKind, Sit
from ..engine.refusals import Reason, Refusal
from . import names
from .botseats import Bots
from .connection import Connection
from .outbox import Outbox
from .recorder import Recorder
from .referee import Referee
from .seats import Seats, digest

log = logging.getLogger("quatro.server")

#: The phases between rounds: a bot's seat may change hands only then.
BETWEEN_ROUNDS = (Phase.LOBBY, Phase.PAUSE, Phase.OVER)
#: Seconds of the table clock an invitation to be the host's remote stays usable (once).
VIP_INVITE_LIFETIME = 300.0
#: Used invitations remembered, to tell a second device that its link was used (not merely wrong).
USED_INVITES_KEPT = 8


class Audience:
    """Spectators, the lock, ``table.offered`` and ``join``, and the host's remote (VIP phones)."""

    def __init__(
        self,
        game: Game,
        locked: bool,
        remote: tuple[str, int | None, str | None] | None,
        seats: Seats,
        bots: Bots,
        referee: Referee,
        recorder: Recorder,
        outbox: Outbox,
    ) -> None:
        self.watchers: set[Connection] = set()  # phone sockets that watch
        self.vips: set[Connection] = set()  # phone sockets that proved the remote's key: they hold the host's rights
        self.invite: tuple[str, float] | None = None  # the invitation out now, and until when it works
        # The remote's key (its hash), the seat of its phone when last seen, and the invitation it took (its hash);
        # None: nobody holds it.
        self.remote = remote
        # The last invitations taken (their hashes), to tell a second device so, after a restart too.
        self.used: list[str] = [remote[2]] if remote is not None and remote[2] is not None else []
        self.locked = locked
        self._game = game
        self._seats = seats
        self._bots = bots
        self._referee = referee
        self._recorder = recorder
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
        self.note_seat(conn)
        self.vips.discard(conn)
        return self.stop_watching(conn)

    # --- phone messages ------------------------------------------------------------------

    def join(self, conn: Connection, msg: p.Join) -> None:
        """A phone takes a seat that is offered (its hand and team too, R33)."""
        conn.greeted = True
        seat = msg.seat
        if (bad := self._seats.no_such_seat(seat)) is not None:
            self._outbox.error(conn, *bad, msg.id)
            return
        if msg.key is not None and conn.seat in (None, seat) and self._seats.tokens.joined_with(seat, msg.key):
            # The same join again: its reply went down with the page's last socket. It gets what it was given,
            # as the token would (a locked table too).
            self.stop_watching(conn)
            self._seats.resume(conn, seat, msg.id)
            return
        if conn.seat is not None:
            self._outbox.error(conn, p.ErrorCode.ALREADY_SEATED, f"you already hold seat {conn.seat}", msg.id)
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
        self._seats.seat(conn, seat, self._seats.new_token(seat, msg.key), msg.id)

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

    def vip_hello(self, conn: Connection, msg: p.Hello) -> None:
        """A phone's ``hello`` with the remote's key, or with an invitation: right, it holds the host's rights;
        otherwise it is told why (and plays on as a player)."""
        if msg.remote is None and msg.vip is None:
            return
        if (
            msg.remote is not None
            and self.remote is not None
            and secrets.compare_digest(digest(msg.remote), self.remote[0])
        ):
            if conn not in self.vips:
                log.info("%r: holds the host's remote", conn)
                self.vips.add(conn)
                self._outbox.changed()  # the host's screens show that its phone is here
            return
        if conn in self.vips:
            self.vips.discard(conn)
            self._outbox.changed()
        # A wrong key or invitation costs the sender its own answer only, never a frame to everybody.
        if msg.remote is not None and msg.vip is None:
            self._outbox.error(conn, p.ErrorCode.BAD_VIP, "the host took its remote back (or gave it to another phone)")
        elif msg.vip is not None:
            self._take_invite(conn, msg.vip, msg.token)

    def _take_invite(self, conn: Connection, invite: str, token: str | None) -> None:
        """The first phone to bring the invitation becomes the remote; the invitation is used up."""
        out = self.invite
        if out is not None and out[1] >= self._referee.now() and secrets.compare_digest(invite, out[0]):
            self.invite = None
            self.used = [*self.used[-(USED_INVITES_KEPT - 1) :], digest(invite)]
            key = secrets.token_urlsafe(24)
            seat = self._seats.tokens.by_token.get(token) if token else None
            self._hand_remote((digest(key), seat, digest(invite)))
            self.vips.add(conn)
            log.info("%r: took the host's remote", conn)
            self._outbox.send(conn, p.RemoteKey(key))
        elif digest(invite) in self.used:
            self._outbox.error(
                conn,
                p.ErrorCode.VIP_USED,
                "another phone already opened this remote link: ask the host to show a new one",
            )
        else:
            self._outbox.error(conn, p.ErrorCode.BAD_VIP, "that host's remote link is not valid (any more)")

    def _hand_remote(self, remote: tuple[str, int | None, str | None] | None) -> None:
        """The remote goes to the holder of this key (its hash), or to nobody: whoever held it loses it at once."""
        self.remote = remote
        self.vips.clear()
        key, seat, invite = remote if remote is not None else (None, None, None)
        self._recorder.record({"remote": key, "seat": seat, "invite": invite})
        self._outbox.changed()

    def vip_link_secret(self) -> str:
        """A new invitation to be the host's remote (the last one, if unused, dies): once, for a few minutes."""
        invite = secrets.token_urlsafe(18)
        self.invite = (invite, self._referee.now() + VIP_INVITE_LIFETIME)
        return invite

    def revoke_vips(self) -> None:
        """The host takes its remote back: the phone that held it loses the host's rights at once, and the
        invitation out (if any) dies; its old links are then merely not valid (``bad_vip``)."""
        self.invite = None
        self.used = []
        if self.remote is not None:
            self._hand_remote(None)
        self.vips.clear()
        self._outbox.changed()

    def holder(self) -> dict[str, Any] | None:
        """Who holds the host's remote, for the host's screens (``table.remote``), or ``None``."""
        if self.remote is None:
            return None
        here = [c for c in self.vips if c.open]
        seated = [c.seat for c in here if c.seat is not None]
        seat = seated[0] if seated else (None if here else self.remote[1])
        if seat is not None and (seat >= self._game.seat_count or self._game.seats[seat].kind is not SeatKind.HUMAN):
            seat = None
        name = self._game.seats[seat].name if seat is not None else None
        return {"seat": seat, "name": name, "connected": bool(here)}

    def note_seat(self, conn: Connection) -> None:
        """The remote's phone is leaving: its seat is kept, to say who holds the remote while it is away."""
        if conn in self.vips and self.remote is not None and conn.seat is not None:
            self.remote = (self.remote[0], conn.seat, self.remote[2])

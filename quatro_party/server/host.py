"""Host controls and seat links: what the screen that proved the host secret may do.

Each host action of :data:`~quatro_party.protocol.HOST_ACTION_TYPES` is a method ``_host_<action>``
taking the checked fields; it returns ``None`` (done: ``ok``), an engine :class:`Refusal`
(``refused``) or an ``(error code, message)`` pair (``error``). Nothing changes on a refusal.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from .. import protocol as p
from ..engine import (
    EndGame,
    NewGame,
    Pause,
    Phase,
    Resume,
    SeatKind,
    SetConnected,
    SetSeatCount,
    Settings,
    Sit,
    StartGame,
    StartNextRound,
    StartPractice,
)
from ..engine.refusals import Reason, Refusal
from .audience import Audience
from .connection import Connection

log = logging.getLogger("quatro.server")

#: The journal keeps the lock as this setting (a ``settings`` line), which never shows in ``table.settings``.
LOCKED = "locked"

#: How long a host-issued seat link stays usable (seconds of the table clock).
MOVE_LINK_LIFETIME = 600.0

#: What a host action gives back: done, refused by the engine, or refused by the server.
HostResult = None | Refusal | tuple[p.ErrorCode | Reason, str]


class HostControls(Audience):
    """The host's screen: seats, bots, the game's course, settings, and seat links for moving devices."""

    host_secret: str

    def _screen_message(self, conn: Connection, msg: p.ScreenHello | p.HostAction) -> None:
        if isinstance(msg, p.ScreenHello):
            conn.greeted = True
            if msg.host is not None:
                conn.is_host = secrets.compare_digest(msg.host.encode(), self.host_secret.encode())
                if not conn.is_host:
                    self._error(
                        conn, p.ErrorCode.BAD_HOST_SECRET, "wrong host secret: this screen only watches", msg.id
                    )
            self._send_state(conn)
            return
        self._host_message(conn, msg)

    def _host_message(self, conn: Connection, msg: p.HostAction) -> None:
        """A host action from a screen or a phone: done if it holds the host's rights, else ``not_host``."""
        if not (conn.is_host or conn in self.vips):
            self._error(conn, p.ErrorCode.NOT_HOST, "only the host's screen (or its remote) can do that", msg.id)
            return
        if msg.kind == "vip_link":  # answered by the link itself, to this screen only
            if conn.kind != "screen":
                self._error(conn, p.ErrorCode.NOT_HOST, "only the host's screen hands out its remote", msg.id)
                return
            self._issue_vip_link(conn, msg.id)
        handler = getattr(self, f"_host_{msg.kind}")
        result: HostResult = handler(conn, **msg.fields)
        if isinstance(result, Refusal):
            log.info("%r: host %s refused: %s", conn, msg.kind, result.reason.value)
            self._send(conn, p.Refused(result, msg.id))
        elif isinstance(result, tuple):
            self._error(conn, result[0], result[1], msg.id)
        else:
            log.info("%r: host %s %s", conn, msg.kind, msg.fields)
            self._send(conn, p.Ok(msg.id))
            self._dirty = True

    # --- seats and bots ----------------------------------------------------------------

    def _host_set_seats(self, conn: Connection, count: int) -> HostResult:
        refusal = self._apply(SetSeatCount(count))  # lobby, or after a game (then back to the lobby)
        if refusal is not None:
            return refusal
        for seat in [s for s in self.seat_tokens if s >= count]:
            self._revoke(seat)
            self._detach(seat, p.ErrorCode.SEAT_FREED, "the host removed this seat")
        for seat in [s for s in self.bots if s >= count]:
            self._drop_bot(seat)
        return None

    def _host_add_bot(self, conn: Connection, seat: int, level: str | None) -> HostResult:
        if (bad := self._no_such_seat(seat)) is not None:
            return bad
        if seat in self.seat_tokens:
            return (p.ErrorCode.SEAT_TAKEN, "a phone holds that seat: free it first")
        return self._put_bot(seat, level or self.settings["bot_level"])

    def _host_remove_bot(self, conn: Connection, seat: int) -> HostResult:
        if (bad := self._no_such_seat(seat)) is not None:
            return bad
        if seat not in self.bots:
            return (p.ErrorCode.NOT_A_BOT, "no bot sits there")
        refusal = self._apply(Sit(seat, SeatKind.EMPTY))
        if refusal is not None:
            return refusal
        self._drop_bot(seat)
        return None

    def _host_free_seat(self, conn: Connection, seat: int) -> HostResult:
        if (bad := self._no_such_seat(seat)) is not None:
            return bad
        if seat in self.bots:
            return self._host_remove_bot(conn, seat)
        if self.game.seats[seat].kind is SeatKind.EMPTY:
            return (Reason.SEAT_EMPTY, "that seat is already free")
        return self._take_seat_away(seat, p.ErrorCode.SEAT_FREED, "the host freed this seat")

    def _host_replace_with_bot(self, conn: Connection, seat: int, level: str | None) -> HostResult:
        """A human seat becomes a bot's, hand and all; its phone is told and falls back to the public view."""
        if (bad := self._no_such_seat(seat)) is not None:
            return bad
        kind = self.game.seats[seat].kind
        if kind is SeatKind.EMPTY:
            return (Reason.SEAT_EMPTY, "nobody sits there: add a bot instead")
        if kind is SeatKind.BOT:
            return (Reason.SEAT_NOT_HUMAN, "a bot already plays that seat")
        self._revoke(seat)
        self._detach(seat, p.ErrorCode.REPLACED_BY_BOT, "the host gave your seat to a bot")
        return self._put_bot(seat, level or self.settings["bot_level"])

    def _host_kick(self, conn: Connection, seat: int) -> HostResult:
        """The seat's player loses it (told so); in a game its hand stays for whoever takes the seat (R33)."""
        if (bad := self._no_such_seat(seat)) is not None:
            return bad
        if self.game.seats[seat].kind is not SeatKind.HUMAN or seat not in self.seat_tokens:
            return (p.ErrorCode.NOT_HELD, "no player holds that seat")
        return self._take_seat_away(seat, p.ErrorCode.KICKED, "the host gave your seat away")

    def _take_seat_away(self, seat: int, code: p.ErrorCode, text: str) -> HostResult:
        """The seat's phone loses it (told ``code``). In the lobby the seat empties; in a game it keeps its hand
        (R33) and the next phone to join it takes it over."""
        if self.game.phase is Phase.LOBBY:
            refusal = self._apply(Sit(seat, SeatKind.EMPTY))
            if refusal is not None:
                return refusal
        self._revoke(seat)
        self._detach(seat, code, text)
        if self.game.seats[seat].kind is SeatKind.HUMAN:
            self._apply(SetConnected(seat, False))
        return None

    def _host_lock(self, conn: Connection, locked: bool) -> HostResult:
        """Nobody new may join or watch (``table_locked``); seats already held resume as ever."""
        self.locked = locked
        self._record({"settings": {LOCKED: "true" if locked else "false"}})
        return None

    def _host_vip_link(self, conn: Connection) -> HostResult:
        return None  # the link itself went out in _host_message

    def _host_revoke_vip(self, conn: Connection) -> HostResult:
        self._revoke_vips()
        return None

    def _host_fill_bots(self, conn: Connection | None) -> HostResult:
        for seat, s in enumerate(self.game.seats):
            if s.kind is SeatKind.EMPTY:
                refusal = self._put_bot(seat, self.settings["bot_level"])
                if refusal is not None:
                    return refusal
        return None

    # --- the game's course ---------------------------------------------------------------

    def _host_start_game(self, conn: Connection | None) -> HostResult:
        return self._start(conn, StartGame())

    def _host_start_practice(self, conn: Connection | None) -> HostResult:
        return self._start(conn, StartPractice())

    def _start(self, conn: Connection | None, start: StartGame | StartPractice) -> HostResult:
        """Bots on the empty seats, then the game (or the practice round) starts: lobby only."""
        if self.game.phase is not Phase.LOBBY:
            return Refusal(Reason.WRONG_PHASE, "the game has already started", {"phase": self.game.phase.value})
        refusal = self._host_fill_bots(conn)
        return refusal if refusal is not None else self._apply(start)

    def _host_pause(self, conn: Connection) -> HostResult:
        return self._apply(Pause("host"))

    def _host_resume(self, conn: Connection) -> HostResult:
        return self._apply(Resume())

    def _host_end_game(self, conn: Connection) -> HostResult:
        return self._apply(EndGame())

    def _host_next_round(self, conn: Connection) -> HostResult:
        return self._apply(StartNextRound())

    def _host_new_game(self, conn: Connection) -> HostResult:
        return self._apply(NewGame())

    def _host_settings(self, conn: Connection, **fields: Any) -> HostResult:
        """House rules go to the engine (between games only: refused otherwise, and then nothing changes);
        the bot level and the language are the server's."""
        house = {k: fields.pop(k) for k in ("winning_score", "timer_factor") if k in fields}
        if house:
            refusal = self._apply(Settings(**house))
            if refusal is not None:
                return refusal
        if fields:
            self.settings.update(fields)
            self._record({"settings": dict(fields)})
        return None

    # --- seat links ------------------------------------------------------------------------

    def _host_allow_move(self, conn: Connection, seat: int) -> HostResult:
        if (bad := self._no_such_seat(seat)) is not None:
            return bad
        if seat not in self.seat_tokens:
            return (p.ErrorCode.NOT_HELD, "no phone holds that seat")
        link = secrets.token_urlsafe(18)
        self.moves[link] = (seat, self._now() + MOVE_LINK_LIFETIME)
        # The link goes only to the seat's own phone(s): it is as secret as the seat token.
        for phone in self._attached(seat):
            self._send(phone, p.SeatLink(seat, link, self._seat_link_url(link), MOVE_LINK_LIFETIME))
        return None

    def _seat_link_url(self, link: str) -> str:
        return f"{self.join_url or '/'}?seat={link}"

    def is_live_seat_link(self, url: str) -> bool:
        """Whether ``url`` is, exactly, a seat link this table issued (on its own join URL) that still works: the
        only text the host draws a QR code of for a phone (``POST /seat-link/qr.png``). Any thread."""

        def check() -> bool:
            _, sep, link = url.partition("?seat=")
            move = self.moves.get(link) if sep else None
            return move is not None and move[1] >= self._now() and url == self._seat_link_url(link)

        return bool(self.call(check))

"""The host's controls: what the screen that proved the host secret (or a VIP phone) may do, and the links it
hands out.

Each host action of :data:`~quatro_party.protocol.HOST_ACTION_TYPES` is a row of :data:`ACTIONS`: the method
that does it, called with the message's checked fields. It returns ``None`` (done: ``ok``), an engine
:class:`Refusal` (``refused``) or an ``(error code, message)`` pair (``error``). Nothing changes on a refusal.
The join URL (what the QR code says) is the host's too: the VIP link and seat links are made from it.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any

from .. import protocol as p
from ..engine import (
    EndGame,
    Game,
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
from .botseats import Bots
from .connection import Connection
from .outbox import Outbox
from .recorder import LOCKED, Recorder
from .referee import Referee
from .seats import MOVE_LINK_LIFETIME, Seats, digest

log = logging.getLogger("quatro.server")

#: Host keys remembered (the screens that proved the host's rights, newest last): a reload keeps its key, so
#: only new tabs add one; the oldest is forgotten past this.
MAX_HOST_KEYS = 8

#: What a host action gives back: done, refused by the engine, or refused by the server.
HostResult = None | Refusal | tuple[p.ErrorCode | Reason, str]


class HostControls:
    """The host's secret and addresses, the server's settings, and every host action."""

    def __init__(
        self,
        secret: str,
        host_keys: list[str],
        settings: dict[str, Any],
        join_url: str,
        mdns_name: str | None,
        game: Game,
        bots: Bots,
        seats: Seats,
        audience: Audience,
        referee: Referee,
        recorder: Recorder,
        outbox: Outbox,
        languages: dict[str, str],
    ) -> None:
        self.secret = secret
        self.languages = languages  # the catalogs present (code → name): what settings.language may name
        self.host_keys = host_keys[-MAX_HOST_KEYS:]  # hashes of the keys given to the host's screens (journaled)
        self.screens_back = 0  # host screens that came back with their key (the launcher reads it: no second tab)
        self.settings = settings  # the server's own: the bots' level and the language (house rules are the engine's)
        self.join_url = join_url
        self.mdns_name = mdns_name
        self._game = game
        self._bots = bots
        self._seats = seats
        self._audience = audience
        self._referee = referee
        self._recorder = recorder
        self._outbox = outbox

    # --- the screen and the host's messages -------------------------------------------

    def screen_hello(self, conn: Connection, msg: p.ScreenHello) -> None:
        """A big screen's ``hello``: with the right secret, or the key this host gave it (before a restart, too),
        it is the host's screen; it gets its first view. A screen proved by the secret alone gets a key
        (``host_key``, its own): the journal keeps the key's hash, so that the same tab is the host's again
        after a restart, with nothing secret in its address."""
        conn.greeted = True
        by_secret = msg.host is not None and secrets.compare_digest(msg.host.encode(), self.secret.encode())
        by_key = msg.key is not None and digest(msg.key) in self.host_keys
        conn.is_host = by_secret or by_key
        if by_key:
            self.screens_back += 1
        if conn.is_host and not by_key:
            key = secrets.token_urlsafe(24)
            self.host_keys = [*self.host_keys[-(MAX_HOST_KEYS - 1) :], digest(key)]
            self._recorder.record({"host_key": digest(key)})
            self._outbox.send(conn, p.HostKey(key))
        elif not conn.is_host and (msg.host is not None or msg.key is not None):
            self._outbox.error(
                conn,
                p.ErrorCode.BAD_HOST_SECRET,
                "this screen does not hold the host's rights (the host restarted?): open the address the host's "
                "terminal prints",
                msg.id,
            )
        self._outbox.send_state(conn)

    def act(self, conn: Connection, msg: p.HostAction) -> None:
        """A host action from a screen or a phone: done if it holds the host's rights, else ``not_host``."""
        if not (conn.is_host or conn in self._audience.vips):
            self._outbox.error(conn, p.ErrorCode.NOT_HOST, "only the host's screen (or its remote) can do that", msg.id)
            return
        if msg.kind == "vip_link":  # answered by the link itself, to this screen only
            if conn.kind != "screen":
                self._outbox.error(conn, p.ErrorCode.NOT_HOST, "only the host's screen hands out its remote", msg.id)
                return
            url = f"{self.join_url or '/'}?vip={self._audience.vip_link_secret()}"  # a new invitation each time
            self._outbox.send(conn, p.VipLink(msg.id, url))
        result = ACTIONS[msg.kind](self, **msg.fields)
        if isinstance(result, Refusal):
            log.info("%r: host %s refused: %s", conn, msg.kind, result.reason.value)
            self._outbox.send(conn, p.Refused(result, msg.id))
        elif isinstance(result, tuple):
            self._outbox.error(conn, result[0], result[1], msg.id)
        else:
            log.info("%r: host %s %s", conn, msg.kind, msg.fields)
            self._outbox.send(conn, p.Ok(msg.id))
            self._outbox.changed()

    # --- the addresses -----------------------------------------------------------------

    def set_join_url(self, url: str) -> None:
        """The join URL the QR code and ``table.join_url`` show (the screens see it with the next change)."""
        self.join_url = url

    def set_mdns_name(self, name: str | None) -> None:
        """The mDNS name once registered (``None``: none); the screens see it with the next change."""
        self.mdns_name = name

    def seat_link_url(self, link: str) -> str:
        return f"{self.join_url or '/'}?seat={link}"

    def is_live_seat_link(self, url: str) -> bool:
        """Whether ``url`` is, exactly, a seat link this table issued (on its own join URL) that still works."""
        _, sep, link = url.partition("?seat=")
        return bool(sep) and self._seats.is_live_link(link) and url == self.seat_link_url(link)

    # --- seats and bots ----------------------------------------------------------------

    def set_seats(self, count: int) -> HostResult:
        refusal = self._referee.apply(SetSeatCount(count))  # lobby, or after a game (then back to the lobby)
        if refusal is not None:
            return refusal
        for seat in [s for s in self._seats.tokens.by_seat if s >= count]:
            self._seats.revoke(seat)
            self._seats.detach(seat, p.ErrorCode.SEAT_FREED, "the host removed this seat")
        for seat in [s for s in self._bots if s >= count]:
            self._seats.drop_bot(seat)
        return None

    def add_bot(self, seat: int, level: str | None) -> HostResult:
        if (bad := self._seats.no_such_seat(seat)) is not None:
            return bad
        if self._seats.has_token(seat):
            return (p.ErrorCode.SEAT_TAKEN, "a phone holds that seat: free it first")
        return self._seats.put_bot(seat, level or self.settings["bot_level"])

    def remove_bot(self, seat: int) -> HostResult:
        if (bad := self._seats.no_such_seat(seat)) is not None:
            return bad
        if seat not in self._bots:
            return (p.ErrorCode.NOT_A_BOT, "no bot sits there")
        refusal = self._referee.apply(Sit(seat, SeatKind.EMPTY))
        if refusal is not None:
            return refusal
        self._seats.drop_bot(seat)
        return None

    def free_seat(self, seat: int) -> HostResult:
        if (bad := self._seats.no_such_seat(seat)) is not None:
            return bad
        if seat in self._bots:
            return self.remove_bot(seat)
        if self._game.seats[seat].kind is SeatKind.EMPTY:
            return (Reason.SEAT_EMPTY, "that seat is already free")
        return self._take_seat_away(seat, p.ErrorCode.SEAT_FREED, "the host freed this seat")

    def replace_with_bot(self, seat: int, level: str | None) -> HostResult:
        """A human seat becomes a bot's, hand and all; its phone is told and falls back to the public view."""
        if (bad := self._seats.no_such_seat(seat)) is not None:
            return bad
        kind = self._game.seats[seat].kind
        if kind is SeatKind.EMPTY:
            return (Reason.SEAT_EMPTY, "nobody sits there: add a bot instead")
        if kind is SeatKind.BOT:
            return (Reason.SEAT_NOT_HUMAN, "a bot already plays that seat")
        self._seats.revoke(seat)
        self._seats.detach(seat, p.ErrorCode.REPLACED_BY_BOT, "the host gave your seat to a bot")
        return self._seats.put_bot(seat, level or self.settings["bot_level"])

    def kick(self, seat: int) -> HostResult:
        """The seat's player loses it (told so); in a game its hand stays for whoever takes the seat (R33)."""
        if (bad := self._seats.no_such_seat(seat)) is not None:
            return bad
        if self._game.seats[seat].kind is not SeatKind.HUMAN or not self._seats.has_token(seat):
            return (p.ErrorCode.NOT_HELD, "no player holds that seat")
        return self._take_seat_away(seat, p.ErrorCode.KICKED, "the host gave your seat away")

    def _take_seat_away(self, seat: int, code: p.ErrorCode, text: str) -> HostResult:
        """The seat's phone loses it (told ``code``). In the lobby the seat empties; in a game it keeps its hand
        (R33) and the next phone to join it takes it over."""
        if self._game.phase is Phase.LOBBY:
            refusal = self._referee.apply(Sit(seat, SeatKind.EMPTY))
            if refusal is not None:
                return refusal
        self._seats.revoke(seat)
        self._seats.detach(seat, code, text)
        if self._game.seats[seat].kind is SeatKind.HUMAN:
            self._referee.apply(SetConnected(seat, False))
        return None

    def lock(self, locked: bool) -> HostResult:
        """Nobody new may join or watch (``table_locked``); seats already held resume as ever."""
        self._audience.lock(locked)
        self._recorder.record({"settings": {LOCKED: "true" if locked else "false"}})
        return None

    def vip_link(self) -> HostResult:
        return None  # the link itself went out in act()

    def revoke_vip(self) -> HostResult:
        self._audience.revoke_vips()
        return None

    def fill_bots(self) -> HostResult:
        for seat, s in enumerate(self._game.seats):
            if s.kind is SeatKind.EMPTY:
                refusal = self._seats.put_bot(seat, self.settings["bot_level"])
                if refusal is not None:
                    return refusal
        return None

    # --- the game's course ---------------------------------------------------------------

    def start_game(self) -> HostResult:
        return self._start(StartGame())

    def start_practice(self) -> HostResult:
        return self._start(StartPractice())

    def _start(self, start: StartGame | StartPractice) -> HostResult:
        """Bots on the empty seats, then the game (or the practice round) starts: lobby only."""
        if self._game.phase is not Phase.LOBBY:
            return Refusal(Reason.WRONG_PHASE, "the game has already started", {"phase": self._game.phase.value})
        refusal = self.fill_bots()
        return refusal if refusal is not None else self._referee.apply(start)

    def pause(self) -> HostResult:
        return self._referee.apply(Pause("host"))

    def resume(self) -> HostResult:
        return self._referee.apply(Resume())

    def end_game(self) -> HostResult:
        return self._referee.apply(EndGame())

    def next_round(self) -> HostResult:
        return self._referee.apply(StartNextRound())

    def new_game(self) -> HostResult:
        return self._referee.apply(NewGame())

    def change_settings(self, **fields: Any) -> HostResult:
        """House rules go to the engine (between games only: refused otherwise, and then nothing changes);
        the bot level and the language are the server's."""
        language = fields.get("language")
        if language is not None and language not in self.languages:
            return (p.ErrorCode.BAD_FIELD, f"no catalog for '{language}': one of {', '.join(self.languages)}")
        house = {k: fields.pop(k) for k in ("winning_score", "timer_factor") if k in fields}
        if house:
            refusal = self._referee.apply(Settings(**house))
            if refusal is not None:
                return refusal
        if fields:
            self.settings.update(fields)
            self._recorder.record({"settings": dict(fields)})
        return None

    # --- seat links ------------------------------------------------------------------------

    def allow_move(self, seat: int) -> HostResult:
        """A seat link for the seat's own phone(s): it is as secret as the seat token."""
        if (bad := self._seats.no_such_seat(seat)) is not None:
            return bad
        if not self._seats.has_token(seat):
            return (p.ErrorCode.NOT_HELD, "no phone holds that seat")
        link = self._seats.new_link(seat)
        for phone in self._seats.attached(seat):
            self._outbox.send(phone, p.SeatLink(seat, link, self.seat_link_url(link), MOVE_LINK_LIFETIME))
        return None


#: Every host action (:data:`~quatro_party.protocol.HOST_ACTION_TYPES`, a test checks it) and the method that
#: does it, called with the message's checked fields.
ACTIONS: dict[str, Callable[..., HostResult]] = {
    "set_seats": HostControls.set_seats,
    "add_bot": HostControls.add_bot,
    "remove_bot": HostControls.remove_bot,
    "free_seat": HostControls.free_seat,
    "replace_with_bot": HostControls.replace_with_bot,
    "kick": HostControls.kick,
    "lock": HostControls.lock,
    "vip_link": HostControls.vip_link,
    "revoke_vip": HostControls.revoke_vip,
    "fill_bots": HostControls.fill_bots,
    "start_game": HostControls.start_game,
    "start_practice": HostControls.start_practice,
    "pause": HostControls.pause,
    "resume": HostControls.resume,
    "end_game": HostControls.end_game,
    "next_round": HostControls.next_round,
    "new_game": HostControls.new_game,
    "settings": HostControls.change_settings,
    "allow_move": HostControls.allow_move,
}

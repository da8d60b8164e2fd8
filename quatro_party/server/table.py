"""The table: one per host, an actor that holds the game and the few objects around it, each owning its state.

Theory of operation. Socket threads call :meth:`Table.connect`, :meth:`Table.receive` and
:meth:`Table.disconnect`, which only post to the table's thread (:class:`~.actor.Actor`). There each message
is parsed (:mod:`quatro_party.protocol`) and dispatched by :meth:`Table._dispatch`, the one place that says
which object handles which message; then :meth:`Table._turn` runs the deadlines, sends every socket its own
fresh view and lets due bots play. The objects, each built here with exactly what it needs:

* :class:`~.referee.Referee` — the game and its clock: every engine command applied, journaled, its events
  noted (``referee.py``);
* :class:`~.outbox.Outbox` — the sockets, the replies held until a change is handled, then one ``state``
  frame per socket (``outbox.py``), each frame's parts encoded once by :class:`~.broadcast.Frames`;
* :class:`~.seats.Seats` — seat tokens, seat links, ``hello`` / ``leave``, seating players and bots;
  :class:`~.botseats.Bots` — the bots by seat, woken and told like phones;
* :class:`~.audience.Audience` — spectators, the lock, ``table.offered`` and ``join``, VIP phones;
* :class:`~.host.HostControls` — the host's secret, addresses and settings, and the table of host actions;
* :class:`~.recorder.Recorder` — the journal as the table runs; :mod:`.resume` — where a table starts
  (:func:`~.resume.open_table`) and the restart hold (:class:`~.resume.RestartHold`).

The game object never changes after the table is built (a replay builds it first), so each object holds it.
The public ``table`` block of a frame draws on every object's facts: :meth:`Table._public` assembles it.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from .. import protocol as p
from ..bots import make_bot
from . import catalogs
from .actor import Actor
from .audience import Audience
from .botseats import Bots
from .broadcast import SPECTATOR, Frames
from .config import with_defaults
from .connection import Connection
from .host import HostControls
from .outbox import Outbox
from .recorder import Recorder
from .referee import Referee
from .resume import RESUME_EPSILON, RestartHold, open_table, resumed_line
from .seats import Greetings, Seats

log = logging.getLogger("quatro.server")

__all__ = ["RESUME_EPSILON", "Table"]

#: Shortest sleep when a bot asks to be woken in the past (guards against a spinning bot).
MIN_SLEEP = 0.01


class Table:
    """One table per host: the engine, the seats' tokens, the bots and every socket.

    ``config``: the keys of :data:`~.config.DEFAULTS` (missing ones take their default). ``journal`` is the
    path of the table's journal (see :mod:`.journal`): when it holds a table whose game had started, that
    table is resumed — its seats, tokens, bots, settings, scores and round — and ``seats``, ``seed``,
    ``time_scale`` and the settings given here are ignored; a journal that cannot be replayed is renamed
    ``*.broken``. After a resume, :attr:`resumed` says so in one line (else it is ``None``).
    """

    def __init__(self, config: dict[str, Any]) -> None:
        config = with_defaults(config)
        start = open_table(config, config["clock"] or time.monotonic)
        self.game = start.game
        self.clock = start.clock
        self.bots = Bots(config["bot_factory"] or make_bot, start.seed, start.bots)
        self.outbox = Outbox(self.bots, self.clock, self._state_text)
        origin = (start.deal_seed, start.seed, start.timing)
        self.recorder = Recorder(start.journal, start.journal_lock, self.clock, origin, self.outbox.changed)
        self.recorder.damage = start.damage
        self.referee = Referee(self.game, self.clock, self.recorder, self.outbox)
        self.frames = Frames(self.game)
        self.seats = Seats(self.game, start.tokens, self.bots, self.referee, self.recorder, self.outbox)
        self.audience = Audience(
            self.game,
            start.locked,
            start.powers.remote,
            self.seats,
            self.bots,
            self.referee,
            self.recorder,
            self.outbox,
        )
        self.host = HostControls(
            config["host_secret"] or secrets.token_urlsafe(18),
            start.powers.host_keys,
            start.settings,
            config["join_url"] or "",
            config["mdns_name"],
            self.game,
            self.bots,
            self.seats,
            self.audience,
            self.referee,
            self.recorder,
            self.outbox,
            dict(config["languages"] or catalogs.present()),
        )
        self.hold = RestartHold(self.game, self.seats, self.referee)
        self.greetings = Greetings()  # what a hello may cost: one answer per socket a second
        self.resumed: str | None = None  # one line saying what was resumed (the launcher prints it)
        self.resumed_at: float | None = None  # the journal's last time, from which a resumed clock goes on
        if start.resumed_from is not None:
            self.resumed_at = start.last_time
            self.hold.begin()
            self.resumed = resumed_line(start.resumed_from, self.game)
            log.info("%s", self.resumed)
            self.outbox.changed()  # every bot (and every socket to come) gets the current state
        self.actor = Actor(self._turn, self._sleep_for, self.recorder.close)

    # --- entry points for the socket handlers and the launcher (any thread) ------------

    @property
    def host_secret(self) -> str:
        """The secret a screen proves in its ``hello`` to be the host's (``/screen#host=…``)."""
        return self.host.secret

    @property
    def join_url(self) -> str:
        """The join URL the QR code and ``table.join_url`` show."""
        return self.host.join_url

    @property
    def mdns_name(self) -> str | None:
        """The mDNS name, once registered."""
        return self.host.mdns_name

    def start(self) -> Table:
        """Start the table thread; returns the table."""
        self.actor.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        """Close every socket (1001, going away) and end the table thread (and close its journal)."""
        if not self.actor.is_alive():
            self.recorder.close()
            return
        try:
            self.actor.call(lambda: self.outbox.close_all(1001, "server shutting down"), timeout=timeout)
        except Exception:  # pragma: no cover - table already gone
            pass
        self.actor.finish(timeout)

    def post(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` on the table thread, soon, in arrival order."""
        self.actor.post(fn, *args)

    def call(self, fn: Callable[[], Any], timeout: float = 5.0) -> Any:
        """Run ``fn()`` on the table thread and return its result (tests and the launcher use it)."""
        return self.actor.call(fn, timeout)

    def poke(self) -> None:
        """Wake the table now (tests with an injected clock call this after moving time)."""
        self.actor.poke()

    def connect(self, conn: Connection) -> None:
        """A socket opened (it gets nothing before its ``hello``)."""
        self.actor.post(self._on_connect, conn)

    def receive(self, conn: Connection, raw: str | bytes) -> None:
        """A socket's message, raw: the table thread checks and applies it."""
        self.actor.post(self._on_message, conn, raw)

    def disconnect(self, conn: Connection) -> None:
        """A socket closed; its seat, if any, shows disconnected (R33: the seat and hand stay)."""
        self.actor.post(self._on_disconnect, conn)

    def set_join_url(self, url: str) -> None:
        """The join URL the QR code and ``table.join_url`` show."""

        def readdress() -> None:
            self.host.set_join_url(url)
            self.outbox.changed()

        self.actor.post(readdress)

    def set_mdns_name(self, name: str | None) -> None:
        """The mDNS name once registered (``None``: none)."""

        def rename() -> None:
            self.host.set_mdns_name(name)
            self.outbox.changed()

        self.actor.post(rename)

    def is_live_seat_link(self, url: str) -> bool:
        """Whether ``url`` is, exactly, a seat link this table issued (on its own join URL) that still works: the
        only text the host draws a QR code of for a phone (``POST /seat-link/qr.png``). Any thread."""
        return bool(self.actor.call(lambda: self.host.is_live_seat_link(url)))

    # --- the table thread: sockets and messages --------------------------------------

    def _on_connect(self, conn: Connection) -> None:
        self.outbox.add(conn)
        log.info("%r connected", conn)

    def _on_disconnect(self, conn: Connection) -> None:
        self.outbox.discard(conn)
        self.greetings.forget(conn)
        if self.audience.forget(conn):
            log.info("%r stopped watching", conn)
        log.info("%r disconnected", conn)
        self.seats.unseat(conn)  # R33: the seat and hand stay

    def _on_message(self, conn: Connection, raw: str | bytes) -> None:
        if conn not in self.outbox.sockets and conn.kind != "bot":
            return  # arrived after the socket closed
        try:
            msg = p.parse_screen(raw) if conn.kind == "screen" else p.parse_phone_socket(raw)
            self._dispatch(conn, msg)
        except p.ProtocolError as exc:
            self.outbox.error(conn, exc.code, exc.message, exc.ref)
        except Exception:
            # The raw text is not logged: it may hold a seat token.
            log.exception("%r: a %d-character message crashed its handler", conn, len(raw))
            self.outbox.error(conn, p.ErrorCode.INTERNAL, "the server could not handle that message")

    def _dispatch(
        self, conn: Connection, msg: p.ScreenHello | p.Hello | p.Join | p.Leave | p.Watch | p.HostAction | p.Action
    ) -> None:
        """Every message a socket or a bot may send, and the object that handles it."""
        if isinstance(msg, (p.Hello, p.ScreenHello)) and not self.greetings.admit(conn, msg):
            return  # answered once its socket's gap is over (what a repeated hello may cost is bounded)
        match msg:
            case p.ScreenHello():
                self.host.screen_hello(conn, msg)
            case p.HostAction():  # from the host's screen, or a VIP phone
                self.host.act(conn, msg)
            case p.Hello():
                self.audience.vip_hello(conn, msg)  # first: the state the hello brings says if it holds the rights
                if msg.token:
                    self.audience.stop_watching(conn)
                self.seats.hello(conn, msg)
            case p.Join():
                self.audience.join(conn, msg)
            case p.Leave():
                self.audience.leave(conn, msg)
            case p.Watch():
                self.audience.watch(conn, msg)
            case p.Action():
                self._play(conn, msg)

    def _play(self, conn: Connection, msg: p.Action) -> None:
        """A game action for the socket's own seat: the seat comes from its token, never from the message (R39)."""
        if conn.seat is None:
            self.outbox.error(conn, p.ErrorCode.NOT_SEATED, "take a seat first", msg.id)
            return
        refusal = self.referee.apply(p.to_command(msg, conn.seat))
        if refusal is not None:
            log.info("%r: %s refused: %s", conn, msg.kind, refusal.reason.value)
            self.outbox.send(conn, p.Refused(refusal, msg.id))
        else:
            self.outbox.send(conn, p.Ok(msg.id))

    # --- the table thread: the scheduler -------------------------------------------------

    def _turn(self) -> None:
        """After each message or wake-up: deadlines, views, bots, views; then the replies still held."""
        try:
            self._tick()
            self.outbox.flush()
            self._wake_bots()
            self.outbox.flush()
        except Exception:
            log.exception("table: error in the scheduler")
        finally:
            self.outbox.deliver()

    def _sleep_for(self) -> float | None:
        """Seconds until the engine's next deadline, the next bot wake-up or a waiting hello (``None``: until a
        message)."""
        if self.outbox.dirty:
            return 0.0
        wanted = [self.game.next_deadline(), self.hold.until, self.recorder.next_beat(self.game)]
        wanted += self.bots.next_wakes()
        waits = [d - self.clock() for d in wanted if isinstance(d, (int, float))]
        hello = self.greetings.wait()  # already in seconds from now: the host's real clock, not the table's
        if hello is not None:
            waits.append(hello)
        if not waits:
            return None
        return max(MIN_SLEEP, min(waits))

    def _tick(self) -> None:
        for conn, hello in self.greetings.due():
            if conn in self.outbox.sockets:
                self._dispatch(conn, hello)
        self.hold.check()
        self.referee.tick()
        # A round that just ended: its journal becomes one snapshot.
        self.recorder.compact(
            self.game,
            self.host.settings,
            self.seats.tokens,
            self.bots.levels(),
            self.audience.locked,
            self.host.host_keys,
            self.audience.remote,
        )

    def _wake_bots(self) -> None:
        """Every bot whose wake-up is due plays, through the very path a phone's message takes."""
        now = self.clock()
        for seat in sorted(self.bots):
            woken = self.bots.wake(seat, now)
            if woken is None:
                continue
            entry, moves = woken
            for raw in moves:
                self._on_message(entry[2], raw)
                if self.bots.get(seat) is not entry:  # the action changed the seat (should not happen)
                    break
            self.outbox.flush()

    # --- the table thread: what each socket is shown -------------------------------------

    def _state_text(self, conn: Connection, events: list[dict[str, Any]], now: float, cache: dict[Any, str]) -> str:
        """The ``state`` frame for one socket, as text (see :meth:`.broadcast.Frames.state_text`)."""
        return self.frames.state_text(
            self._view_of(conn), self._public_key(conn), lambda: self._public(conn), events, now, cache
        )

    def _view_of(self, conn: Connection) -> int | str | None:
        """Which view ``conn`` gets: its seat's (a seat number), the table's (``None``), or :data:`SPECTATOR`."""
        if conn in self.audience.watchers:
            return SPECTATOR
        seat = conn.seat if conn.kind in ("phone", "bot") else None
        return seat if seat is not None and 0 <= seat < self.game.seat_count else None

    def _public_key(self, conn: Connection) -> tuple[object, ...]:
        """What ``conn``'s ``table`` block depends on: sockets with the same key share its bytes."""
        return (conn.kind == "screen", conn.is_host, self.audience.role(conn), conn in self.audience.vips)

    def _public(self, conn: Connection) -> dict[str, Any]:
        """The ``table`` block of a state frame: the server's public facts (the same for every phone)."""
        table: dict[str, Any] = {
            "join_url": self.host.join_url,
            "mdns_name": self.host.mdns_name,
            "bots": {str(s): level for s, level in self.bots.levels().items()},
            "freed": self.seats.freed(),
            "settings": dict(self.host.settings),
        }
        if conn.kind == "screen":
            table["host"] = conn.is_host
            # The host must know when the table would not survive a restart ("cannot save the game: disk full").
            failure = self.recorder.failure
            table["warning"] = "journal" if failure else None
            table["journal_error"] = failure
            # A journal found damaged at start: which line, what was kept and where the rest is (the TV says so).
            table["journal_damage"] = self.recorder.damage
        table["locked"] = self.audience.locked
        table["offered"] = self.audience.offered()
        table["watching"] = len(self.audience.watchers)
        if conn.kind != "screen":
            table["role"] = self.audience.role(conn)
            table["host"] = conn in self.audience.vips
        elif conn.is_host:
            table["remote"] = self.audience.holder()  # which phone holds the host's remote, if any
        return table

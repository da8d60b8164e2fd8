"""The table: one thread owns the engine; sockets and bots talk to it through a queue.

Everything that touches the :class:`~quatro_party.engine.Game` happens on the
table thread, in arrival order (R16, R25: "the server orders exchanges by
arrival"). Socket reader threads only *post* raw text; the table parses it,
applies it, and after every change sends each socket its own fresh view, built
by the engine's view functions and nothing else (R36–R39):

* big screens and unseated phones get ``table_view``;
* a seated phone (or a bot) gets ``seat_view`` of its own seat.

The thread sleeps in ``queue.get(timeout=…)`` until the next engine deadline or
bot wake-up, whichever is first: no polling.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import queue
import random
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable
from typing import Any

from .. import protocol as p
from ..bots import make_bot
from ..engine import (
    Game,
    NewGame,
    Phase,
    SeatKind,
    SetConnected,
    SetSeatCount,
    Sit,
    StartGame,
    StartNextRound,
    Timing,
    seat_view,
    table_view,
)
from ..engine.game import MAX_NAME_LENGTH
from ..engine.refusals import Reason, Refusal
from .connection import Connection
from .journal import Journal, JournalError, command_entry, command_from, entry_kind, lock, read, set_aside

log = logging.getLogger("quatro.server")

#: How long a host-issued seat link stays usable (seconds of the table clock).
MOVE_LINK_LIFETIME = 600.0
#: Shortest sleep when a bot asks to be woken in the past (guards against a spinning bot).
MIN_SLEEP = 0.01
#: A resumed table's clock first reads this much after the journal's last time (time never goes back).
RESUME_EPSILON = 1e-6

BOT_NAMES = ("Ada", "Bix", "Cleo", "Dex", "Eno", "Fay", "Gus", "Hal")

_STOP = object()


def _name_key(name: str) -> str:
    """What two names must differ in: not case, not accents, not spacing ("Chloé" = "chloe " = "CHLOE")."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def distinct_name(name: str, others: list[str]) -> str:
    """``name`` (trimmed), or with a number ("Ana 2", "Ana 3"…) when one of ``others`` already reads the same
    (:func:`_name_key`); kept within the engine's length by shortening the name. A name the engine would
    refuse anyway (empty, too long, not printable) is given back unchanged, for the engine to refuse.

    >>> distinct_name("ana", ["Ana", "Bot Ada"]), distinct_name("Ana", ["ÁNA", "ana 2"])
    ('ana 2', 'Ana 3')
    """
    name = name.strip()
    if not 1 <= len(name) <= MAX_NAME_LENGTH or not name.isprintable():
        return name
    taken = {_name_key(o) for o in others if o}
    candidate, n = name, 1
    while _name_key(candidate) in taken:
        n += 1
        suffix = f" {n}"
        candidate = name[: MAX_NAME_LENGTH - len(suffix)].rstrip() + suffix
    return candidate


_dumps = p.json_text  # every frame: compact UTF-8 JSON, emoji unescaped


class Table:
    """One table per host: the engine, the seats' tokens, the bots and every socket.

    ``config`` keys (all optional): ``seats`` (4/6/8), ``seed``, ``time_scale``,
    ``clock`` (a ``() -> float`` monotonic source), ``host_secret``, ``bot_level``,
    ``language``, ``join_url``, ``mdns_name``, ``bot_factory`` (overrides
    ``quatro_party.bots.make_bot``), ``journal`` (path of the table's journal, see
    :mod:`.journal`: when it holds a table whose game had started, that table is resumed — its seats, tokens, bots,
    settings, scores and round — and ``seats``, ``seed``, ``time_scale`` and the settings
    given here are ignored; a journal that cannot be replayed is renamed ``*.broken``).

    After a resume, :attr:`resumed` says so in one line (else it is ``None``).
    """

    def __init__(self, config: dict[str, Any]) -> None:
        self.clock: Callable[[], float] = config.get("clock") or time.monotonic
        self.host_secret: str = config.get("host_secret") or secrets.token_urlsafe(18)
        self.join_url: str = config.get("join_url") or ""
        self.mdns_name: str | None = config.get("mdns_name")
        self._make_bot = config.get("bot_factory") or make_bot
        self.conns: set[Connection] = set()
        self.moves: dict[str, tuple[int, float]] = {}  # seat-link token → (seat, expiry); not journaled
        self.journal: Journal | None = None
        self._journal_lock: int | None = None
        self.resumed: str | None = None
        self._events: list[dict[str, Any]] = []
        self._outbox: list[tuple[Connection, str]] = []  # frames of the change being handled, sent together
        self._dirty = False
        self._last_time = 0.0
        self._new_table(config)
        path = config.get("journal")
        if path:
            self._open_journal(str(path), config)
        self._inbox: queue.Queue[Any] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="quatro-table", daemon=True)
        self._stopped = threading.Event()

    def _new_table(self, config: dict[str, Any]) -> None:
        """The game and the table-level state of a new table, from ``config`` (nothing journaled)."""
        seed = config.get("seed")
        self.seed = seed
        # A table made without a seed still gets one, drawn here, so that its journal can deal the same cards.
        self.deal_seed: int | str = seed if isinstance(seed, (int, str)) else secrets.randbits(64)
        scale = float(config.get("time_scale") or 1.0)
        self.timing = Timing().scaled(scale)
        # Deals depend on the seed alone; bots get their own generators so that
        # adding a bot never changes the cards.
        self.game = Game(int(config.get("seats") or 4), rng=random.Random(self.deal_seed), timing=self.timing)
        self.settings: dict[str, str] = {
            "bot_level": config.get("bot_level") or "normal",
            "language": config.get("language") or "en",
        }
        self.tokens: dict[str, int] = {}  # seat token → seat
        self.seat_tokens: dict[int, str] = {}  # seat → its token
        self.bots: dict[int, tuple[str, Any, Connection]] = {}  # seat → (level, bot, its pseudo-connection)

    # --- the journal (before the thread starts, then on the table thread) -------------

    def _open_journal(self, path: str, config: dict[str, Any]) -> None:
        """Resume the table the journal at ``path`` holds, or start a new journal there.

        Nothing in the journal may stop the host from starting: a journal that cannot be
        replayed, or whose replay does not give the same outcomes, is renamed ``*.broken``
        and the table starts fresh.
        """
        try:
            self._journal_lock = lock(path)
        except OSError as exc:
            log.warning("cannot lock the table's journal %s (%s): a restart will lose this table", path, exc)
            return
        if self._journal_lock is None:
            log.warning("another host is using the table's journal %s: this table keeps none", path)
            return
        if os.path.exists(path):
            try:
                length = self._replay(path)
            except OSError as exc:  # left as it is: it may be fine, only out of reach for now
                log.warning(
                    "cannot read the table's journal %s (%s): starting a new table, kept by no journal", path, exc
                )
                self._new_table(config)
                return
            # Any exception at all: the replay runs the engine on data read from disk, and a bad
            # journal must cost the old table, never the host.
            except Exception as exc:
                broken = set_aside(path, ".broken")
                log.warning(
                    "the table's journal %s cannot be replayed (%s): starting a new table; "
                    "the old journal is kept as %s",
                    path,
                    exc,
                    broken,
                )
                self._new_table(config)
            else:
                if self.game.phase is not Phase.LOBBY:
                    self._resume(path, length)
                    return
                # Only a lobby: nothing a restart could lose (phones join again), and the host's options
                # (seats, seed, time scale) must win over the last run's.
                set_aside(path, ".old")
                self._new_table(config)
        try:
            self.journal = Journal.create(
                path,
                {
                    "seats": self.game.seat_count,
                    "seed": self.deal_seed,
                    "bot_seed": self.seed,
                    "timing": dataclasses.asdict(self.timing),
                    "settings": dict(self.settings),
                    "t": self.clock(),
                },
            )
        except (OSError, TypeError, ValueError) as exc:
            log.warning("cannot write the table's journal %s (%s): a restart will lose this table", path, exc)
            self.journal = None

    def _replay(self, path: str) -> int:
        """Rebuild the game and the table-level state from the journal; the length of its good part.

        Raises :class:`JournalError` (or whatever the engine raises) when the journal does not
        replay to the same outcomes; ``self`` is then half-built and must be made anew.
        """
        header, entries, length = read(path)
        seed = header["seed"]
        if not isinstance(seed, (int, str)) or isinstance(seed, bool):
            raise JournalError(f"bad seed {seed!r}")
        self.deal_seed, self.seed = seed, header.get("bot_seed")
        self.timing = Timing(**header["timing"])
        self.game = Game(int(header["seats"]), rng=random.Random(seed), timing=self.timing)
        self.settings.update(header["settings"])
        levels: dict[int, str] = {}  # the bots are made once the game is rebuilt
        last = float(header["t"])
        for number, e in enumerate(entries, start=2):
            kind = entry_kind(e)
            t = float(e["t"])
            last = max(last, t)
            if kind == "cmd":
                out = self.game.apply(command_from(e), t)
                got = (out.refusal.reason.value if out.refusal is not None else None, len(out.events))
                if got != (e.get("r"), e.get("n")):
                    raise JournalError(f"line {number}: {e['cmd']} gave {got}, not {(e.get('r'), e.get('n'))}")
            elif kind == "tick":
                n = len(self.game.tick(t).events)
                if n != e.get("n"):
                    raise JournalError(f"line {number}: the tick gave {n} events, not {e.get('n')}")
            elif kind == "position":
                self.game.set_position(e["position"])
            elif kind == "token":
                self._seat_token(int(e["seat"]), str(e["token"]))
            elif kind == "revoke":
                self._revoke(int(e["revoke"]))
            elif kind == "bot":
                levels[int(e["bot"])] = str(e["level"])
            elif kind == "unbot":
                levels.pop(int(e["unbot"]), None)
            elif kind == "settings":
                self.settings.update({str(k): str(v) for k, v in e["settings"].items()})
        seats = self.game.seats
        if any(not 0 <= s < len(seats) or seats[s].kind is not SeatKind.BOT for s in levels):
            raise JournalError(f"bots {levels} do not match the seats")
        if any(not 0 <= s < len(seats) for s in self.seat_tokens):
            raise JournalError(f"seat tokens for seats {sorted(self.seat_tokens)} beyond the table")
        self._last_time = last
        for seat, level in sorted(levels.items()):
            self.bots[seat] = self._new_bot(seat, level)
        return length

    def _resume(self, path: str, length: int) -> None:
        """After a replay: the clock goes on from the journal's last time, and the journal from its end."""
        base, offset = self.clock, self._last_time + RESUME_EPSILON - self.clock()
        # The downtime does not count: a round in play is not lost to its clock while the laptop restarted.
        self.clock = lambda: base() + offset
        try:
            self.journal = Journal.reopen(path, length)
        except OSError as exc:
            log.warning("cannot append to the table's journal %s (%s): a restart will lose this table", path, exc)
        # Nobody's device is connected yet: each phone says hello again with its token.
        for seat, s in enumerate(self.game.seats):
            if s.kind is SeatKind.HUMAN and s.connected:
                self._apply(SetConnected(seat, False))
        g = self.game
        scores = "–".join(str(x) for x in g.scores())
        self.resumed = (
            f"resumed the table from {path}: {g.phase.value}, round {g.round}, scores {scores}, "
            f"{sum(s.kind is not SeatKind.EMPTY for s in g.seats)}/{g.seat_count} seats held"
        )
        log.info("%s", self.resumed)
        self._dirty = True  # every bot (and every socket to come) gets the current state

    def _record(self, entry: dict[str, Any], now: float | None = None) -> None:
        """Append ``entry`` (stamped with the table's time) to the journal, if the table keeps one.

        A journal that cannot be written any more is set aside (``*.broken``): a restart must not
        resume a table from a journal that misses some of it.
        """
        journal = self.journal
        if journal is None:
            return
        try:
            journal.write({"t": self._now() if now is None else now, **entry})
        except (OSError, TypeError, ValueError) as exc:
            journal.close()
            self.journal = None
            broken = set_aside(journal.path, ".broken")
            log.warning(
                "cannot write the table's journal (%s): journaling stops, the journal is kept as %s; "
                "a restart will start a new table",
                exc,
                broken,
            )

    # --- life cycle (any thread) ----------------------------------------------------

    def start(self) -> Table:
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        """Close every socket (1001, going away) and end the table thread (and close its journal)."""
        if not self._thread.is_alive():
            self._close_journal()
            return
        try:
            self.call(lambda: self._close_all(1001, "server shutting down"), timeout=timeout)
        except Exception:  # pragma: no cover - table already gone
            pass
        self._inbox.put(_STOP)
        self._thread.join(timeout)

    def _close_journal(self) -> None:
        journal, self.journal = self.journal, None
        if journal is not None:
            journal.close()
        held, self._journal_lock = self._journal_lock, None
        if held is not None:
            os.close(held)  # and the lock goes with it

    def post(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` on the table thread, soon, in arrival order."""
        self._inbox.put((fn, args, None))

    def call(self, fn: Callable[[], Any], timeout: float = 5.0) -> Any:
        """Run ``fn()`` on the table thread and return its result (tests and the launcher use it)."""
        box: dict[str, Any] = {}
        done = threading.Event()
        self._inbox.put((fn, (), (box, done)))
        if not done.wait(timeout):
            raise TimeoutError("the table thread did not answer")
        if "error" in box:
            raise box["error"]
        return box.get("value")

    def poke(self) -> None:
        """Wake the table now (tests with an injected clock call this after moving time)."""
        self._inbox.put((lambda: None, (), None))

    # entry points used by the socket handlers
    def connect(self, conn: Connection) -> None:
        self.post(self._on_connect, conn)

    def receive(self, conn: Connection, raw: str | bytes) -> None:
        self.post(self._on_message, conn, raw)

    def disconnect(self, conn: Connection) -> None:
        self.post(self._on_disconnect, conn)

    def set_join_url(self, url: str) -> None:
        self.post(self._set_public, "join_url", url)

    def set_mdns_name(self, name: str | None) -> None:
        self.post(self._set_public, "mdns_name", name)

    # --- the table thread -----------------------------------------------------------

    def _run(self) -> None:
        while True:
            try:
                item = self._inbox.get(timeout=self._sleep_for())
            except queue.Empty:
                item = None
            if item is _STOP:
                self._close_journal()
                self._stopped.set()
                return
            if item is not None:
                fn, args, reply = item
                try:
                    value = fn(*args)
                    if reply is not None:
                        reply[0]["value"] = value
                except Exception as exc:  # nothing a client sends may kill the table
                    log.exception("table: error while handling %s", getattr(fn, "__name__", fn))
                    if reply is not None:
                        reply[0]["error"] = exc
                finally:
                    if reply is not None:
                        reply[1].set()
            try:
                self._tick()
                self._flush()
                self._wake_bots()
                self._flush()
            except Exception:
                log.exception("table: error in the scheduler")
            finally:
                self._deliver()

    def _sleep_for(self) -> float | None:
        """Seconds until the engine's next deadline or the next bot wake-up (``None``: until a message)."""
        if self._dirty:
            return 0.0
        wanted: list[Any] = [self.game.next_deadline()]
        for seat, (_, bot, _) in self.bots.items():
            try:
                wanted.append(bot.next_wake())
            except Exception:  # a broken bot must not stop the table (nor delay the rules' deadlines)
                log.exception("bot on seat %s: next_wake failed", seat)
        due: list[float] = [d for d in wanted if isinstance(d, (int, float))]
        if not due:
            return None
        return max(MIN_SLEEP, min(due) - self.clock())

    def _now(self) -> float:
        return self.clock()

    def _tick(self) -> None:
        deadline = self.game.next_deadline()
        if deadline is None:
            return
        now = self._now()
        if deadline <= now:
            out = self.game.tick(now)
            self._record({"tick": True, "n": len(out.events)}, now)
            self._note(out.events)

    def _note(self, events: Any) -> None:
        if events:
            self._events.extend(e.to_json() for e in events)
        self._dirty = True

    def _wake_bots(self) -> None:
        now = self._now()
        for seat in sorted(self.bots):
            entry = self.bots.get(seat)
            if entry is None:
                continue
            _, bot, conn = entry
            try:
                at = bot.next_wake()
                if at is None or at > now:
                    continue
                moves = bot.wake(now) or []
            except Exception:
                log.exception("bot on seat %s failed to wake", seat)
                continue
            for msg in moves[:8]:  # a bot gets the same path as a phone, and no more than a burst
                try:
                    raw = _dumps(msg)
                except (TypeError, ValueError):
                    log.warning("bot on seat %s produced a non-JSON message: %r", seat, msg)
                    continue
                self._on_message(conn, raw)
                if self.bots.get(seat) is not entry:  # the action changed the seat (should not happen)
                    break
            self._flush()

    # --- sending -------------------------------------------------------------------

    def _public(self, conn: Connection) -> dict[str, Any]:
        table: dict[str, Any] = {
            "join_url": self.join_url,
            "mdns_name": self.mdns_name,
            "bots": {str(s): level for s, (level, _, _) in sorted(self.bots.items())},
            "freed": self._freed(),
            "settings": dict(self.settings),
        }
        if conn.kind == "screen":
            table["host"] = conn.is_host
        return table

    def _held(self, seat: int) -> bool:
        """Whether a phone's token or a bot holds ``seat``: then nobody else may ``join`` it."""
        return seat in self.seat_tokens or self.game.seats[seat].kind is SeatKind.BOT

    def _freed(self) -> list[int]:
        """The human seats nobody holds the token of (the host freed them): the next phone to ``join`` one
        takes it over, hand and all (R33). Public: an offline seat is not in it (its token still holds it)."""
        return [s for s, seat in enumerate(self.game.seats) if seat.kind is SeatKind.HUMAN and not self._held(s)]

    def _state_text(self, conn: Connection, events: list[dict[str, Any]], now: float, cache: dict[Any, str]) -> str:
        """The ``state`` frame for one socket, as text.

        Every recipient's view is the engine's own ``table_view`` or ``seat_view``; only the
        serialisation is shared: ``seat_view`` is ``table_view`` plus ``"you"`` (added last), so
        its JSON is the table view's JSON with ``"you"`` spliced in before the closing brace —
        byte for byte what ``json.dumps(seat_view(...))`` gives (a test checks it). That saves
        encoding the same 2–3 KB nine times for every swap.
        """
        seat = conn.seat if conn.kind in ("phone", "bot") else None
        if seat is not None and not 0 <= seat < self.game.seat_count:
            seat = None
        if "events" not in cache:
            cache["events"] = _dumps(events)  # type: ignore[arg-type]
            cache["table_view"] = _dumps(table_view(self.game, now))
        view = cache.get(("view", seat))
        if view is None:
            if seat is None:
                view = cache["table_view"]
            else:
                you = seat_view(self.game, seat, now)["you"]
                view = cache["table_view"][:-1] + ',"you":' + _dumps(you) + "}"
            cache[("view", seat)] = view
        key = ("table", conn.kind == "screen", conn.is_host)
        public = cache.get(key)
        if public is None:
            public = cache[key] = _dumps(self._public(conn))
        return '{"type":"state","view":' + view + ',"events":' + cache["events"] + ',"table":' + public + "}"

    def _send(self, conn: Connection, msg: dict[str, Any] | str) -> None:
        text = msg if isinstance(msg, str) else _dumps(msg)
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
        for seat, (_, _, conn) in list(self.bots.items()):
            self._to_bot(conn, self._state_text(conn, events, now, cache))

    def _send_state(self, conn: Connection) -> None:
        """A full, fresh view for one socket (after hello): no events, nothing stale."""
        self._send(conn, self._state_text(conn, [], self._now(), {}))

    def _error(self, conn: Connection, code: str, message: str, ref: Any = None) -> None:
        log.info("%r: %s: %s", conn, code, message)
        self._send(conn, p.error_message(code, message, ref))

    def _close_all(self, code: int, reason: str) -> None:
        self._deliver()
        for conn in list(self.conns):
            conn.close(code, reason)

    def _set_public(self, key: str, value: Any) -> None:
        setattr(self, key, value)
        self._dirty = True

    # --- connections ---------------------------------------------------------------

    def _on_connect(self, conn: Connection) -> None:
        self.conns.add(conn)
        log.info("%r connected", conn)

    def _on_disconnect(self, conn: Connection) -> None:
        self.conns.discard(conn)
        log.info("%r disconnected", conn)
        self._unseat(conn)  # R33: the seat and hand stay

    def _attached(self, seat: int) -> list[Connection]:
        return [c for c in self.conns if c.seat == seat and c.kind == "phone" and c.open]

    def _detach(self, seat: int, code: str, message: str, keep: Connection | None = None) -> None:
        """Unseat every other socket on ``seat``: they fall back to the public view."""
        for other in self._attached(seat):
            if other is not keep:
                other.seat = None
                other.token = None
                self._error(other, code, message)
                self._send_state(other)

    def _apply(self, cmd: Any) -> Refusal | None:
        now = self._now()
        out = self.game.apply(cmd, now)
        # Refused commands too: time moved, and a replay checks it is refused again for the same reason.
        self._record(
            {
                **command_entry(cmd),
                "r": out.refusal.reason.value if out.refusal is not None else None,
                "n": len(out.events),
            },
            now,
        )
        if out.events or out.refusal is None:
            self._note(out.events)
        return out.refusal

    # --- messages ------------------------------------------------------------------

    def _on_message(self, conn: Connection, raw: str | bytes) -> None:
        if conn not in self.conns and conn.kind != "bot":
            return  # arrived after the socket closed
        try:
            if conn.kind == "screen":
                self._screen_message(conn, p.parse_screen(raw))
            else:
                self._phone_message(conn, p.parse_phone(raw))
        except p.ProtocolError as exc:
            self._error(conn, exc.code, exc.message, exc.ref)
        except Exception:
            # The raw text is not logged: it may hold a seat token.
            log.exception("%r: a %d-character message crashed its handler", conn, len(raw))
            self._error(conn, "internal", "the server could not handle that message")

    def _phone_message(self, conn: Connection, msg: Any) -> None:
        if isinstance(msg, p.Hello):
            self._hello(conn, msg)
        elif isinstance(msg, p.Join):
            self._join(conn, msg)
        elif isinstance(msg, p.Leave):
            self._leave(conn, msg)
        elif isinstance(msg, p.Action):
            if conn.seat is None:
                self._error(conn, "not_seated", "take a seat first", msg.id)
                return
            refusal = self._apply(p.to_command(msg, conn.seat))
            if refusal is not None:
                log.info("%r: %s refused: %s", conn, msg.kind, refusal.reason.value)
                self._send(conn, p.refused_message(refusal, msg.id))
            else:
                self._send(conn, p.ack_message(msg.id))

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
        old = self.seat_tokens.pop(seat, None)
        if old is not None:
            self.tokens.pop(old, None)
            self._record({"revoke": seat})
        for t, (s, _) in list(self.moves.items()):
            if s == seat:
                del self.moves[t]

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
        self._send(
            conn, {"type": "joined", "id": ref, "seat": seat, "token": token, "name": self.game.seats[seat].name}
        )
        if self.game.seats[seat].kind is SeatKind.HUMAN:
            self._apply(SetConnected(seat, True))
        self._dirty = True

    def _hello(self, conn: Connection, msg: p.Hello) -> None:
        token = msg.token
        if conn.seat is not None and token == conn.token:
            conn.greeted = True
            self._send_state(conn)
            return
        if token:
            now = self._now()
            move = self.moves.pop(token, None)
            if move is not None and move[1] >= now and move[0] < self.game.seat_count:
                # A seat link the host allowed (allow_move): this device takes the seat, the old one loses it.
                moved = move[0]
                new_token = self._seat_token(moved)
                self._detach(moved, "seat_moved", "this seat moved to another device", keep=conn)
                log.info("%r: seat %s moved here by seat link", conn, moved)
                self._seat_me(conn, moved, new_token, msg.id)
                return
            held = self.tokens.get(token)
            if held is not None and held < self.game.seat_count:
                # The token is the seat's secret: whoever holds it is the player (same phone, new page).
                self._detach(held, "seat_moved", "this seat was opened on another page", keep=conn)
                log.info("%r: resumed seat %s", conn, held)
                self._seat_me(conn, held, token, msg.id)
                return
            conn.greeted = True
            self._error(conn, "bad_token", "that seat token is not valid here (any more): pick a seat", msg.id)
            self._send_state(conn)
            return
        if conn.seat is not None:  # hello without token from a seated socket: it gives up its seat view
            self._unseat(conn)
        conn.greeted = True
        self._send_state(conn)

    def _join(self, conn: Connection, msg: p.Join) -> None:
        conn.greeted = True
        if conn.seat is not None:
            self._error(conn, "already_seated", f"you already hold seat {conn.seat}", msg.id)
            return
        seat = msg.seat
        if seat >= self.game.seat_count:
            self._error(conn, "no_such_seat", f"this table has seats 0 to {self.game.seat_count - 1}", msg.id)
            return
        state = self.game.seats[seat]
        if self._held(seat):
            self._error(conn, "seat_taken", "somebody holds that seat; the host can free it", msg.id)
            return
        if state.kind is SeatKind.EMPTY and self.game.phase is not Phase.LOBBY:  # pragma: no cover - engine forbids
            self._error(conn, "wrong_phase", "seats are taken in the lobby", msg.id)
            return
        # An empty lobby seat, or (in a game) a human seat the host freed: this phone takes it, hand and all.
        refusal = self._apply(Sit(seat, SeatKind.HUMAN, self._distinct_name(seat, msg.name)))
        if refusal is not None:
            self._send(conn, p.refused_message(refusal, msg.id))
            return
        log.info("%r: joined seat %s as %r", conn, seat, msg.name)
        self._seat_me(conn, seat, self._seat_token(seat), msg.id)

    def _leave(self, conn: Connection, msg: p.Leave) -> None:
        if conn.seat is None:
            self._error(conn, "not_seated", "you hold no seat", msg.id)
            return
        if self.game.phase is not Phase.LOBBY:
            self._error(conn, "wrong_phase", "a seat can only be given back in the lobby", msg.id)
            return
        seat = conn.seat
        refusal = self._apply(Sit(seat, SeatKind.EMPTY))
        if refusal is not None:
            self._send(conn, p.refused_message(refusal, msg.id))
            return
        self._revoke(seat)
        self._detach(seat, "seat_freed", "you left the seat", keep=conn)
        conn.seat, conn.token = None, None
        self._send(conn, p.ack_message(msg.id))

    # --- the host ------------------------------------------------------------------

    def _screen_message(self, conn: Connection, msg: Any) -> None:
        if isinstance(msg, p.ScreenHello):
            conn.greeted = True
            if msg.host is not None:
                conn.is_host = secrets.compare_digest(msg.host.encode(), self.host_secret.encode())
                if not conn.is_host:
                    self._error(conn, "bad_host_secret", "wrong host secret: this screen only watches", msg.id)
            self._send_state(conn)
            return
        if not conn.is_host:
            self._error(conn, "not_host", "only the host's screen can do that", msg.id)
            return
        handler = getattr(self, f"_host_{msg.kind}")
        result = handler(conn, **msg.fields)
        if isinstance(result, Refusal):
            log.info("%r: host %s refused: %s", conn, msg.kind, result.reason.value)
            self._send(conn, p.refused_message(result, msg.id))
        elif isinstance(result, tuple):
            self._error(conn, result[0], result[1], msg.id)
        else:
            log.info("%r: host %s %s", conn, msg.kind, msg.fields)
            self._send(conn, p.ack_message(msg.id))
            self._dirty = True

    def _check_seat(self, seat: int) -> tuple[str, str] | None:
        if seat >= self.game.seat_count:
            return ("no_such_seat", f"this table has seats 0 to {self.game.seat_count - 1}")
        return None

    def _new_bot(self, seat: int, level: str) -> tuple[str, Any, Connection]:
        """A bot of ``level`` for ``seat`` and its pseudo-connection (the seat itself is not touched)."""
        rng = random.Random(f"{self.seed}-bot-{seat}") if self.seed is not None else random.Random()
        try:
            bot = self._make_bot(seat, level, rng)
        except Exception:  # a broken bot package must not leave a seat that never plays
            log.exception("could not make a %s bot for seat %s: using the stub bot", level, seat)
            from .botstub import make_bot as make_stub

            bot = make_stub(seat, level, rng)
        conn = Connection("bot", None, peer=f"bot-{seat}")
        conn.seat, conn.greeted = seat, True
        return (level, bot, conn)

    def _distinct_name(self, seat: int, name: str) -> str:
        """``name`` for ``seat``, numbered if another seat (a bot's too) already has it; the seat's own name
        does not count (a player taking their freed seat back, a bot changing level keep theirs)."""
        return distinct_name(name, [s.name for i, s in enumerate(self.game.seats) if i != seat])

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

    def _host_set_seats(self, conn: Connection, count: int) -> Any:
        refusal = self._apply(SetSeatCount(count))
        if refusal is not None:
            return refusal
        for seat in [s for s in self.seat_tokens if s >= count]:
            self._revoke(seat)
            self._detach(seat, "seat_freed", "the host removed this seat")
        for seat in [s for s in self.bots if s >= count]:
            self._drop_bot(seat)
        return None

    def _host_add_bot(self, conn: Connection, seat: int, level: str | None) -> Any:
        if (bad := self._check_seat(seat)) is not None:
            return bad
        if seat in self.seat_tokens:
            return ("seat_taken", "a phone holds that seat: free it first")
        return self._put_bot(seat, level or self.settings["bot_level"])

    def _host_remove_bot(self, conn: Connection, seat: int) -> Any:
        if (bad := self._check_seat(seat)) is not None:
            return bad
        if seat not in self.bots:
            return ("not_a_bot", "no bot sits there")
        refusal = self._apply(Sit(seat, SeatKind.EMPTY))
        if refusal is not None:
            return refusal
        self._drop_bot(seat)
        return None

    def _host_free_seat(self, conn: Connection, seat: int) -> Any:
        if (bad := self._check_seat(seat)) is not None:
            return bad
        if seat in self.bots:
            return self._host_remove_bot(conn, seat)
        if self.game.seats[seat].kind is SeatKind.EMPTY:
            return ("seat_empty", "that seat is already free")
        if self.game.phase is Phase.LOBBY:
            refusal = self._apply(Sit(seat, SeatKind.EMPTY))
            if refusal is not None:
                return refusal
        # In a game the seat keeps its hand (R33); the next phone to join it takes it over.
        self._revoke(seat)
        self._detach(seat, "seat_freed", "the host freed this seat")
        if self.game.seats[seat].kind is SeatKind.HUMAN:
            self._apply(SetConnected(seat, False))
        return None

    def _host_allow_move(self, conn: Connection, seat: int) -> Any:
        if (bad := self._check_seat(seat)) is not None:
            return bad
        if seat not in self.seat_tokens:
            return ("not_held", "no phone holds that seat")
        link = secrets.token_urlsafe(18)
        self.moves[link] = (seat, self._now() + MOVE_LINK_LIFETIME)
        # The link goes only to the seat's own phone(s): it is as secret as the seat token.
        for phone in self._attached(seat):
            self._send(
                phone,
                {
                    "type": "seat_link",
                    "seat": seat,
                    "token": link,
                    "url": self._seat_link_url(link),
                    "expires_in": MOVE_LINK_LIFETIME,
                },
            )
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

    def _host_fill_bots(self, conn: Connection) -> Any:
        for seat, s in enumerate(self.game.seats):
            if s.kind is SeatKind.EMPTY:
                refusal = self._put_bot(seat, self.settings["bot_level"])
                if refusal is not None:
                    return refusal
        return None

    def _host_start_game(self, conn: Connection) -> Any:
        if self.game.phase is not Phase.LOBBY:
            return Refusal(Reason.WRONG_PHASE, "the game has already started", {"phase": self.game.phase.value})
        refusal = self._host_fill_bots(conn)
        return refusal if refusal is not None else self._apply(StartGame())

    def _host_next_round(self, conn: Connection) -> Any:
        return self._apply(StartNextRound())

    def _host_new_game(self, conn: Connection) -> Any:
        return self._apply(NewGame())

    def _host_settings(self, conn: Connection, **fields: str) -> Any:
        self.settings.update(fields)
        self._record({"settings": dict(fields)})
        return None

    # --- test hooks (any thread) ------------------------------------------------------------

    def set_position(self, text: str) -> None:
        """Test hook: lay out the running round's hands and centre (``Game.set_position`` notation,
        e.g. ``"AAAK QQJJ KKTT JJAT | KQT9"``) on the table thread; every socket and bot then gets
        its fresh view. Raises ``ValueError`` outside play, like the engine. Journaled like a
        command (a resumed table lays out the same position at the same point)."""

        def apply() -> None:
            self.game.set_position(text)
            self._record({"position": text})
            self._dirty = True

        self.call(apply)

    def changed(self) -> None:
        """Test hook: after poking at ``table.game`` inside :meth:`call`, send everyone a fresh view.

        Such pokes are not journaled: a table resumed from its journal would not have them."""
        self.post(self._set_dirty)

    def _set_dirty(self) -> None:
        self._dirty = True

    def close_all(self, code: int = 1001, reason: str = "") -> None:
        """Close every socket (e.g. a test's "network blip"); phones reconnect and resume."""
        self.call(lambda: self._close_all(code, reason))

    # --- reading (for tests and the launcher, through :meth:`call`) ---------------------

    def summary(self) -> dict[str, Any]:
        """A public snapshot: the table view plus server-level facts (call via :meth:`call`)."""
        return {
            "view": table_view(self.game, self._now()),
            "bots": {s: lv for s, (lv, _, _) in self.bots.items()},
            "connections": len(self.conns),
            "held": sorted(self.seat_tokens),
        }

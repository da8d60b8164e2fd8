"""Where a table starts: a new game, or the one its journal holds (:mod:`.journal`), and the restart hold.

The engine is pure and deterministic, so replaying the journal's engine calls in order, at their
times, rebuilds the same game; the table-level lines (tokens, bots, settings) rebuild the rest.
Every engine call's outcome is journaled too, and a replay that gives another outcome stops there:
the table is rebuilt from the lines before it, and the rest is kept aside (``*.rest``). Only a journal
whose very start does not replay is set aside whole (``*.broken``) for a fresh table. Nothing in a
journal may stop a host starting.

:func:`open_table` gives a :class:`Start`: the plain facts a :class:`~.table.Table` is built from. A
resumed game is then held (:class:`RestartHold`): it comes back paused ``by: "restart"`` (CONTRACT §9),
before its phones are marked away, so that no rule applies to the restart itself (a running vote loses no
voter, a sign phase does not open on random signs, no clock runs). The hold lifts by itself once every phone
holding a seat is back, or after :data:`RESTART_GRACE` seconds; then the usual rules apply to whoever is
still away.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import random
import re
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from filelock import FileLock

from .. import protocol as p
from ..engine import Game, Pause, Phase, Resume, SeatKind, SetConnected, Timing
from . import catalogs
from .journal import REST_SUFFIX, Journal, JournalError, command_from, entry_kind, lock, read_journal, set_aside
from .recorder import LOCKED, journal_header
from .referee import Referee
from .seats import Seats, Tokens

log = logging.getLogger("quatro.server")

#: A resumed table's clock first reads this much after the journal's last time (time never goes back).
RESUME_EPSILON = 1e-6
#: Seconds a resumed game stays held for its phones to come back (then the usual rules: R11, R28, R33).
RESTART_GRACE = 60.0
#: Phases in which a resumed game is held (those the engine can pause).
_HELD_PHASES = (Phase.SIGN, Phase.PLAY, Phase.PAUSE)


@dataclasses.dataclass
class Powers:
    """What the journal keeps of who holds the host's rights, by the hashes of their keys only: the host's
    screens (newest last), and the host's remote with the seat of its phone when last seen."""

    host_keys: list[str] = dataclasses.field(default_factory=list)
    remote: tuple[str, int | None, str | None] | None = None  # key's hash, seat, the invitation's hash


@dataclasses.dataclass
class Start:
    """What a table starts from: its game and the table-level facts around it, and its journal if it keeps one."""

    game: Game
    timing: Timing
    seed: Any  # the bots' seed (``None``: fresh randomness)
    deal_seed: int | str  # the seed the deals come from (drawn when the host gave none)
    settings: dict[str, Any]
    clock: Callable[[], float]
    tokens: Tokens = dataclasses.field(default_factory=Tokens)
    bots: dict[int, str] = dataclasses.field(default_factory=dict)  # seat → level
    locked: bool = False
    last_time: float = 0.0  # the journal's last time, when replayed
    journal: Journal | None = None
    journal_lock: FileLock | None = None  # the journal's lock, held while the table runs
    resumed_from: str | None = None  # the journal's path, when its game is resumed
    damage: dict[str, Any] | None = None  # what the screens say of a damaged journal (:func:`damage_report`)
    powers: Powers = dataclasses.field(default_factory=Powers)  # the host's screens and remote


#: The settings a ``settings`` line (or the header) may hold: those the host sets with the ``settings`` message
#: and the server keeps (the house rules are engine commands), and the lock.
SERVER_SETTINGS = ("bot_level", "language")
#: A key's hash in the journal: SHA-256, in hex.
_HASH = re.compile(r"[0-9a-f]{64}")


def checked_settings(values: Any) -> dict[str, str]:
    """Settings read from a journal, checked exactly as the host's ``settings`` message is (the same parser, its
    limits included), so that an edited journal cannot set what the host's panel could not. Raises
    :class:`JournalError` otherwise.

    >>> checked_settings({"bot_level": "hard", "locked": "true"})
    {'bot_level': 'hard', 'locked': 'true'}
    >>> checked_settings({"language": "x" * 10_000})
    Traceback (most recent call last):
    ...
    quatro_party.server.journal_format.JournalError: settings the host could not set: the message is over 4096 bytes
    """
    if not isinstance(values, dict) or any(k not in (*SERVER_SETTINGS, LOCKED) for k in values):
        raise JournalError(f"settings the host could not set: {str(values)[:200]}")
    live = {k: v for k, v in values.items() if k != LOCKED}
    if values.get(LOCKED, "false") not in ("true", "false"):
        raise JournalError(f"a lock that is neither true nor false: {str(values[LOCKED])[:40]!r}")
    try:
        msg = p.parse_screen(json.dumps({"type": "settings", **live}))
    except p.ProtocolError as exc:
        raise JournalError(f"settings the host could not set: {exc.message}") from exc
    if not isinstance(msg, p.HostAction) or msg.fields != live:  # pragma: no cover - the parser keeps every key
        raise JournalError(f"settings the host could not set: {str(values)[:200]}")
    if live.get("language") is not None and live["language"] not in catalogs.present():
        raise JournalError(f"a language with no catalog: {str(live['language'])[:40]!r}")
    return dict(values)


def damage_report(path: str, line: int, kept: int, suffix: str, resumed: bool) -> dict[str, Any]:
    """What the big screens say of a damaged journal (``table.journal_damage``): the ``line`` of the file that
    could not be used, how many lines before it were ``kept`` (replayed), the ``file`` (its name only) where
    the rest was set aside, and whether the table was ``resumed``."""
    return {"line": line, "kept": kept, "file": Path(path).name + suffix, "resumed": resumed}


class _StopAt(Exception):
    """A journal line that does not replay to the outcome it recorded: the replay keeps the lines before it."""

    def __init__(self, index: int, number: int, why: str) -> None:
        super().__init__(why)
        self.index = index  # the entry's index
        self.number = number  # its line in the file


def new_table(config: dict[str, Any], clock: Callable[[], float]) -> Start:
    """A new table from ``config`` (nothing journaled)."""
    seed = config["seed"]
    # A table made without a seed still gets one, drawn here, so that its journal can deal the same cards.
    deal_seed = seed if isinstance(seed, (int, str)) else secrets.randbits(64)
    timing = Timing().scaled(float(config["time_scale"]))
    # Deals depend on the seed alone; bots get their own generators so that adding a bot never changes the cards.
    game = Game(int(config["seats"]), rng=random.Random(deal_seed), timing=timing)
    settings = {"bot_level": config["bot_level"], "language": config["language"]}
    return Start(game, timing, seed, deal_seed, settings, clock)


def open_table(config: dict[str, Any], clock: Callable[[], float]) -> Start:
    """The table ``config`` asks for: the one the journal at ``config["journal"]`` holds when its game had
    started (then ``seats``, ``seed``, ``time_scale`` and the settings of ``config`` are ignored), else a new
    one with a new journal there (if any).

    A journal that cannot be replayed, or whose replay does not give the same outcomes, is renamed
    ``*.broken`` and the table starts fresh.
    """
    start = new_table(config, clock)
    if not config["journal"]:
        return start
    path = str(config["journal"])
    try:
        held = lock(path)
    except OSError as exc:
        log.warning("cannot lock the table's journal %s (%s): a restart will lose this table", path, exc)
        return start
    if held is None:
        log.warning("another host is using the table's journal %s: this table keeps none", path)
        return start
    damage: dict[str, Any] | None = None
    if os.path.exists(path):
        try:
            try:
                start, length, damage = _replay(config, clock, path)
            except _StopAt as stop:
                if stop.index == 0:
                    raise
                log.warning("the table's journal %s is replayed up to a line that does not: %s", path, stop)
                start, length, _ = _replay(config, clock, path, limit=stop.index)
                damage = damage_report(path, stop.number, stop.index + 1, REST_SUFFIX, True)
        except OSError as exc:  # left as it is: it may be fine, only out of reach for now
            log.warning("cannot read the table's journal %s (%s): starting a new table, kept by no journal", path, exc)
            return dataclasses.replace(new_table(config, clock), journal_lock=held)
        # Any exception at all: the replay runs the engine on data read from disk, and a bad
        # journal must cost the old table, never the host.
        except Exception as exc:
            broken = set_aside(path, ".broken")
            log.warning(
                "the table's journal %s cannot be replayed (%s): starting a new table; the old journal is kept as %s",
                path,
                exc,
                broken,
            )
            start = new_table(config, clock)
            start.damage = damage_report(path, getattr(exc, "number", 1), 0, ".broken", False)
        else:
            if start.game.phase is not Phase.LOBBY:
                start.damage = damage
                return _resumed(start, path, length, held)
            # Only a lobby: nothing a restart could lose (phones join again), and the host's options
            # (seats, seed, time scale) must win over the last run's. The host's screens and remote stay its own.
            set_aside(path, ".old")
            powers = start.powers
            start = new_table(config, clock)
            start.powers = powers
            if damage is not None:
                start.damage = {**damage, "file": Path(path).name + ".old", "resumed": False}
    start.journal_lock = held
    header = journal_header(start.game, start.deal_seed, start.seed, start.timing, start.settings, clock())
    try:
        start.journal = Journal.create(path, header)
        now = clock()
        for key in start.powers.host_keys:
            start.journal.write({"t": now, "host_key": key})
        if start.powers.remote is not None:
            key, _, invite = start.powers.remote
            start.journal.write({"t": now, "remote": key, "seat": None, "invite": invite})
    except (OSError, TypeError, ValueError) as exc:
        log.warning("cannot write the table's journal %s (%s): a restart will lose this table", path, exc)
    return start


def _resumed(start: Start, path: str, length: int, held: FileLock) -> Start:
    """After a replay: the clock goes on from the journal's last time, and the journal from its end."""
    base = start.clock
    offset = start.last_time + RESUME_EPSILON - base()
    # The downtime does not count: a round in play is not lost to its clock while the laptop restarted.
    start.clock = lambda: base() + offset
    start.journal_lock = held
    start.resumed_from = path
    try:
        start.journal = Journal.reopen(path, length)
    except OSError as exc:
        log.warning("cannot append to the table's journal %s (%s): a restart will lose this table", path, exc)
    return start


def _replay(
    config: dict[str, Any], clock: Callable[[], float], path: str, limit: int | None = None
) -> tuple[Start, int, dict[str, Any] | None]:
    """The table the journal holds (its first ``limit`` entries when given), the length of the part replayed,
    and what to tell the screens when reading stopped at a damaged line (:func:`damage_report`).

    Raises :class:`_StopAt` at the first entry that does not replay to the outcome it recorded (the
    engine raising included), :class:`JournalError` when the journal as a whole does not fit this table.
    """
    reading = read_journal(path)
    header, entries, ends = reading.header, reading.entries, reading.ends
    damage = None
    if reading.stopped is not None and not reading.torn:  # a torn last line is what any crash leaves
        damage = damage_report(path, reading.stopped[0], len(entries) + 1, REST_SUFFIX, True)
    if limit is not None:
        entries = entries[:limit]
    length = ends[len(entries)]
    seed = header["seed"]
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        raise JournalError(f"bad seed {seed!r}")
    start = new_table(config, clock)
    start.deal_seed, start.seed = seed, header.get("bot_seed")
    start.timing = Timing(**header["timing"])
    start.game = Game(int(header["seats"]), rng=random.Random(seed), timing=start.timing)
    start.settings.update(checked_settings(header["settings"]))
    last = float(header["t"])
    for index, e in enumerate(entries):
        number = reading.numbers[index]
        try:
            _replay_entry(start, number, e)
        except JournalError as exc:
            raise _StopAt(index, number, str(exc)) from exc
        except Exception as exc:  # the engine refusing data from disk: the line is as bad
            raise _StopAt(index, number, f"line {number}: {exc!r}") from exc
        last = max(last, float(e["t"]))
    start.locked = start.settings.pop(LOCKED, "false") == "true"
    seats = start.game.seats
    if any(not 0 <= s < len(seats) or seats[s].kind is not SeatKind.BOT for s in start.bots):
        raise JournalError(f"bots {start.bots} do not match the seats")
    if any(not 0 <= s < len(seats) for s in start.tokens.by_seat):
        raise JournalError(f"seat tokens for seats {sorted(start.tokens.by_seat)} beyond the table")
    start.last_time = last
    return start, length, damage


def _replay_entry(start: Start, number: int, e: dict[str, Any]) -> None:
    """Replay one journal line (``number``: its line in the file); :class:`JournalError` if it does not."""
    kind = entry_kind(e)
    t = float(e["t"])
    if kind == "snapshot":
        try:
            start.game = Game.from_snapshot(e["snapshot"])
        except (ValueError, TypeError, KeyError) as exc:
            raise JournalError(f"line {number}: not a snapshot ({exc!r})") from exc
    elif kind == "cmd":
        out = start.game.apply(command_from(e), t)
        got = (out.refusal.reason.value if out.refusal is not None else None, len(out.events))
        if got != (e.get("r"), e.get("n")):
            raise JournalError(f"line {number}: {e['cmd']} gave {got}, not {(e.get('r'), e.get('n'))}")
    elif kind == "tick":
        n = len(start.game.tick(t).events)
        if n != e.get("n"):
            raise JournalError(f"line {number}: the tick gave {n} events, not {e.get('n')}")
    elif kind == "token":
        token = e["token"]
        if not isinstance(token, str) or not 1 <= len(token) <= MAX_TOKEN_LENGTH:
            raise JournalError(f"line {number}: not a seat token")
        join_key = None if e.get("key") is None else _hash(e["key"], number)
        start.tokens.issue(_seat(e, "seat", number), token, join_key)
    elif kind == "revoke":
        start.tokens.revoke(_seat(e, "revoke", number))
    elif kind == "bot":
        if e.get("level") not in p.BOT_LEVELS:  # as the host's add_bot checks it
            raise JournalError(f"line {number}: no such bot level")
        start.bots[_seat(e, "bot", number)] = e["level"]  # the bots are made once the game is rebuilt
    elif kind == "unbot":
        start.bots.pop(_seat(e, "unbot", number), None)
    elif kind == "settings":
        start.settings.update(checked_settings(e["settings"]))
    elif kind == "host_key":
        keys = start.powers.host_keys
        start.powers.host_keys = [*(k for k in keys if k != e["host_key"]), _hash(e["host_key"], number)]
    elif kind == "remote":
        seat = None if e.get("seat") is None else _seat(e, "seat", number)
        invite = None if e.get("invite") is None else _hash(e["invite"], number)
        start.powers.remote = None if e["remote"] is None else (_hash(e["remote"], number), seat, invite)
    else:  # a kind this table does not write: the journal is not this table's
        raise JournalError(f"line {number}: this table writes no {kind!r} lines")


#: The longest seat token a journal line may hold (the longest a phone's ``hello`` may send).
MAX_TOKEN_LENGTH = 128


def _seat(e: dict[str, Any], key: str, number: int) -> int:
    seat = e.get(key)
    if type(seat) is not int or not 0 <= seat < 8:
        raise JournalError(f"line {number}: {key!r} is not a seat")
    return seat


def _hash(value: Any, number: int) -> str:
    if not isinstance(value, str) or not _HASH.fullmatch(value):
        raise JournalError(f"line {number}: not a key's hash")
    return value


def resumed_line(path: str, game: Game) -> str:
    """What the launcher prints about a resumed table, in one line."""
    scores = "–".join(str(x) for x in game.scores())
    return (
        f"resumed the table from {path}: {game.phase.value}, round {game.round}, scores {scores}, "
        f"{sum(s.kind is not SeatKind.EMPTY for s in game.seats)}/{game.seat_count} seats held"
    )


class RestartHold:
    """A resumed game held for its phones: paused ``by: "restart"`` until every phone holding a seat is back,
    or :data:`RESTART_GRACE` seconds have passed (:attr:`until`)."""

    def __init__(self, game: Game, seats: Seats, referee: Referee) -> None:
        self.until: float | None = None  # when the hold lifts at the latest; None: no hold
        self._game = game
        self._seats = seats
        self._referee = referee

    def begin(self) -> None:
        """The game was just resumed: hold it if phones play in it, then mark every phone away (each says hello
        again with its token)."""
        g = self._game
        # The hold first: a phone marked away from a running game would be dropped from its vote (R28), and a
        # sign phase would stop waiting for it (R11); while paused nobody is, and no clock runs.
        phones = [seat for seat, s in enumerate(g.seats) if s.kind is SeatKind.HUMAN and self._seats.has_token(seat)]
        if g.phase in _HELD_PHASES and phones:
            if g.paused is None:
                self._referee.apply(Pause(by="restart"))
            if g.paused is not None and g.paused.by == "restart":
                self.until = self._referee.now() + RESTART_GRACE
        for seat, s in enumerate(g.seats):
            if s.kind is SeatKind.HUMAN and s.connected:
                self._referee.apply(SetConnected(seat, False))

    def check(self) -> None:
        """Lift the hold once every phone holding a seat is back, or its grace period is over."""
        until = self.until
        if until is None:
            return
        g = self._game
        if g.paused is None or g.paused.by != "restart":
            self.until = None  # the host lifted it, or the game moved on
            return
        away = [
            seat
            for seat, s in enumerate(g.seats)
            if s.kind is SeatKind.HUMAN and self._seats.has_token(seat) and not s.connected
        ]
        if not away or self._referee.now() >= until:
            if away:
                log.info("restart hold over after %.0f s: seats %s are still away", RESTART_GRACE, away)
            self.until = None
            self._referee.apply(Resume())

"""Journal replay and resume: a restarted host rebuilds its table from the journal (:mod:`.journal`).

The engine is pure and deterministic, so replaying the journal's engine calls in order, at their
times, rebuilds the same game; the table-level lines (tokens, bots, settings) rebuild the rest.
Every engine call's outcome is journaled too, and a replay that gives another outcome stops:
the journal is set aside and the table starts fresh. Nothing in a journal may stop a host starting.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import random
from typing import Any

from ..engine import Game, Pause, Phase, Resume, SeatKind, SetConnected, Timing
from .actor import MIN_SLEEP
from .host import LOCKED, HostControls
from .journal import Journal, JournalError, command_from, entry_kind, lock, read, set_aside

log = logging.getLogger("quatro.server")

#: A resumed table's clock first reads this much after the journal's last time (time never goes back).
RESUME_EPSILON = 1e-6
#: Seconds a restarted host holds its game for the phones to come back; then the usual rules (R11, R28, R33).
RESTART_GRACE = 60.0


class Resumable(HostControls):
    """The table's journal: opened (or resumed from) when the table is made, appended to on every change."""

    resumed: str | None
    _hold_until: float | None  # the end of the restart hold's grace period, while the hold is on
    _journal_lock: int | None
    _last_time: float

    def _new_table(self, config: dict[str, Any]) -> None:
        raise NotImplementedError

    def _open_journal(self, path: str, config: dict[str, Any]) -> None:
        """Resume the table the journal at ``path`` holds, or start a new journal there.

        A journal that cannot be replayed, or whose replay does not give the same outcomes, is
        renamed ``*.broken`` and the table starts fresh.
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
            else:
                self._replay_line(number, kind, e)
        self.locked = self.settings.pop(LOCKED, "false") == "true"
        seats = self.game.seats
        if any(not 0 <= s < len(seats) or seats[s].kind is not SeatKind.BOT for s in levels):
            raise JournalError(f"bots {levels} do not match the seats")
        if any(not 0 <= s < len(seats) for s in self.seat_tokens):
            raise JournalError(f"seat tokens for seats {sorted(self.seat_tokens)} beyond the table")
        self._last_time = last
        for seat, level in sorted(levels.items()):
            self.bots[seat] = self._new_bot(seat, level)
        return length

    def _replay_line(self, number: int, kind: str, entry: dict[str, Any]) -> None:
        """A journal line of a kind this table does not write: the journal is not this table's."""
        raise JournalError(f"line {number}: this table writes no {kind!r} lines")

    def _resume(self, path: str, length: int) -> None:
        """After a replay: the clock goes on from the journal's last time, and the journal from its end."""
        base, offset = self.clock, self._last_time + RESUME_EPSILON - self.clock()
        # The downtime does not count: a round in play is not lost to its clock while the laptop restarted.
        self.clock = lambda: base() + offset
        try:
            self.journal = Journal.reopen(path, length)
        except OSError as exc:
            log.warning("cannot append to the table's journal %s (%s): a restart will lose this table", path, exc)
        # The restart itself must cost nobody anything: the game is held first (nobody is dropped from a vote,
        # no sign phase ends without its players), then every phone is away until it says hello again.
        g = self.game
        players = [s for s in self.seat_tokens if g.seats[s].kind is SeatKind.HUMAN]
        if players and g.phase in (Phase.SIGN, Phase.PLAY, Phase.PAUSE) and g.paused is None:
            self._apply(Pause("restart"))
        if g.paused is not None and g.paused.by == "restart":
            self._hold_until = self._now() + RESTART_GRACE
        for seat, s in enumerate(self.game.seats):
            if s.kind is SeatKind.HUMAN and s.connected:
                self._apply(SetConnected(seat, False))
        scores = "–".join(str(x) for x in g.scores())
        self.resumed = (
            f"resumed the table from {path}: {g.phase.value}, round {g.round}, scores {scores}, "
            f"{sum(s.kind is not SeatKind.EMPTY for s in g.seats)}/{g.seat_count} seats held"
        )
        log.info("%s", self.resumed)
        self._dirty = True  # every bot (and every socket to come) gets the current state

    def _tick(self) -> None:
        super()._tick()
        self._end_hold()

    def _sleep_for(self) -> float | None:
        wait = super()._sleep_for()
        if self._hold_until is None:
            return wait
        hold = max(MIN_SLEEP, self._hold_until - self._now())
        return hold if wait is None else min(wait, hold)

    def _end_hold(self) -> None:
        """The restart hold lifts once every player's phone is back, or its grace period is over."""
        if self._hold_until is None:
            return
        paused = self.game.paused
        if paused is None or paused.by != "restart":  # the host resumed (or ended the game) meanwhile
            self._hold_until = None
            return
        seats = self.game.seats
        away = [s for s in self.seat_tokens if seats[s].kind is SeatKind.HUMAN and not seats[s].connected]
        if not away or self._now() >= self._hold_until:
            log.info("the restart hold lifts (%s)", "every phone is back" if not away else f"seats {away} away")
            self._hold_until = None
            self._apply(Resume())

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

    def _close_journal(self) -> None:
        journal, self.journal = self.journal, None
        if journal is not None:
            journal.close()
        held, self._journal_lock = self._journal_lock, None
        if held is not None:
            os.close(held)  # and the lock goes with it

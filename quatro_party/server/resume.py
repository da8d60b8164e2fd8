"""Journal replay and resume: a restarted host rebuilds its table from the journal (:mod:`.journal`).

The engine is pure and deterministic, so replaying the journal's engine calls in order, at their
times, rebuilds the same game; the table-level lines (tokens, bots, settings) rebuild the rest.
Every engine call's outcome is journaled too, and a replay that gives another outcome stops there:
the table is rebuilt from the lines before it, and the rest is kept aside (``*.rest``). Only a journal
whose very start does not replay is set aside whole (``*.broken``) for a fresh table. Nothing in a
journal may stop a host starting.

A resumed game is held: it comes back paused ``by: "restart"`` (CONTRACT §9), before its phones are marked
away, so that no rule applies to the restart itself (a running vote loses no voter, a sign phase does not
open on random signs, no clock runs). The hold lifts by itself once every phone holding a seat is back, or
after :data:`RESTART_GRACE` seconds; then the usual rules apply to whoever is still away.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import random
from typing import Any

from filelock import FileLock

from ..engine import Game, Pause, Phase, Resume, SeatKind, SetConnected, Timing
from .host import LOCKED, HostControls
from .journal import FORMAT, Journal, JournalError, command_from, entry_kind, lock, read_lines, set_aside

log = logging.getLogger("quatro.server")

#: A resumed table's clock first reads this much after the journal's last time (time never goes back).
RESUME_EPSILON = 1e-6
#: Seconds a resumed game stays held for its phones to come back (then the usual rules: R11, R28, R33).
RESTART_GRACE = 60.0
#: Phases in which a resumed game is held (those the engine can pause).
_HELD_PHASES = (Phase.SIGN, Phase.PLAY, Phase.PAUSE)


class _StopAt(Exception):
    """A journal line that does not replay to the outcome it recorded: the replay keeps the lines before it."""

    def __init__(self, index: int, why: str) -> None:
        super().__init__(why)
        self.index = index


class Resumable(HostControls):
    """The table's journal: opened (or resumed from) when the table is made, appended to on every change."""

    resumed: str | None
    _journal_lock: FileLock | None
    _last_time: float
    _hold_until: float | None = None
    _compacted: tuple[int, Phase] | None = None  # the round end the journal was last compacted at

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
                try:
                    length = self._replay(path)
                except _StopAt as stop:
                    if stop.index == 0:
                        raise
                    log.warning("the table's journal %s is replayed up to a line that does not: %s", path, stop)
                    self._new_table(config)
                    length = self._replay(path, limit=stop.index)
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
            self.journal = Journal.create(path, self._journal_header())
            self.journal.on_failure = self._journal_failed
        except (OSError, TypeError, ValueError) as exc:
            log.warning("cannot write the table's journal %s (%s): a restart will lose this table", path, exc)
            self.journal = None

    def _journal_header(self) -> dict[str, Any]:
        return {
            "seats": self.game.seat_count,
            "seed": self.deal_seed,
            "bot_seed": self.seed,
            "timing": dataclasses.asdict(self.timing),
            "settings": dict(self.settings),
            "t": self.clock(),
        }

    def _compact(self) -> None:
        """At a round's end (the pause between rounds, or game over), once per round end: the journal becomes
        the game's snapshot and the table's tokens, bots and settings, so that a restart does not replay every
        command of the evening (and the file stays small)."""
        g = self.game
        if g.phase not in (Phase.PAUSE, Phase.OVER) or self.journal is None or self.journal.failure is not None:
            return
        at = (g.round, g.phase)
        if self._compacted == at:
            return
        self._compacted = at
        now = self._now()
        entries: list[dict[str, Any]] = [{"quatro_journal": FORMAT, **self._journal_header(), "t": now}]
        entries.append({"t": now, "snapshot": g.snapshot()})
        entries += [{"t": now, "token": token, "seat": seat} for seat, token in sorted(self.seat_tokens.items())]
        entries += [{"t": now, "bot": seat, "level": level} for seat, (level, _, _) in sorted(self.bots.items())]
        entries.append({"t": now, "settings": {**self.settings, LOCKED: "true" if self.locked else "false"}})
        if self.journal.rewrite(entries):
            self._recorded_at = now
            log.info("the table's journal is compacted at the end of round %d", g.round)

    def _replay(self, path: str, limit: int | None = None) -> int:
        """Rebuild the game and the table-level state from the journal (its first ``limit`` entries when given);
        the length of the part replayed.

        Raises :class:`_StopAt` at the first entry that does not replay to the outcome it recorded (the
        engine raising included), :class:`JournalError` when the journal as a whole does not fit this table;
        ``self`` is then half-built and must be made anew.
        """
        header, entries, ends = read_lines(path)
        if limit is not None:
            entries = entries[:limit]
        length = ends[len(entries)]
        seed = header["seed"]
        if not isinstance(seed, (int, str)) or isinstance(seed, bool):
            raise JournalError(f"bad seed {seed!r}")
        self.deal_seed, self.seed = seed, header.get("bot_seed")
        self.timing = Timing(**header["timing"])
        self.game = Game(int(header["seats"]), rng=random.Random(seed), timing=self.timing)
        self.settings.update(header["settings"])
        levels: dict[int, str] = {}  # the bots are made once the game is rebuilt
        last = float(header["t"])
        for index, e in enumerate(entries):
            try:
                self._replay_entry(index + 2, e, levels)
            except JournalError as exc:
                raise _StopAt(index, str(exc)) from exc
            except Exception as exc:  # the engine refusing data from disk: the line is as bad
                raise _StopAt(index, f"line {index + 2}: {exc!r}") from exc
            last = max(last, float(e["t"]))
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

    def _replay_entry(self, number: int, e: dict[str, Any], levels: dict[int, str]) -> None:
        """Replay one journal line (``number``: its line in the file); :class:`JournalError` if it does not."""
        kind = entry_kind(e)
        t = float(e["t"])
        if kind == "snapshot":
            try:
                self.game = Game.from_snapshot(e["snapshot"])
            except (ValueError, TypeError, KeyError) as exc:
                raise JournalError(f"line {number}: not a snapshot ({exc!r})") from exc
        elif kind == "cmd":
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
        else:  # a kind this table does not write: the journal is not this table's
            raise JournalError(f"line {number}: this table writes no {kind!r} lines")

    def _resume(self, path: str, length: int) -> None:
        """After a replay: the clock goes on from the journal's last time, and the journal from its end."""
        base, offset = self.clock, self._last_time + RESUME_EPSILON - self.clock()
        # The downtime does not count: a round in play is not lost to its clock while the laptop restarted.
        self.clock = lambda: base() + offset
        try:
            self.journal = Journal.reopen(path, length)
            self.journal.on_failure = self._journal_failed
        except OSError as exc:
            log.warning("cannot append to the table's journal %s (%s): a restart will lose this table", path, exc)
        g = self.game
        # The hold first: a phone marked away from a running game would be dropped from its vote (R28), and a
        # sign phase would stop waiting for it (R11); while paused nobody is, and no clock runs.
        phones = [seat for seat, s in enumerate(g.seats) if s.kind is SeatKind.HUMAN and seat in self.seat_tokens]
        if g.phase in _HELD_PHASES and phones:
            if g.paused is None:
                self._apply(Pause(by="restart"))
            if g.paused is not None and g.paused.by == "restart":
                self._hold_until = self._now() + RESTART_GRACE
        # Nobody's device is connected yet: each phone says hello again with its token.
        for seat, s in enumerate(g.seats):
            if s.kind is SeatKind.HUMAN and s.connected:
                self._apply(SetConnected(seat, False))
        scores = "–".join(str(x) for x in g.scores())
        self.resumed = (
            f"resumed the table from {path}: {g.phase.value}, round {g.round}, scores {scores}, "
            f"{sum(s.kind is not SeatKind.EMPTY for s in g.seats)}/{g.seat_count} seats held"
        )
        log.info("%s", self.resumed)
        self._dirty = True  # every bot (and every socket to come) gets the current state

    def _check_hold(self) -> None:
        """Lift the restart hold once every phone holding a seat is back, or its grace period is over."""
        until = self._hold_until
        if until is None:
            return
        g = self.game
        if g.paused is None or g.paused.by != "restart":
            self._hold_until = None  # the host lifted it, or the game moved on
            return
        away = [
            seat
            for seat, s in enumerate(g.seats)
            if s.kind is SeatKind.HUMAN and seat in self.seat_tokens and not s.connected
        ]
        if not away or self._now() >= until:
            if away:
                log.info("restart hold over after %.0f s: seats %s are still away", RESTART_GRACE, away)
            self._hold_until = None
            self._apply(Resume())

    def _journal_failed(self, failure: str | None) -> None:
        """The journal could not write (``failure`` says why) or writes again (``None``): the screens are told."""
        self._dirty = True

    def _record(self, entry: dict[str, Any], now: float | None = None) -> None:
        """Append ``entry`` (stamped with the table's time) to the journal, if the table keeps one.

        A disk that refuses a line is not a reason to drop the journal: it keeps the line and writes it
        with the next one (``journal.failure`` meanwhile, shown on the big screen). Only a line JSON cannot
        hold (a bug) stops journaling, and that journal is set aside (``*.broken``).
        """
        journal = self.journal
        if journal is None:
            return
        t = self._now() if now is None else now
        self._recorded_at = t
        try:
            journal.write({"t": t, **entry})
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
            held.release()

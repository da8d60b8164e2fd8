"""The table's journal while the table runs: every change appended as one line, compacted at each round's end.

The file format is :mod:`.journal`'s; opening a journal, and resuming the table it holds, is :mod:`.resume`'s.
A disk that refuses a line is not a reason to drop the journal: it keeps the line and writes it with the next
one (``journal.failure`` meanwhile, shown on the big screen). Only a line JSON cannot hold (a bug) stops
journaling, and that journal is set aside (``*.broken``).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from filelock import FileLock

from ..engine import Game, Phase, Timing
from .journal import FORMAT, Journal, set_aside

if TYPE_CHECKING:  # seats.py records through this module
    from .seats import Tokens

log = logging.getLogger("quatro.server")

#: The journal keeps the lock as this setting (a ``settings`` line), which never shows in ``table.settings``.
LOCKED = "locked"

#: Seconds between journal lines while a game's clock runs: a restarted host resumes its timers from the
#: journal's last time, so a kill -9 costs a running clock at most this much (a line with nothing due is a tick).
JOURNAL_BEAT = 1.0


def journal_header(
    game: Game, deal_seed: int | str, bot_seed: Any, timing: Timing, settings: dict[str, Any], t: float
) -> dict[str, Any]:
    """The journal's first line (after its format): what a new game needs to deal the same cards."""
    return {
        "seats": game.seat_count,
        "seed": deal_seed,
        "bot_seed": bot_seed,
        "timing": dataclasses.asdict(timing),
        "settings": dict(settings),
        "t": t,
    }


class Recorder:
    """The table's open journal (``None``: the table keeps none), the lock that keeps other hosts out of it,
    and when it last wrote (for :data:`JOURNAL_BEAT`) or was compacted.

    ``deal_seed``, ``bot_seed`` and ``timing`` are the table's for good: a compacted journal starts with them.
    ``on_failure()`` is called when the disk refuses a line or takes them again (the screens are told).
    """

    def __init__(
        self,
        journal: Journal | None,
        journal_lock: FileLock | None,
        clock: Callable[[], float],
        origin: tuple[int | str, Any, Timing],
        on_failure: Callable[[], None],
    ) -> None:
        self.journal = journal
        self.journal_lock = journal_lock  # keeps other hosts out of the journal while the table runs
        self._clock = clock
        self._deal_seed, self._bot_seed, self._timing = origin
        self._recorded_at: float | None = None  # table time of the journal's last line
        self._compacted: tuple[int, Phase] | None = None  # the round end the journal was last compacted at
        self.damage: dict[str, Any] | None = None  # a journal found damaged at start (``table.journal_damage``)
        if journal is not None:
            journal.on_failure = lambda _failure: on_failure()

    @property
    def failure(self) -> str | None:
        """Why the journal cannot write right now (``"disk full"``…), else ``None``."""
        return self.journal.failure if self.journal is not None else None

    def record(self, entry: dict[str, Any], now: float | None = None) -> None:
        """Append ``entry`` (stamped with the table's time) to the journal, if the table keeps one."""
        journal = self.journal
        if journal is None:
            return
        t = self._clock() if now is None else now
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

    def next_beat(self, game: Game) -> float | None:
        """When the journal should next say the time (``None``: no game clock runs, or no journal)."""
        if self.journal is None or self._recorded_at is None or game.paused is not None:
            return None
        if game.phase.value not in ("sign", "play", "pause"):
            return None
        return self._recorded_at + JOURNAL_BEAT

    def compact(
        self,
        game: Game,
        settings: dict[str, Any],
        tokens: Tokens,
        bot_levels: dict[int, str],
        locked: bool,
        host_keys: list[str],
        remote: tuple[str, int | None, str | None] | None,
    ) -> None:
        """At a round's end (the pause between rounds, or game over), once per round end: the journal becomes
        the game's snapshot and the table's tokens, bots, settings, host keys and remote (their hashes), so that
        a restart does not replay every command of the evening (and the file stays small)."""
        if game.phase not in (Phase.PAUSE, Phase.OVER) or self.journal is None or self.journal.failure is not None:
            return
        at = (game.round, game.phase)
        if self._compacted == at:
            return
        self._compacted = at
        now = self._clock()
        header = journal_header(game, self._deal_seed, self._bot_seed, self._timing, settings, now)
        entries: list[dict[str, Any]] = [{"quatro_journal": FORMAT, **header}]
        entries.append({"t": now, "snapshot": game.snapshot()})
        for seat, token in sorted(tokens.by_seat.items()):
            key = tokens.join_keys.get(seat)
            entries.append({"t": now, "token": token, "seat": seat} | ({} if key is None else {"key": key}))
        entries += [{"t": now, "bot": seat, "level": level} for seat, level in sorted(bot_levels.items())]
        entries.append({"t": now, "settings": {**settings, LOCKED: "true" if locked else "false"}})
        entries += [{"t": now, "host_key": key} for key in host_keys]
        if remote is not None:
            entries.append({"t": now, "remote": remote[0], "seat": remote[1], "invite": remote[2]})
        if self.journal.rewrite(entries):
            self._recorded_at = now
            log.info("the table's journal is compacted at the end of round %d", game.round)

    def close(self) -> None:
        """Close the journal and give its lock back (idempotent)."""
        journal, self.journal = self.journal, None
        if journal is not None:
            journal.close()
        held, self.journal_lock = self.journal_lock, None
        if held is not None:
            held.release()

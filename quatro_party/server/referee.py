"""The game and its clock, and every engine call the table makes: applied at the table's time, journaled, and
its events noted for the next frames.

Everything that touches the :class:`~quatro_party.engine.Game` goes through :meth:`Referee.apply` or
:meth:`Referee.tick`, on the table thread (R16, R25: "the server orders exchanges by arrival"). Each call is
one journal line, refused calls too: time moved, and a replay checks that the call is refused again for the
same reason (:mod:`.resume`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine import Command, Game, SeatCommand
from ..engine.refusals import Refusal
from .journal import command_entry
from .outbox import Outbox
from .recorder import Recorder


class Referee:
    """Applies engine commands and runs the game's deadlines, at the table's time."""

    def __init__(self, game: Game, clock: Callable[[], float], recorder: Recorder, outbox: Outbox) -> None:
        self.game = game
        self.clock = clock
        self._recorder = recorder
        self._outbox = outbox

    def now(self) -> float:
        """The table's time (after a restart it goes on from the journal's last time)."""
        return self.clock()

    def apply(self, cmd: Command | SeatCommand) -> Refusal | None:
        """Apply an engine command now, journal it, and note its events for the next broadcast."""
        now = self.clock()
        out = self.game.apply(cmd, now)
        # Refused commands too: time moved, and a replay checks it is refused again for the same reason.
        self._recorder.record(
            {
                **command_entry(cmd),
                "r": out.refusal.reason.value if out.refusal is not None else None,
                "n": len(out.events),
            },
            now,
        )
        if out.events or out.refusal is None:
            self._outbox.note(out.events)
        return out.refusal

    def tick(self) -> None:
        """Run the deadline due by now, if any; else, when the journal's beat is due, let the game's clock move
        (a line with nothing due: a restarted host resumes its timers from the journal's last time)."""
        deadline = self.game.next_deadline()
        now = self.clock()
        if deadline is not None and deadline <= now:
            out = self.game.tick(now)
            self._recorder.record({"tick": True, "n": len(out.events)}, now)
            self._outbox.note(out.events)
            return
        beat = self._recorder.next_beat(self.game)
        if beat is not None and beat <= now:
            out = self.game.tick(now)  # nothing is due: only the game's clock moves, and the journal says when
            self._recorder.record({"tick": True, "n": len(out.events)}, now)
            if out.events:  # pragma: no cover - nothing was due
                self._outbox.note(out.events)

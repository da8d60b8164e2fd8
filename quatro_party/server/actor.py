"""The table's actor: one thread owns the engine; everything else posts to its queue.

Everything that touches the :class:`~quatro_party.engine.Game` happens on the table
thread, in arrival order (R16, R25: "the server orders exchanges by arrival"). Socket
reader threads only *post* raw text. The thread sleeps in ``queue.get(timeout=…)`` until
the next engine deadline or bot wake-up, whichever is first: no polling. After each item
it runs the deadlines, sends the views the change calls for, and lets due bots play.

:class:`Actor` is the base of :class:`~.table.Table`; the other concerns (seats, host,
journal, broadcasting) are the classes between the two, each in its own module.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from ..engine import Command, Game, SeatCommand, Timing
from ..engine.refusals import Refusal
from ..protocol import json_text
from .connection import Connection
from .journal import Journal, command_entry

log = logging.getLogger("quatro.server")

#: Shortest sleep when a bot asks to be woken in the past (guards against a spinning bot).
MIN_SLEEP = 0.01
#: Moves a bot may make in one wake-up: a phone's burst, no more.
BOT_MOVES_PER_WAKE = 8
#: Seconds between journal lines while a game's clock runs: a restarted host resumes its timers from the
#: journal's last time, so a kill -9 costs a running clock at most this much (a line with nothing due is a tick).
JOURNAL_BEAT = 1.0

_STOP = object()


class Actor:
    """The thread, its queue and the scheduler, plus the state every concern of the table shares.

    The attributes are set by :meth:`.table.Table.__init__`; only the table thread touches them
    once :meth:`start` has run.
    """

    clock: Callable[[], float]
    game: Game
    timing: Timing
    seed: Any
    deal_seed: int | str
    settings: dict[str, str]
    conns: set[Connection]
    bots: dict[int, tuple[str, Any, Connection]]  # seat → (level, bot, its pseudo-connection)
    journal: Journal | None
    _events: list[dict[str, Any]]  # public events since the last broadcast
    _dirty: bool  # a change everybody must see is waiting to be sent
    _inbox: queue.Queue[Any]
    _thread: threading.Thread

    def _start_actor(self) -> None:
        self._inbox = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="quatro-table", daemon=True)

    # --- provided by the other concerns --------------------------------------------

    def _record(self, entry: dict[str, Any], now: float | None = None) -> None:
        raise NotImplementedError

    def _close_journal(self) -> None:
        raise NotImplementedError

    def _close_all(self, code: int, reason: str) -> None:
        raise NotImplementedError

    def _flush(self) -> None:
        raise NotImplementedError

    def _deliver(self) -> None:
        raise NotImplementedError

    def _on_message(self, conn: Connection, raw: str | bytes) -> None:
        raise NotImplementedError

    _hold_until: float | None = None  # when a restart hold lifts at the latest (see .resume)
    _recorded_at: float | None = None  # table time of the journal's last line (see JOURNAL_BEAT)

    def _check_hold(self) -> None:
        raise NotImplementedError

    def _compact(self) -> None:
        raise NotImplementedError

    # --- life cycle (any thread) ---------------------------------------------------

    def start(self) -> Any:
        """Start the table thread; returns the table."""
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

    # --- the table thread ----------------------------------------------------------

    def _run(self) -> None:
        while True:
            try:
                item = self._inbox.get(timeout=self._sleep_for())
            except queue.Empty:
                item = None
            if item is _STOP:
                self._close_journal()
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
        wanted: list[Any] = [self.game.next_deadline(), self._hold_until, self._next_beat()]
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

    def _next_beat(self) -> float | None:
        """When the journal should next say the time (``None``: no game clock runs, or no journal)."""
        g = self.game
        if self.journal is None or self._recorded_at is None or g.paused is not None:
            return None
        if g.phase.value not in ("sign", "play", "pause"):
            return None
        return self._recorded_at + JOURNAL_BEAT

    def _tick(self) -> None:
        self._check_hold()
        self._tick_game()
        self._compact()  # a round that just ended: its journal becomes one snapshot

    def _tick_game(self) -> None:
        deadline = self.game.next_deadline()
        now = self._now()
        if deadline is not None and deadline <= now:
            out = self.game.tick(now)
            self._record({"tick": True, "n": len(out.events)}, now)
            self._note(out.events)
            return
        beat = self._next_beat()
        if beat is not None and beat <= now:
            out = self.game.tick(now)  # nothing is due: only the game's clock moves, and the journal says when
            self._record({"tick": True, "n": len(out.events)}, now)
            if out.events:  # pragma: no cover - nothing was due
                self._note(out.events)

    def _note(self, events: Any) -> None:
        if events:
            self._events.extend(e.to_json() for e in events)
        self._dirty = True

    def _apply(self, cmd: Command | SeatCommand) -> Refusal | None:
        """Apply an engine command now, journal it, and note its events for the next broadcast."""
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

    def _wake_bots(self) -> None:
        """Every bot whose wake-up is due plays, through the very path a phone's message takes."""
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
            for msg in moves[:BOT_MOVES_PER_WAKE]:
                try:
                    raw = json_text(msg)
                except (TypeError, ValueError):
                    log.warning("bot on seat %s produced a non-JSON message: %r", seat, msg)
                    continue
                self._on_message(conn, raw)
                if self.bots.get(seat) is not entry:  # the action changed the seat (should not happen)
                    break
            self._flush()

"""One simulated game on the engine with a simulated clock, and runs of many (duplicate deals, processes).

No real time passes: an event loop jumps from one instant to the next among the engine's deadlines
(:meth:`Game.next_deadline`) and the bots' wakes (:meth:`Bot.next_wake`). Each bot is fed only what the
server sends a phone in its seat — ``state`` messages with the seat's view and the public events, ``ok`` and
``refused`` replies — and its messages go through the phones' checks (``parse_phone_message``, which the
server's ``parse_phone`` runs after decoding the JSON, then ``to_command``).

Lazily: a bot looks at the table only at moments (see :mod:`quatro_party.bots.eyes`), so at each change the
bots are only told that something changed (:meth:`Bot.notice`), and a bot about to look
(:meth:`Bot.wants_view`) is sent the state it would hold from the server — its seat's view as of the last
change — with every event since the last state it was sent. Views nobody looks at are never built.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import fields
from typing import Any

from ..bots import make_bot
from ..bots.newcomer import make_newcomer
from ..engine import Game, Phase, SeatKind, Sit, StartGame
from ..engine import events as ev
from ..engine.rules import DEFAULT_TIMING, Timing, team_of
from ..engine.views import ViewBuilder
from ..protocol import Action, ack_message, parse_phone_message, refused_message, to_command
from .lineups import NEWCOMER, tasks, team_players
from .records import MAX_ROUNDS, MEASURED, GameRecord, Tally
from .report import LevelStats, Summary


def seat_views(game: Game, now: float) -> list[dict[str, Any]]:
    """Every seat's view, equal to :func:`quatro_party.engine.seat_view` for each seat (``tests/bots`` checks
    it field for field at every step of whole games). See :class:`~quatro_party.engine.views.ViewBuilder`;
    :func:`play_game` keeps one builder per game, so that successive views share their unchanged parts."""
    return ViewBuilder(game).seat_views(now)


def _seat_view(builder: ViewBuilder, table: dict[str, Any], seat: int, now: float) -> dict[str, Any]:
    """One seat's view, equal to ``seat_view(game, seat, now)``, from ``table = builder.table_view(now)``
    (the simulator builds a view only for a bot that looks)."""
    return builder.seat_view(table, seat, now)


_EVENT_SHAPES: dict[type, tuple[str, tuple[str, ...]]] = {}


def event_json(e: ev.Event) -> dict[str, Any]:
    """``e.to_json()``, with each event class's name and fields worked out once (``tests/bots`` checks it)."""
    shape = _EVENT_SHAPES.get(type(e))
    if shape is None:
        shape = _EVENT_SHAPES[type(e)] = (e.to_json()["type"], tuple(f.name for f in fields(e)))
    name, names = shape
    return {"type": name, **{n: ev._json(getattr(e, n)) for n in names}}


def make_player(seat: int, kind: str, rng: random.Random, *, human_pace: bool = True) -> Any:
    """A bot of level ``kind``, or the scripted newcomer (``human_pace``: see :func:`~quatro_party.bots.make_bot`)."""
    if kind == NEWCOMER:
        return make_newcomer(seat, rng, human_pace=human_pace)
    return make_bot(seat, kind, rng, human_pace=human_pace)


def play_game(
    seed: int,
    team_levels: Sequence[str],
    seats: int = 4,
    *,
    timing: Timing = DEFAULT_TIMING,
    exact_views: bool = False,
    max_rounds: int = MAX_ROUNDS,
    observer: Callable[[str, float, Any], None] | None = None,
    humans: Sequence[int] = (),
    script: Sequence[tuple[float, Callable[[Game, float], Any]]] = (),
    human_pace: bool = True,
) -> GameRecord:
    """Play one game to the end (R34) on a simulated clock. ``team_levels[t]`` plays team ``t``: a level, or
    two players joined by ``+`` (first seat, then its partner), e.g. ``"newcomer+easy"``.

    ``exact_views`` builds each view with the engine's own ``seat_view`` (slower; the default shares the
    public part, see :func:`seat_views`). ``observer(kind, now, data)``, for tests, sees every step:
    ``("sent", now, (seat, message, refusal or None))`` and ``("events", now, [public events])``.
    ``humans`` seats are held by scripted humans instead of bots: ``script`` lists ``(time, action)``, each
    ``action(game, now)`` returning the engine ``Outcome`` of what a human did there (tests script readiness,
    reshuffles, disconnections with it). Newcomers sit on human seats too, and play by themselves.
    ``human_pace``: the players' reactions and taps stay real seconds under a sped-up ``timing``, as at a live
    table; ``False`` speeds them up with it (:mod:`quatro_party.bots.pace`).
    """
    from ..engine import seat_view

    teams = seats // 2
    if len(team_levels) != teams:
        raise ValueError(f"{seats} seats make {teams} teams, not {len(team_levels)}")
    kinds = []
    for s in range(seats):
        first, second = team_players(team_levels[team_of(s, seats)])
        kinds.append(first if s < teams else second)
    human_seats = set(humans) | {s for s in range(seats) if kinds[s] == NEWCOMER}
    game = Game(seats, rng=random.Random(seed), timing=timing)
    bots = {
        s: make_player(s, kinds[s], random.Random(seed * 1009 + s * 7919 + 1), human_pace=human_pace)
        for s in range(seats)
        if s not in humans
    }
    tally = Tally(game, team_levels, kinds, human_seats)
    table_info = {"bots": {str(s): kinds[s] for s in bots if tally.is_bot[s]}}
    todo = sorted(script, key=lambda x: x[0])
    sent = 0
    builder = ViewBuilder(game)

    # Lazy views: a change is only *noticed* by the bots (Bot.notice, no content); a bot's view is built when
    # it glances (Bot.wants_view), with the events since its previous view: the frame it would have kept of
    # the server's per-change messages (the latest state and the events since its last look).
    log: list[dict[str, Any]] = []  # every public event of the game, in order
    given = {s: 0 for s in bots}  # how much of the log each bot was sent
    inf = float("inf")
    wakes = [inf] * seats  # each bot's next wake, refreshed only when the bot was touched
    # The game changes only with events: the views a bot could hold are the ones built at the last change
    # (as the server's messages are). Built lazily, at most once per change and seat, only for a bot that looks.
    version = 0  # bumped at each change
    changed_at = 0.0  # when the last change happened: every view of this version is built at that time
    table_cache: list[Any] = [-1, None]  # (version, table view)
    view_cache: dict[int, dict[str, Any]] = {}  # seat -> its view at this version

    def deliver(events: Sequence[ev.Event], now: float) -> None:
        nonlocal version, changed_at
        if not events:
            return
        public = [event_json(e) for e in events]
        if observer is not None:
            observer("events", now, public)
        for e in events:
            if type(e) in MEASURED:
                tally.event(e, now)
        log.extend(public)
        version += 1
        changed_at = now
        view_cache.clear()
        for s, bot in bots.items():
            at = bot.notice(now)  # when it will glance: its next wake is the sooner of that and the one it had
            if at <= now:
                show(s)  # free to look now: it glances at once (observe) and perceives later
                refresh(s)
            elif at < wakes[s]:
                wakes[s] = at

    def show(s: int) -> None:
        """Send bot ``s`` the last state a phone in its seat was sent (at the last change), with the events
        since the last state this bot was shown."""
        view = view_cache.get(s)
        if view is None:
            if exact_views:
                view = seat_view(game, s, changed_at)
            else:
                if table_cache[0] != version:
                    table_cache[:] = [version, builder.table_view(changed_at)]
                view = _seat_view(builder, table_cache[1], s, changed_at)
            view_cache[s] = view
        events = log[given[s] :]
        given[s] = len(log)
        bots[s].observe({"type": "state", "view": view, "events": events, "table": table_info}, changed_at)

    def refresh(i: int) -> None:
        w = bots[i].next_wake()
        wakes[i] = inf if w is None else w

    def refresh_all() -> None:
        for i in bots:
            refresh(i)

    now = 0.0
    for s in range(seats):
        game.apply(Sit(s, SeatKind.HUMAN if s in human_seats else SeatKind.BOT, f"Player {s}"), now)
    deliver(game.apply(StartGame(), now).events, now)
    refresh_all()
    deadline = game.next_deadline()  # depends on the game's state only: refreshed whenever the game is touched
    while game.phase is not Phase.OVER and game.round <= max_rounds:
        best = min(wakes)
        who = wakes.index(best)
        if deadline is not None and deadline <= best:
            best, who = deadline, -1
        if todo and todo[0][0] <= best:  # a scripted human acts
            at, act = todo.pop(0)
            now = max(now, at)
            deliver(act(game, now).events, now)
            deadline = game.next_deadline()
            refresh_all()
            continue
        if best == inf:
            break
        now = max(now, best)
        if who < 0:
            events = game.tick(now).events
            deadline = game.next_deadline()
            deliver(events, now)  # keeps every bot's wake up to date
            continue
        bot = bots[who]
        if given[who] < len(log) and bot.wants_view(now):
            show(who)
        for msg in bot.wake(now):
            sent += 1
            action = parse_phone_message(msg)  # exactly a phone's checks, on the message it would send as JSON
            if not isinstance(action, Action):
                raise TypeError(f"bot {who} sent {msg!r}: a bot only sends actions")
            outcome = game.apply(to_command(action, who), now)
            deadline = game.next_deadline()
            ref = getattr(action, "id", None)
            if observer is not None:
                observer("sent", now, (who, msg, outcome.refusal))
            kind = msg["type"]
            if kind == "call_quatro" or kind == "call_contre":
                tally.call(who, kind, outcome.refusal, now)
            if outcome.refusal is not None:
                bot.observe(refused_message(outcome.refusal, ref), now)
            else:
                bot.observe(ack_message(ref), now)
            deliver(outcome.events, now)  # keeps every bot's wake up to date (this one's is refreshed below)
            if game.phase is not Phase.PLAY and kind not in ("pick_sign", "ready"):
                break  # the round ended (a call): the rest of this burst would only be refused
        refresh(who)
    return tally.record(seed, now, sent)


def _play_task(task: tuple[int, tuple[str, ...], int, Timing, bool, bool]) -> GameRecord:
    seed, team_levels, seats, timing, exact_views, human_pace = task
    return play_game(seed, team_levels, seats, timing=timing, exact_views=exact_views, human_pace=human_pace)


def run(
    levels: Sequence[str],
    games: int,
    seats: int = 4,
    *,
    first_seed: int = 1,
    timing: Timing = DEFAULT_TIMING,
    keep_records: bool = False,
    exact_views: bool = False,
    jobs: int = 1,
    human_pace: bool = True,
) -> Summary:
    """Play about ``games`` games with duplicate deals and summarise them. ``jobs`` > 1 plays them in that many
    processes; every game depends on its seed alone, and they are counted in order: the same summary.
    ``timing`` and ``human_pace`` are as in :func:`play_game`."""
    for level in levels:
        team_players(level)
    summary = Summary(seats, tuple(levels), 0)
    for level in dict.fromkeys(levels):
        summary.by_level[level] = LevelStats()
    started = time.perf_counter()
    work = [(seed, tl, seats, timing, exact_views, human_pace) for seed, tl in tasks(levels, games, seats, first_seed)]
    if jobs > 1 and len(work) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
        with ProcessPoolExecutor(jobs, mp_context=context) as pool:
            for rec in pool.map(_play_task, work, chunksize=max(1, min(16, len(work) // (4 * jobs)))):
                summary.add(rec, keep_records)
    else:
        for task in work:
            summary.add(_play_task(task), keep_records)
    summary.seconds = time.perf_counter() - started
    return summary

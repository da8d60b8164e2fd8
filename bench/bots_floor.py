"""The floor under the 8-hard-bot simulator: what its fixed work costs when the bots think nothing.

    python bench/bots_floor.py             # 10 games at 8 seats
    python bench/bots_floor.py --games 20 --seats 4

``bench/bots.py`` sets the simulator's cost per 8-hard-bot game beside this floor (target: at most twice it).
This script measures how much the simulator's *design* spends before any bot judgement:
it records N real games (``quatro_party.simulate.play_game``: every action sent, every seat view a bot was
shown, every decision and wake), then replays exactly that amount of work with no judgement in it, adding one
layer at a time:

(a) the engine and the event loop: the same commands at the same times, with the ticks due in between;
(b) + the views: the same table and seat views built at the same moments (``ViewBuilder``, as the simulator);
(c) + the events: each public event made JSON once and read by every bot as one bare dict update;
(d) + the looks: per real decision, the dullest greedy one (count the ranks of hand and centre, pick the most
    common, pick a card to give); per real wake, one heap push and pop.

(d) is a lower bound for *any* simulator in which every bot gets its seat's view as a phone does (R36-R39)
and looks at the table at human moments, as the bots do; ``1000 / (d)`` is the most games per second that
design allows on this interpreter. Figures are the best of ``--repeat`` runs of ``time.process_time``;
nothing is asserted. (The replay builds a look's view after the actions of the same instant: the cost is the
same, and the figures are about cost.)
"""

from __future__ import annotations

import argparse
import heapq
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import quatro_party.simulate.runner as sim  # noqa: E402
from quatro_party.engine import Game, SeatKind, Sit, StartGame  # noqa: E402
from quatro_party.engine.views import ViewBuilder  # noqa: E402
from quatro_party.protocol import Action, parse_phone_message, to_command  # noqa: E402

#: One recorded game's timeline, in the order things happened: ("act", now, seat, command),
#: ("look", now, seat, None), ("decide", now, seat, None), ("wake", now, seat, None).
Timeline = list[tuple[str, float, int, Any]]


def record(seed: int, seats: int) -> tuple[Timeline, tuple[int, ...]]:
    """Play one real game of hard bots and note, in order, every action, view shown, decision and wake;
    with the final scores (the replay must reach them)."""
    timeline: Timeline = []
    real_view, real_make = sim._seat_view, sim.make_bot

    def seat_view(builder: Any, table: Any, seat: int, now: float) -> Any:
        timeline.append(("look", now, seat, None))
        return real_view(builder, table, seat, now)

    def make(seat: int, *args: Any, **kwargs: Any) -> Any:
        bot = real_make(seat, *args, **kwargs)
        wake, decide = bot.wake, bot.policy.decide

        def counted_wake(now: float) -> Any:
            timeline.append(("wake", now, seat, None))
            return wake(now)

        def counted_decide(now: float) -> Any:
            timeline.append(("decide", now, seat, None))
            return decide(now)

        bot.wake = counted_wake  # type: ignore[method-assign]
        bot.policy.decide = counted_decide  # type: ignore[method-assign]
        return bot

    def observer(kind: str, now: float, data: Any) -> None:
        if kind == "sent":
            seat, msg, _ = data
            action = parse_phone_message(msg)
            assert isinstance(action, Action)  # the simulator raised already if a bot sent anything else
            timeline.append(("act", now, seat, to_command(action, seat)))

    sim._seat_view, sim.make_bot = seat_view, make
    try:
        scores = sim.play_game(seed, ["hard"] * (seats // 2), seats, observer=observer).scores
    finally:
        sim._seat_view, sim.make_bot = real_view, real_make
    return timeline, scores


def _greedy(view: dict[str, Any]) -> tuple[int, int] | None:
    """The dullest decision a swapping bot can take: collect the rank seen most in hand and centre."""
    hand, centre = view["you"]["hand"], view["centre"]
    if not hand or not centre:
        return None
    counts: dict[str, int] = {}
    for c in hand:
        counts[c["rank"]] = counts.get(c["rank"], 0) + 1
    for c in centre:
        counts[c["rank"]] = counts.get(c["rank"], 0) + 1
    want = max(counts, key=counts.__getitem__)
    give = next((c for c in hand if c["rank"] != want), None)
    place = next((i for i, c in enumerate(centre) if c["rank"] == want), None)
    return None if give is None or place is None else (give["id"], place)


def replay(seed: int, seats: int, timeline: Timeline, layers: int) -> tuple[int, ...]:
    """Replay a recorded game's work with the first ``layers`` of (a)-(d) (1 = engine only ... 4 = all);
    returns the final scores."""
    game = Game(seats, rng=random.Random(seed))
    for s in range(seats):
        game.apply(Sit(s, SeatKind.BOT, f"Player {s}"), 0.0)
    builder = ViewBuilder(game)
    facts: list[dict[Any, Any]] = [{} for _ in range(seats)]  # what each bot "read"
    shown: list[dict[str, Any] | None] = [None] * seats  # the last view each bot was shown
    wakes: list[tuple[float, int]] = [(0.0, s) for s in range(seats)]
    table: tuple[float, int, Any] = (-1.0, -1, None)  # (at, change count, table view)
    changes = 0

    def read(events: Any) -> None:
        nonlocal changes
        if not events:
            return
        changes += 1
        if layers >= 3:
            public = [sim.event_json(e) for e in events]
            for f in facts:
                for e in public:
                    f[e["type"]] = e

    read(game.apply(StartGame(), 0.0).events)
    for kind, now, seat, command in timeline:
        deadline = game.next_deadline()
        while deadline is not None and deadline <= now:
            read(game.tick(deadline).events)
            deadline = game.next_deadline()
        if kind == "act":
            read(game.apply(command, now).events)
        elif kind == "look" and layers >= 2:
            if table[0] != now or table[1] != changes:
                table = (now, changes, builder.table_view(now))
            shown[seat] = builder.seat_view(table[2], seat, now)
        elif layers >= 4:
            if kind == "decide":
                view = shown[seat]
                if view is not None:
                    _greedy(view)
            else:  # a wake
                heapq.heappush(wakes, (now, seat))
                heapq.heappop(wakes)
    return game.scores()


def best_of(repeat: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        run()
        times.append(time.process_time() - t0)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seats", type=int, default=8, choices=(4, 6, 8))
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    seeds = range(args.first_seed, args.first_seed + args.games)
    full = best_of(1, lambda: [sim.play_game(s, ["hard"] * (args.seats // 2), args.seats) for s in seeds])
    recorded = [(seed, *record(seed, args.seats)) for seed in seeds]
    for seed, timeline, scores in recorded:  # the same games, or the figures would be about other work
        if replay(seed, args.seats, timeline, 4) != scores:
            raise SystemExit(f"seed {seed}: the replay did not reach the recorded scores {scores}")
    games = [(seed, timeline) for seed, timeline, _ in recorded]
    n = len(games)
    count = {k: sum(1 for _, t in games for item in t if item[0] == k) / n for k in ("act", "look", "decide", "wake")}
    print(
        f"{n} games of {args.seats} hard bots; per game: {count['act']:.0f} actions, {count['look']:.0f} seat "
        f"views shown, {count['decide']:.0f} decisions, {count['wake']:.0f} wakes"
    )
    print(f"the real simulator: {1000 * full / n:6.1f} ms per game = {n / full:5.1f} games per CPU second")
    labels = (
        "(a) engine and the event loop",
        "(b) + views",
        "(c) + events read by every bot",
        "(d) + a greedy look per decision",
    )
    total = 0.0
    for layers, label in enumerate(labels, start=1):
        total = best_of(args.repeat, lambda: [replay(seed, args.seats, t, layers) for seed, t in games]) / n
        print(f"{label:34} {1000 * total:6.1f} ms per game")
    print(
        f"floor: no judgement at all still costs {1000 * total:.1f} ms per game: at most {1 / total:.0f} games "
        f"per CPU second with this design"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

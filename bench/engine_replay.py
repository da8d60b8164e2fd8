"""Replay benchmark: the engine and the phone parse path, on the actions of real bot games.

    python bench/engine_replay.py              # 10 games at 8 seats, hard bots
    python bench/engine_replay.py --games 30 --profile engine   # cProfile of one path (engine|parse|dict)

Records every message the bots of N simulated games sent (``quatro_party.simulate.play_game``), then
replays them on fresh engines and prints milliseconds per game for:

(a) the engine alone (``Game.apply``/``tick``/``next_deadline``, commands built beforehand);
(b) the phone parse path from text: ``to_command(parse_phone(json.dumps(msg)), seat)``;
(c) the dict parse path: ``to_command(parse_phone_message(msg), seat)``.

The replay checks that each action gets the refusal (or not) it got in the simulation: the figures are
for the same games. Timings are the best of ``--repeat`` runs (``perf_counter``); nothing is asserted
about time.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from quatro_party.engine import Game, SeatKind, Sit, StartGame  # noqa: E402
from quatro_party.protocol import parse_phone, parse_phone_message, to_command  # noqa: E402
from quatro_party.simulate import play_game  # noqa: E402

SEATS = 8

#: One recorded game: its seed and every message sent, as (time, seat, message, refusal code or None).
Recorded = tuple[int, list[tuple[float, int, dict[str, Any], str | None]]]


def record(seed: int) -> Recorded:
    sent: list[tuple[float, int, dict[str, Any], str | None]] = []

    def obs(kind: str, now: float, data: Any) -> None:
        if kind == "sent":
            seat, msg, refusal = data
            sent.append((now, seat, msg, None if refusal is None else refusal.reason.value))

    play_game(seed, ["hard"] * (SEATS // 2), SEATS, observer=obs)
    return seed, sent


def replay(seed: int, actions: list[tuple[float, Any]], refusals: list[str | None] | None = None) -> None:
    """Play the recorded commands on a fresh engine, as the simulator does (deadlines due, then the command);
    the refusal code of each goes to ``refusals`` if given."""
    game = Game(SEATS, rng=random.Random(seed))
    for s in range(SEATS):
        game.apply(Sit(s, SeatKind.BOT, f"Player {s}"), 0.0)
    game.apply(StartGame(), 0.0)
    for now, command in actions:
        deadline = game.next_deadline()
        while deadline is not None and deadline <= now:
            game.tick(deadline)
            deadline = game.next_deadline()
        refusal = game.apply(command, now).refusal
        if refusals is not None:
            refusals.append(None if refusal is None else refusal.reason.value)


def best_of(repeat: int, run: Any) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", choices=("engine", "parse", "dict"), help="cProfile one path (top 25)")
    args = parser.parse_args(argv)

    games = [record(seed) for seed in range(args.first_seed, args.first_seed + args.games)]
    n = len(games)
    messages = [(seat, msg) for _, sent in games for _, seat, msg, _ in sent]
    texts = [(seat, json.dumps(msg)) for seat, msg in messages]
    built = [
        (seed, [(now, to_command(parse_phone(json.dumps(msg)), seat)) for now, seat, msg, _ in sent])
        for seed, sent in games
    ]
    for (seed, sent), (_, actions) in zip(games, built):  # same games, same answers
        codes: list[str | None] = []
        replay(seed, actions, codes)
        if codes != [r for *_, r in sent]:
            raise SystemExit(f"seed {seed}: the replay's refusals differ from the simulation's")
        if [to_command(parse_phone_message(msg), seat) for _, seat, msg, _ in sent] != [c for _, c in actions]:
            raise SystemExit(f"seed {seed}: parse_phone_message disagrees with parse_phone")

    def engine() -> None:
        for seed, actions in built:
            replay(seed, actions)

    def parse() -> None:
        for seat, msg in messages:
            to_command(parse_phone(json.dumps(msg)), seat)

    def parse_dict() -> None:
        for seat, msg in messages:
            to_command(parse_phone_message(msg), seat)

    def parse_text_only() -> None:
        for seat, raw in texts:
            to_command(parse_phone(raw), seat)

    paths = {"engine": engine, "parse": parse, "dict": parse_dict}
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(args.repeat):
            paths[args.profile]()
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)

    print(
        f"{n} games at {SEATS} seats, hard bots: {len(messages) / n:.0f} messages per game "
        f"(best of {args.repeat}, ms per game)"
    )
    for label, run in (
        ("(a) engine only (apply + tick + next_deadline)", engine),
        ("(b) to_command(parse_phone(json.dumps(msg)), seat)", parse),
        ("    the same from the text (no json.dumps)", parse_text_only),
        ("(c) to_command(parse_phone_message(msg), seat)", parse_dict),
    ):
        print(f"  {label:52} {1000 * best_of(args.repeat, run) / n:7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Engine benchmark: complete simulated games per second, random actions, one core.

    python3 bench/engine.py                 # 8 seats, 400 games
    python3 bench/engine.py --games 2000 --seats 4
    python3 bench/engine.py --profile       # where the time goes (cProfile, top 20)

Each game is played to game over by :mod:`quatro_party.engine.randomplay` (humans and bots,
legal and illegal actions, votes, disconnections), events recorded as in the tests.
Target: at least 500 games/s at 8 seats. The figure uses this process's CPU time, so a
machine busy with other work does not make the engine look slow; wall time is printed too,
and so is a baseline measured in the same run (a fixed pure-Python workload: shuffling and
counting a deck, about the work of one deal), so that runs on a busy machine can be compared
by their ratio.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from quatro_party.engine.randomplay import play_random_game  # noqa: E402

TARGET = 500.0


def baseline(rounds: int = 20_000) -> float:
    """Reference workloads per CPU second: shuffle a 36-card deck and count its ranks (no engine involved)."""
    import random

    rng = random.Random(0)
    deck = [r for r in "AKQJT9876" for _ in range(4)]
    cpu0 = time.process_time()
    for _ in range(rounds):
        rng.shuffle(deck)
        counts: dict[str, int] = {}
        for rank in deck:
            counts[rank] = counts.get(rank, 0) + 1
    return rounds / (time.process_time() - cpu0)


def run(games: int, seats: int, first_seed: int = 0) -> dict[str, float]:
    """Play ``games`` complete games; return counts and timings."""
    steps = rounds = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        play = play_random_game(seed, seats)
        steps += play.steps
        rounds += play.game.round
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return {"games": games, "steps": steps, "rounds": rounds, "cpu": cpu, "wall": wall}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seats", type=int, default=8, choices=(4, 6, 8))
    parser.add_argument("--profile", action="store_true", help="print the 20 costliest functions")
    args = parser.parse_args(argv)
    run(20, args.seats, first_seed=10_000)  # warm up (imports, caches)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
    r = run(args.games, args.seats)
    if args.profile:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
    rate = r["games"] / r["cpu"]
    base = baseline()
    print(
        f"{r['games']} complete games at {args.seats} seats: {rate:.0f} games/s on one core "
        f"(CPU {r['cpu']:.2f} s, wall {r['wall']:.2f} s; {r['steps'] / r['games']:.0f} commands "
        f"and {r['rounds'] / r['games']:.1f} rounds per game; {r['steps'] / r['cpu']:.0f} commands/s)"
    )
    print(
        f"baseline: {base:.0f} reference deals/s in the same run; ratio {1000 * rate / base:.2f} games per 1000 deals"
    )
    print(f"target ≥ {TARGET:.0f} games/s: {'met' if rate >= TARGET else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The simulator's command line: ``python -m quatro_party.simulate --seats 4 --games 2000 --teams hard,easy``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from .runner import run


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m quatro_party.simulate",
        description="Bot-only games on the engine with a simulated clock: how strong is each bot level?",
    )
    parser.add_argument("--seats", type=int, default=4, choices=(4, 6, 8))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--teams",
        default="hard,easy",
        help="comma-separated teams, cycled over the table and rotated: a level (easy, normal, hard) or two "
        "players joined by '+', first seat then partner, where 'newcomer' is the scripted first-time player "
        "(e.g. newcomer+easy,easy)",
    )
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes to spread the games over (same results)")
    parser.add_argument(
        "--exact-views", action="store_true", help="build every view with the engine's seat_view (slower; same games)"
    )
    args = parser.parse_args(argv)
    levels = [x.strip() for x in args.teams.split(",") if x.strip()]
    try:
        summary = run(
            levels, args.games, args.seats, first_seed=args.seed, exact_views=args.exact_views, jobs=max(1, args.jobs)
        )
    except ValueError as e:
        parser.error(str(e))
    print(summary.table())
    return 0

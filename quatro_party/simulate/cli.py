"""The simulator's command line: ``python -m quatro_party.simulate --seats 4 --games 2000 --teams hard,easy``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..engine.rules import DEFAULT_TIMING, Timing
from .runner import run


def main(argv: Sequence[str] | None = None) -> int:
    """Run the games the arguments ask for and print the report."""
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
    parser.add_argument(
        "--time-scale",
        type=float,
        default=1.0,
        help="multiply every rule duration, as the host's --time-scale does; the players keep people's pace",
    )
    parser.add_argument(
        "--scaled-bots",
        action="store_true",
        help="with --time-scale, speed the players' reactions and taps up with the table too (no live table does)",
    )
    args = parser.parse_args(argv)
    levels = [x.strip() for x in args.teams.split(",") if x.strip()]
    try:
        timing = DEFAULT_TIMING if args.time_scale == 1.0 else Timing().scaled(args.time_scale)
        summary = run(
            levels,
            args.games,
            args.seats,
            first_seed=args.seed,
            timing=timing,
            exact_views=args.exact_views,
            jobs=max(1, args.jobs),
            human_pace=not args.scaled_bots,
        )
    except ValueError as e:
        parser.error(str(e))
    print(summary.table())
    return 0

"""The bot ladder, calibrated on a first-time player: one table, Wilson 95 % intervals, every target T1–T8.

    python bench/ladder.py                       # 400 games per 4-seat cell, 200 per 8-seat cell
    python bench/ladder.py --games 100 --jobs 2  # quicker, on two processes (same results as --jobs 1)

Each cell is a simulator run (``quatro_party.simulate.run``, duplicate deals) of one pairing; "newcomer" is the
scripted first-time player (:mod:`quatro_party.bots.newcomer`). The targets:

- T1 newcomer + a partner bot of level L, against two L bots: easy 65–75 %, normal 40–55 %, hard 25–35 %;
- T2 two newcomers against two L bots: easy >= 70 %, normal 30–50 %, hard 10–30 %;
- T3 newcomer + hard against two normal wins at least 40 points more often than newcomer + easy against them;
- T4 the newcomer takes part in at least 40 % of its team's points (its carré called by its partner, its call);
- T5 bots' Quatro from the partner's sign: p10 >= 1.3 s, median >= 1.6 s; no emission < 0.3 s after a take;
- T6 adjacent levels: the stronger wins 70–95 % of decided games;
- T7 rounds under 5 s <= 2 %, void rounds <= 5 %;
- T8 no bot call refused and never sent again.

Then T5 again at ``--time-scale 0.5`` on the cells that give it most calls (a bot partner of a newcomer, bot
teams of adjacent levels): the bots a live table seats keep people's pace there (p10 >= 1.3 s of real time), and
beside it the same games with bots made to follow the table (``human_pace=False``, a simulation's opt-in).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from quatro_party.engine import Timing  # noqa: E402
from quatro_party.simulate import Summary, run, wilson  # noqa: E402

#: The cells T5 is measured on again at --time-scale 0.5.
HALF_SPEED_CELLS = (("newcomer+hard", "hard"), ("hard", "normal"), ("normal", "easy"))


@dataclass(frozen=True)
class Cell:
    """One pairing: the teams (cycled over the table), the team whose win rate is the figure, its target."""

    name: str
    seats: int
    teams: tuple[str, ...]
    subject: str
    low: float | None
    high: float | None


def cells(with_8: bool = True) -> list[Cell]:
    """Every cell of the ladder, 4 seats first, then the 8-seat row."""
    out = [
        Cell("T1 easy", 4, ("newcomer+easy", "easy"), "newcomer+easy", 0.65, 0.75),
        Cell("T1 normal", 4, ("newcomer+normal", "normal"), "newcomer+normal", 0.40, 0.55),
        Cell("T1 hard", 4, ("newcomer+hard", "hard"), "newcomer+hard", 0.25, 0.35),
        Cell("T2 easy", 4, ("newcomer", "easy"), "newcomer", 0.70, None),
        Cell("T2 normal", 4, ("newcomer", "normal"), "newcomer", 0.30, 0.50),
        Cell("T2 hard", 4, ("newcomer", "hard"), "newcomer", 0.10, 0.30),
        Cell("T3 hard partner", 4, ("newcomer+hard", "normal"), "newcomer+hard", None, None),
        Cell("T3 easy partner", 4, ("newcomer+easy", "normal"), "newcomer+easy", None, None),
        Cell("T6 normal/easy", 4, ("normal", "easy"), "normal", 0.70, 0.95),
        Cell("T6 hard/normal", 4, ("hard", "normal"), "hard", 0.70, 0.95),
    ]
    if with_8:
        out += [
            Cell("8: T1 easy", 8, ("newcomer+easy", "easy", "easy", "easy"), "newcomer+easy", None, None),
            Cell("8: T1 normal", 8, ("newcomer+normal", "normal", "normal", "normal"), "newcomer+normal", None, None),
            Cell("8: T1 hard", 8, ("newcomer+hard", "hard", "hard", "hard"), "newcomer+hard", None, None),
            Cell("8: T6 normal/easy", 8, ("normal", "easy"), "normal", 0.70, 0.95),
            Cell("8: T6 hard/normal", 8, ("hard", "normal"), "hard", 0.70, 0.95),
        ]
    return out


def play(cell: Cell, games: int, jobs: int, first_seed: int = 1) -> Summary:
    """Run one cell."""
    return run(list(cell.teams), games, cell.seats, first_seed=first_seed, jobs=jobs)


def band(low: float | None, high: float | None) -> str:
    if low is None and high is None:
        return ""
    if high is None:
        return f">= {100 * (low or 0):.0f} %"
    return f"{100 * (low or 0):.0f}–{100 * high:.0f} %"


def half_speed(games: int, jobs: int, first_seed: int) -> None:
    """T5 at --time-scale 0.5: the bots a live table seats (people's pace), and bots that follow the table."""
    timing = Timing().scaled(0.5)
    figures = []
    for human_pace in (True, False):
        runs = [
            run(list(teams), games, 4, first_seed=first_seed, timing=timing, jobs=jobs, human_pace=human_pace)
            for teams in HALF_SPEED_CELLS
        ]
        paces = sorted(p for s in runs for p in s.quatro_pace)
        gap = min(g for s in runs for g in s.emoji_gaps)
        p10, p50 = paces[max(0, int(0.1 * len(paces)) - 1)], paces[len(paces) // 2]
        figures.append(f"p10 {p10:.2f} s, median {p50:.2f} s ({len(paces)} calls), soonest emission {gap:.2f} s")
    print(
        f"T5 at --time-scale 0.5, {' / '.join(' v '.join(t) for t in HALF_SPEED_CELLS)}: bots at people's pace (a live "
        f"table's) {figures[0]} — target >= 1.3 / 1.6 s, >= 0.3 s; bots following the table (a simulation's "
        f"opt-in) {figures[1]}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per 4-seat cell")
    parser.add_argument("--games8", type=int, default=200, help="games per 8-seat cell (0: no 8-seat row)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument(
        "--half-games", type=int, default=200, help="games per cell of T5 at --time-scale 0.5 (0: not measured)"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    results: list[tuple[Cell, Summary]] = []
    for cell in cells(with_8=args.games8 > 0):
        n = args.games if cell.seats == 4 else args.games8
        results.append((cell, play(cell, n, args.jobs, args.seed)))
    print(
        f"{'cell':18} {'teams':38} {'games':>5} {'win %':>6} {'95 % Wilson':>14} {'target':>9} {'ok':>3} "
        f"{'nc part':>7} {'<5 s':>5} {'void':>5} {'pace p10/med':>12} {'lost':>4}"
    )
    win: dict[str, float] = {}
    for cell, s in results:
        st = s.by_level[cell.subject]
        rate = st.wins / st.decided if st.decided else 0.0
        win[cell.name] = rate
        lo, hi = wilson(st.wins, st.decided)
        ok = ""
        if cell.low is not None or cell.high is not None:
            inside = (cell.low is None or rate >= cell.low) and (cell.high is None or rate <= cell.high)
            ok = "yes" if inside else "NO"
        part = f"{100 * s.newcomer_share(cell.subject):6.0f}%" if "newcomer" in cell.subject else f"{'':>7}"
        pace = f"{s.pace(0.1):.2f}/{s.pace(0.5):.2f}" if s.quatro_pace else "-"
        print(
            f"{cell.name:18} {' v '.join(dict.fromkeys(cell.teams)):38} {s.games:5d} {100 * rate:5.1f}% "
            f"[{100 * lo:4.1f},{100 * hi:5.1f}] {band(cell.low, cell.high):>9} {ok:>3} {part} "
            f"{100 * s.short_rate():4.1f}% {100 * s.void_rate():4.1f}% {pace:>12} {s.lost_calls:4d}"
        )
    t3 = win["T3 hard partner"] - win["T3 easy partner"]
    every = [s for _, s in results]
    paces = sorted(p for s in every for p in s.quatro_pace)
    gaps = [g for s in every for g in s.emoji_gaps]
    print()
    print(f"T3 hard partner minus easy partner against two normal: {100 * t3:+.1f} points (target >= +40)")
    shares = [s.newcomer_share(c.subject) for c, s in results if "newcomer" in c.subject]
    print(f"T4 newcomer's part of its team's points: lowest cell {100 * min(shares):.0f} % (target >= 40 %)")
    if paces:
        p10, p50 = paces[max(0, int(0.1 * len(paces)) - 1)], paces[len(paces) // 2]
        print(
            f"T5 bots' Quatro pace from the partner's sign, all cells: p10 {p10:.2f} s, median {p50:.2f} s "
            f"({len(paces)} calls; target >= 1.3 / 1.6 s); soonest emission after a take: {min(gaps):.2f} s (>= 0.3)"
        )
    rounds = sum(s.rounds for s in every)
    short = sum(s.short_rounds for s in every)
    void = sum(s.endings["void"] for s in every)
    print(
        f"T7 rounds under 5 s: {100 * short / rounds:.1f} %, void {100 * void / rounds:.1f} % of {rounds} rounds "
        f"(targets <= 2 %, <= 5 %); worst cell {max(100 * s.short_rate() for s in every):.1f} % / "
        f"{max(100 * s.void_rate() for s in every):.1f} %"
    )
    print(f"T8 bot calls refused and never sent again: {sum(s.lost_calls for s in every)}")
    if args.half_games:
        half_speed(args.half_games, args.jobs, args.seed)
    print(f"({time.perf_counter() - started:.0f} s, --jobs {args.jobs})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The report of a run: per team label, its games, wins with a 95 % Wilson interval and points; how rounds
ended; and the bots' pace figures (Quatro from the partner's sign, the emoji beat, calls lost)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .lineups import NEWCOMER, team_players
from .records import ENDINGS, MAX_ROUNDS, GameRecord

#: A round ended by a call sooner than this after it opened is "short" (too quick for people to follow).
SHORT_ROUND = 5.0


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class LevelStats:
    """The games of one team label (a level, or ``newcomer+easy`` and the like)."""

    games: int = 0  # games this label played in
    wins: int = 0  # games it won alone
    decided: int = 0  # games that one label won alone
    points: int = 0
    teams: int = 0  # team-games (for points per team per game)
    newcomer_points: int = 0  # points its newcomer scored (its call, or its carré called by its partner)


@dataclass
class Summary:
    """The outcome of :func:`run`."""

    seats: int
    levels: tuple[str, ...]
    games: int
    by_level: dict[str, LevelStats] = field(default_factory=dict)
    endings: Counter = field(default_factory=Counter)  # ending -> count
    endings_by_caller: dict[str, Counter] = field(default_factory=dict)
    rounds: int = 0
    short_rounds: int = 0  # rounds ended by a call less than SHORT_ROUND seconds after they opened
    draws: int = 0
    undecided: int = 0
    seconds: float = 0.0
    quatro_pace: list[float] = field(default_factory=list)
    emoji_gaps: list[float] = field(default_factory=list)
    lost_calls: int = 0
    random_signs: int = 0
    records: list[GameRecord] = field(default_factory=list)

    def win_rate(self, level: str) -> float:
        """Share of decided games won by ``level``."""
        s = self.by_level[level]
        return s.wins / s.decided if s.decided else 0.0

    def void_rate(self) -> float:
        return self.endings["void"] / self.rounds if self.rounds else 0.0

    def short_rate(self) -> float:
        return self.short_rounds / self.rounds if self.rounds else 0.0

    def newcomer_share(self, level: str) -> float:
        """Share of ``level``'s points its newcomer took part in."""
        s = self.by_level[level]
        return s.newcomer_points / s.points if s.points else 0.0

    def pace(self, q: float) -> float:
        """The ``q`` quantile of the bots' Quatro pace (from the partner's sign), or NaN without any."""
        return quantile(self.quatro_pace, q)

    def add(self, rec: GameRecord, keep: bool = False) -> None:
        """Count one game in."""
        self.games += 1
        if keep:
            self.records.append(rec)
        team_levels = rec.levels
        present = set(team_levels)
        winning = {team_levels[t] for t in rec.winners}
        for level in present:
            st = self.by_level.setdefault(level, LevelStats())
            st.games += 1
            for t, lv in enumerate(team_levels):
                if lv == level:
                    st.points += rec.scores[t]
                    st.teams += 1
        for r in rec.rounds:
            for t in r.newcomer_part:
                self.by_level[team_levels[t]].newcomer_points += 1
            if r.ending != "void" and r.length < SHORT_ROUND:
                self.short_rounds += 1
        if len(winning) == 1 and len(present) > 1:
            for level in present:
                self.by_level[level].decided += 1
            self.by_level[next(iter(winning))].wins += 1
        elif not winning:
            self.undecided += 1
        elif len(present) > 1:
            self.draws += 1
        for ending, caller_level in rec.endings:
            self.rounds += 1
            self.endings[ending] += 1
            if caller_level is not None:
                self.endings_by_caller.setdefault(caller_level, Counter())[ending] += 1
        self.quatro_pace.extend(rec.quatro_pace)
        self.emoji_gaps.extend(rec.emoji_gaps)
        self.lost_calls += rec.lost_calls
        self.random_signs += rec.random_signs

    def table(self) -> str:
        """The printed report."""
        lines = [
            f"{self.games} games at {self.seats} seats, teams {','.join(self.levels)} "
            f"(duplicate deals), {self.rounds} rounds, {self.seconds:.1f} s "
            f"({self.games / self.seconds if self.seconds else 0:.1f} games/s)",
            "",
        ]
        lines.append(
            f"{'team':16} {'games':>6} {'decided':>8} {'wins':>6} {'win %':>7}  {'95 % Wilson':>15} "
            f"{'pts/team/game':>14} {'newcomer part':>14}"
        )
        for level, s in self.by_level.items():
            lo, hi = wilson(s.wins, s.decided)
            rate = 100 * s.wins / s.decided if s.decided else 0.0
            pts = s.points / s.teams if s.teams else 0.0
            part = f"{100 * self.newcomer_share(level):13.1f}%" if NEWCOMER in team_players(level) else f"{'':>14}"
            lines.append(
                f"{level:16} {s.games:6d} {s.decided:8d} {s.wins:6d} {rate:6.1f}%  "
                f"[{100 * lo:5.1f}, {100 * hi:5.1f}]% {pts:14.2f} {part}"
            )
        lines.append(
            f"draws (several teams won together): {self.draws}; undecided (> {MAX_ROUNDS} rounds): {self.undecided}"
        )
        lines.append("")
        lines.append("rounds ended by     " + " ".join(f"{e:>15}" for e in ENDINGS))
        total = max(1, self.rounds)
        lines.append(
            f"{'all':19} " + " ".join(f"{self.endings[e]:7d} ({100 * self.endings[e] / total:4.1f}%)" for e in ENDINGS)
        )
        for level, c in self.endings_by_caller.items():
            lines.append(
                f"{'  called by ' + level:19} "
                + " ".join(f"{c[e]:7d} ({100 * c[e] / total:4.1f}%)" if e != "void" else f"{'':>15}" for e in ENDINGS)
            )
        lines.append("")
        gap = min(self.emoji_gaps) if self.emoji_gaps else float("nan")
        lines.append(
            f"rounds under {SHORT_ROUND:.0f} s: {100 * self.short_rate():.1f} %; void: {100 * self.void_rate():.1f} %; "
            f"bot Quatro pace from the partner's sign: p10 {self.pace(0.1):.2f} s, median {self.pace(0.5):.2f} s "
            f"({len(self.quatro_pace)}); soonest bot emission after taking the channel: {gap:.2f} s; "
            f"bot calls lost: {self.lost_calls}; random signs of bot teams at human tables: {self.random_signs}"
        )
        return "\n".join(lines)


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank), NaN when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]

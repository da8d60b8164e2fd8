"""What one simulated game leaves: its record, and the tally of the acceptance figures read off its events.

The tally may look at the engine's events (the simulator is the referee's side): the bots may not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine import Game
from ..engine import events as ev
from ..engine.rules import partner_of, seats_of, team_of
from .lineups import NEWCOMER

#: Stop a game that has not ended after this many rounds (it counts as undecided).
MAX_ROUNDS = 80

#: How a round ended, as counted in the summary.
ENDINGS = ("correct_quatro", "false_quatro", "correct_contre", "false_contre", "void")


@dataclass
class RoundRecord:
    """How one round ended, with what the acceptance figures need."""

    ending: str  # one of ENDINGS
    caller: int | None  # the calling seat
    target: int | None  # Quatro: the partner judged; Contre: the accused team
    scorers: tuple[int, ...]  # the teams that scored
    length: float  # seconds from the round's opening to its end
    newcomer_part: tuple[int, ...] = ()  # the scoring teams whose newcomer scored it (its call, or its carré)


@dataclass
class GameRecord:
    """One simulated game: the label of each team, the final scores, the winners, how each round ended."""

    seed: int
    levels: tuple[str, ...]  # by team
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    endings: list[tuple[str, str | None]]  # (ending, caller's level)
    sim_time: float
    messages: int = 0
    rounds: list[RoundRecord] = field(default_factory=list)
    quatro_pace: list[float] = field(default_factory=list)  # bots: from the partner's sign to their Quatro
    emoji_gaps: list[float] = field(default_factory=list)  # bots: from taking the channel to its first emission
    lost_calls: int = 0  # bot calls refused (not for a round already over) and never sent again that round
    random_signs: int = 0  # R12 signs drawn for teams of two bots at a table with a human (could have picked)


#: The event types the tally reads.
MEASURED = {
    ev.Emitted,
    ev.ChannelTaken,
    ev.ChannelReleased,
    ev.Dealt,
    ev.Reshuffled,
    ev.RoundOpened,
    ev.RandomSignGiven,
    ev.RoundEnded,
}


class Tally:
    """The acceptance figures of one game: how each round ended, the bots' Quatro pace from the partner's sign,
    the gap between taking the channel and emitting, the calls lost, the random signs of bot teams."""

    def __init__(self, game: Game, team_levels: Sequence[str], kinds: Sequence[str], human_seats: set[int]) -> None:
        self.game = game
        self.team_levels = team_levels
        self.kinds = kinds
        self.seats = seats = game.seat_count
        self.is_bot = [kinds[s] != NEWCOMER and s not in human_seats for s in range(seats)]
        teams = (seats_of(t, seats) for t in range(seats // 2))
        self.bot_team = [self.is_bot[a] and self.is_bot[b] for a, b in teams]
        self.human_seats = human_seats
        self.endings: list[tuple[str, str | None]] = []
        self.rounds: list[RoundRecord] = []
        self.pace: list[float] = []
        self.gaps: list[float] = []
        self.random_signs = 0
        self.lost = 0
        self.refused_calls: set[int] = set()  # seats whose call was refused and not sent again this round
        self.sign_seen: dict[int, float] = {}  # seat -> when it first emitted its team's sign this deal
        self.taken_at: dict[int, float] = {}  # seat -> when it took its channel, until its first emission
        self.opened_at = 0.0

    def event(self, e: Any, now: float) -> None:
        """One engine event of a type in :data:`MEASURED`, at ``now``."""
        kind = type(e)
        seats = self.seats
        if kind is ev.Emitted:
            if e.seat in self.taken_at and self.is_bot[e.seat]:
                self.gaps.append(now - self.taken_at.pop(e.seat))
            if e.seat not in self.sign_seen and e.emoji == self.game.teams[team_of(e.seat, seats)].sign:
                self.sign_seen[e.seat] = now
        elif kind is ev.ChannelTaken:
            self.taken_at[e.seat] = now
        elif kind is ev.ChannelReleased:
            self.taken_at.pop(e.seat, None)
        elif kind is ev.Dealt or kind is ev.Reshuffled:
            self.sign_seen.clear()
        elif kind is ev.RoundOpened:
            self.opened_at = now
        elif kind is ev.RandomSignGiven:
            if self.bot_team[e.team] and self.human_seats:
                self.random_signs += 1
        elif kind is ev.RoundEnded:
            self._round_ended(e.result, now)

    def _round_ended(self, r: Any, now: float) -> None:
        seats = self.seats
        self.lost += len(self.refused_calls)
        self.refused_calls.clear()
        self.taken_at.clear()
        if r.end.value == "void":
            self.endings.append(("void", None))
            ending = "void"
        else:
            verdict = "correct" if r.correct else "false"
            ending = f"{verdict}_{r.end.value}"
            self.endings.append((ending, self.team_levels[team_of(r.caller, seats)]))
        part = []
        for t in r.scorers:
            mine = [s for s in seats_of(t, seats) if self.kinds[s] == NEWCOMER]
            if not mine:
                continue
            if r.caller in mine or (r.end.value == "quatro" and r.correct and r.target in mine):
                part.append(t)
        self.rounds.append(RoundRecord(ending, r.caller, r.target, tuple(r.scorers), now - self.opened_at, tuple(part)))

    def call(self, who: int, kind: str, refusal: Any, now: float) -> None:
        """Seat ``who`` sent a call of ``kind`` at ``now``; the engine refused it (``refusal``) or not."""
        self.refused_calls.discard(who)
        if not self.is_bot[who]:
            return
        if refusal is not None and refusal.reason.value != "wrong_phase":
            self.refused_calls.add(who)
        elif refusal is None and kind == "call_quatro":
            mate = partner_of(who, self.seats)
            if mate in self.sign_seen:
                self.pace.append(now - self.sign_seen[mate])

    def record(self, seed: int, now: float, sent: int) -> GameRecord:
        """The game's record, once it is over (or stopped) at ``now`` after ``sent`` player messages."""
        game = self.game
        return GameRecord(
            seed,
            tuple(self.team_levels),
            game.scores(),
            tuple(game.winners),
            self.endings,
            now,
            sent,
            self.rounds,
            self.pace,
            self.gaps,
            self.lost + len(self.refused_calls),
            self.random_signs,
        )

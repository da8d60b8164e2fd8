"""A bot's calls (R22–R25): "Quatro!" on the partner's sign, "Contre!" on a team by the level's rule.

A call ends the round (R26), so it is weighed first, and only when the evidence changed or time alone changes
it. Every call pays the phone's motor costs: the button is held :data:`~.pace.CALL_HOLD` before it fires, at 6
and 8 seats a Contre then names its team in a picker, and a Quatro from a player who holds a carré too is
confirmed in the phone's R23 question. A Quatro the server refused for that reason (the bot's own exchange
completed a carré after the glance it called on) is confirmed and sent again, as a player answers the question.
Readers of R6 know that a sign from a seat seen keeping fewer than two cards of one rank (or two ranks) is
impossible, so it is never answered with a Contre.
"""

from __future__ import annotations

import random
from typing import Any

from .hands import Hands
from .levels import Judgement, Level
from .memory import INF, Memory
from .pace import CALL_HOLD, Pace
from .swaps import Exchanges


class Calls:
    """The call under the thumb, and the weighing of the next one."""

    def __init__(
        self,
        level: Level,
        rng: random.Random,
        pace: Pace,
        memory: Memory,
        hands: Hands,
        exchanges: Exchanges,
        judgement: Judgement,
    ) -> None:
        self.level = level
        self.rng = rng
        self.pace = pace
        self.memory = memory
        self.hands = hands
        self.exchanges = exchanges
        self.judgement = judgement
        self.plan: tuple[float, str, dict[str, Any]] | None = None  # a call whose button is held: (fires at, ...)
        self.decided = False  # a call went out this round
        self.guilty: dict[int, float] = {}  # team -> when its Contre is due (it looks guilty since a while)
        self._weighed = -1  # the evidence the calls were last weighed on
        self._recheck = INF  # when time alone may change that weighing

    def new_round(self) -> None:
        self.plan = None
        self.decided = False
        self.guilty = {}

    def deal(self) -> None:
        self.guilty = {}

    def confirm(self, at: float, now: float) -> None:
        """R23: our Quatro was refused because we hold a carré too (our own exchange completed it after the
        glance we called on). The phone asks; we confirm, a beat after we see the question."""
        self.decided = False
        seen = max(at, now)
        self.plan = (
            seen + self.rng.uniform(*self.level.confirm_beat) * self.pace.body,
            "call_quatro",
            {"confirmed": True},
        )
        self.hands.plan(self.plan[0])

    def act(self, now: float) -> list[dict[str, Any]] | None:
        """The call to send now (or ``[]`` while the thumb is on a button); ``None`` when no call is on its
        way, so the channel and the swaps may act."""
        plan = self.plan
        hands = self.hands
        if plan is not None:  # the thumb is on the button: nothing else until the call leaves
            if now < plan[0]:
                hands.plan(plan[0])
                return []
            self.plan = None
            self.decided = True
            return [hands.send(plan[1], now, **plan[2])]
        if not self.decided and (self.memory.evidence != self._weighed or now >= self._recheck):
            call = self.weigh(now)
            if call is not None:
                kind, fields, beat = call
                self.plan = (now + CALL_HOLD * self.pace.body + beat, kind, fields)
                hands.plan(self.plan[0])
                return []
            if self._recheck < INF:
                hands.plan(self._recheck)
        return None

    def weigh(self, now: float) -> tuple[str, dict[str, Any], float] | None:
        """The call to make now, as (kind, fields, extra motor time), or ``None``. Weighed only when the evidence
        changed or time alone changes it (``_recheck``)."""
        memory, level, hands = self.memory, self.level, self.hands
        self._weighed = memory.evidence
        self._recheck = INF
        if hands.sent and (hands.pending("call_quatro") or hands.pending("call_contre")):
            return None
        if self.judgement.wants_quatro(now):
            # R23: confirmed only when we hold one too, after the phone's question
            mine = self.exchanges.holds_carre()
            beat = self.rng.uniform(*level.confirm_beat) * self.pace.body if mine else 0.0
            return "call_quatro", {"confirmed": mine}, beat
        if level.contre_threshold is None:
            return None
        r6_aware = level.r6_aware
        if r6_aware and not memory.candidates:
            self.guilty.clear()  # R6: nobody is seen keeping two copies of one rank: no carré anywhere
            return None
        least = level.contre_threshold
        # our Quatro is coming: be surer. Asked only of a team guilty enough for the least threshold (seldom):
        # -1 ms of 57 per 8-hard-bot game (bench/bots.py)
        threshold: float | None = None
        half = memory.n // 2
        my_team = memory.seat % half
        best, accused, recheck = 0.0, None, INF
        guilt = self.judgement.seat_guilt
        # a reader of R6 weighs only the seats that could hold a carré (Memory.candidates: seen keeping two copies
        # or more of one rank, and no other rank)
        able = memory.candidates if r6_aware else memory.facts
        guilty = self.guilty
        for team in range(half):
            if team == my_team:
                continue
            if team not in able and team + half not in able:
                if guilty:
                    guilty.pop(team, None)
                continue
            # a team's guilt from its seats' (the hottest loop of a bot: 21 % of an 8-hard-bot game's CPU is here)
            p_none, until = 1.0, INF
            for seat in (team, team + half):
                if seat not in able:
                    continue
                p, u = guilt(seat, now)
                p_none *= 1.0 - p
                if u < until:
                    until = u
            p = 1.0 - p_none
            if until < recheck:
                recheck = until
            if p >= least and threshold is None:
                threshold = least + (0.25 if self.exchanges.holds_carre() else 0.0)
            if threshold is not None and p >= threshold:
                due = guilty.get(team)
                if due is None:
                    due = guilty[team] = now + self.rng.uniform(*level.guilt_wait) * self.pace.table
                if now >= due:
                    if p > best:
                        best, accused = p, team
                elif due < recheck:
                    recheck = due
            else:
                guilty.pop(team, None)
        self._recheck = recheck
        if accused is None:
            return None
        # 6 and 8 seats: the phone asks which team
        beat = self.rng.uniform(*level.picker_beat) * self.pace.body if half > 2 else 0.0
        return "call_contre", {"team": accused}, beat

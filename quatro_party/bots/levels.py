"""The three bot levels a host may seat: easy, normal and hard — each one table of knobs and one judgement.

The levels are cut on the knobs a person at the table can see and understand: **pace** (how soon it reacts,
how often it swaps), **hesitation** (how long it waits before acting on what it saw) and **memory** (how many
of each opponent's exchanges it remembers). Each level's swap rule and call rule fit in one sentence each: its
judgement's docstring says them (the rules page repeats them).

A :class:`Level` holds every duration of a level, each named with the clock it follows (:mod:`.pace`: the body's,
which never speeds up at a table people play at, or the table's). Its ``judgement`` is the level's own reading of
the table — which rank to collect, which card to give, when the partner's sign is a carré, how guilty a seat
looks — a small object that reads the bot's :class:`~.memory.Memory` and changes nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from .memory import INF, Memory
from .pace import Pace

Span = tuple[float, float]


class Judgement(Protocol):
    """A level's reading of the table (pure: it reads the memory, changes nothing)."""

    def rank_score(
        self, rank: str, mine: dict[str, int], centre: dict[str, int], opp: dict[str, int], mate: dict[str, int]
    ) -> float:
        """How promising collecting ``rank`` is."""

    def give_score(self, rank: str, mine: dict[str, int], opp: dict[str, int], mate: dict[str, int]) -> float:
        """How much we would rather keep a card of ``rank`` (lowest is given away)."""

    def wants_quatro(self, now: float) -> bool:
        """Does the partner hold a carré, by what we perceived (R22)?"""

    def seat_guilt(self, seat: int, now: float) -> tuple[float, float]:
        """How likely ``seat`` holds a carré (0..1), and until when that holds if no evidence comes."""


@dataclass(frozen=True)
class Level:
    """Every knob of a level. Durations are in seconds; "body" ones never speed up at a table people play at,
    "table" ones follow the table's time scale (:mod:`.pace`)."""

    name: str
    #: body: perception delay, a log-normal law of this (median, shape), never under MIN_REACTION; or uniform in
    #: ``reaction_span`` when given
    reaction: Span
    #: body: after a glance, the next one comes no sooner than this (uniform range): changes in between are seen
    #: together at the next glance
    look_gap: Span
    #: how many of each other seat's latest exchanges it remembers (``None``: all of the deal)
    memory: int | None
    #: table: after the swap cooldown, before the next exchange (uniform range): the level's pace
    swap_pace: Span
    #: table: without a useful exchange this long, collect something else (unblocks the table)
    stuck_after: float
    #: track public swaps to avoid ranks other seats are hoarding
    tracks_cards: bool
    #: body: the second tap that chooses the emoji after taking the channel (never under MIN_EMOJI_BEAT), the
    #: team picker of a Contre at 6 and 8 seats, the R23 confirmation (uniform ranges)
    emoji_beat: Span
    picker_beat: Span
    confirm_beat: Span
    #: table: between seeing one's own carré and taking the channel for the sign (uniform range)
    sign_hesitation: Span
    #: Contre a team once it has looked guilty this long (table, uniform range), at a belief of at least
    #: ``contre_threshold`` (``None``: never Contre)
    contre_threshold: float | None
    guilt_wait: Span
    #: the reader knows R6 (no carré without two copies taken and kept, nor with two ranks kept)
    r6_aware: bool
    #: decoys: chance at each credible moment (at 4 seats, at 6 and 8), at most so many per deal, held this long
    #: (table, uniform range); a naive bluffer bluffs at its first kept card, before any carré is possible (R6)
    decoy_chance: float
    decoy_chance_big: float
    decoys_per_deal: int
    decoy_hold: Span
    naive_bluff: bool
    judgement: Callable[[Memory, Pace], Judgement]
    reaction_span: Span | None = None


def base_rank_score(
    rank: str, mine: dict[str, int], centre: dict[str, int], opp: dict[str, int], mate: dict[str, int]
) -> float:
    """Collect what we hold most of, and what the centre offers."""
    return mine.get(rank, 0) + 0.5 * centre.get(rank, 0)


def base_give_score(rank: str, mine: dict[str, int], opp: dict[str, int], mate: dict[str, int]) -> float:
    """Give away what we hold least of."""
    return float(mine.get(rank, 0))


class EasyJudgement:
    """Easy. Swap rule: every 2.1 to 3 seconds, collect the rank you hold most of, taking any copy the centre
    shows. Call rule: call Quatro when your partner shows your sign, and Contre only on a team whose player has
    shown the same emoji twice in a row (kept it on its channel for five seconds)."""

    #: Contre once an emoji was emitted this many times in a row (R18: every 5 s while the channel is held).
    repeats = 2

    def __init__(self, memory: Memory, pace: Pace) -> None:
        self.memory = memory
        self.rank_score = base_rank_score
        self.give_score = base_give_score

    def wants_quatro(self, now: float) -> bool:
        return self.memory.partner_signalled()

    def seat_guilt(self, seat: int, now: float) -> tuple[float, float]:
        memory = self.memory
        emoji = memory.holds_fresh(seat)
        f = memory.facts.get(seat)
        if emoji is None or f is None:
            return 0.0, INF
        run = 0  # the same emoji, emitted again and again (R18: every 5 s while held)
        for t, e in reversed(f.emitted):
            if t < memory.deal_at or e != emoji:
                break
            run += 1
        return (1.0 if run >= self.repeats else 0.0), INF


class NormalJudgement:
    """Normal. Swap rule: every 3.2 to 4.2 seconds, collect the rank you hold most of, unless other seats are
    seen keeping it. Call rule: call Quatro when your partner shows your sign, and Contre on a team that holds
    its channel on a fresh emoji while one of its players is seen keeping two or more cards of one rank, once it
    has looked so for 2.8 to 4 seconds. A human partner's sign is not answered when the cards that partner keeps
    make a carré impossible (R6, R14)."""

    def __init__(self, memory: Memory, pace: Pace) -> None:
        self.memory = memory
        self.give_score = base_give_score

    def rank_score(self, rank, mine, centre, opp, mate) -> float:
        return mine.get(rank, 0) + 0.5 * centre.get(rank, 0) - 0.6 * (opp.get(rank, 0) + mate.get(rank, 0))

    def wants_quatro(self, now: float) -> bool:
        memory = self.memory
        if not memory.partner_signalled():
            return False
        partner = memory.partner()
        return not memory.is_human(partner) or memory.carre_odds(partner)[0] > 0.0

    def seat_guilt(self, seat: int, now: float) -> tuple[float, float]:
        f = self.memory.facts.get(seat)
        if f is None or f.mixed or len(f.known) < 2:
            return 0.0, INF  # R6: no carré possible, whatever it shows
        if len(f.known) == 4:
            return 1.0, INF  # every card of it was seen taken
        return (0.8 if self.memory.holds_fresh(seat) is not None else 0.0), INF


#: (copies seen kept, hidden copies of their rank, hidden cards in all) -> HardJudgement's carre_odds and the logit
#: of its belief from the cards (see seat_guilt): the same for every seat and bot, a few hundred entries.
_CARD_ODDS: dict[tuple[int, int, int], tuple[float, float]] = {}


class HardJudgement:
    """Hard. Swap rule: every 3.7 to 4.5 seconds, collect the rank with the most copies within reach (yours plus
    the centre's) that no opponent is keeping, and rather not hand an opponent the rank it keeps. Call rule: call
    Quatro on your partner's sign or when the cards your partner keeps prove a carré, and Contre on a team once
    the evidence (cards kept, a stop in swapping, a fresh emoji on a held channel, how each player bluffed in past
    rounds) has made its carré at least 60 % likely for 2.8 to 3.8 seconds. An emoji a team showed and released
    unanswered is burnt (a known decoy)."""

    #: How much it would rather keep a card of a rank an opponent is seen keeping (per copy kept, up to two).
    deny = 0.4
    #: Prior probability that a fresh emoji is a sign, before any reveal taught us a seat's style.
    sign_prior = 0.6
    #: Seconds (table) a collector has stood still before its stop counts as evidence, and the steps after that.
    idle_steps = (4.0, 6.0, 8.0)

    def __init__(self, memory: Memory, pace: Pace) -> None:
        self.memory = memory
        self.pace = pace

    def rank_score(self, rank, mine, centre, opp, mate) -> float:
        return mine.get(rank, 0) + 0.6 * centre.get(rank, 0) - 0.9 * opp.get(rank, 0) - 0.6 * mate.get(rank, 0)

    def give_score(self, rank, mine, opp, mate) -> float:
        return mine.get(rank, 0) + self.deny * min(opp.get(rank, 0), 2) - 0.3 * min(mate.get(rank, 0), 2)

    def wants_quatro(self, now: float) -> bool:
        memory = self.memory
        partner = memory.partner()
        f = memory.facts.get(partner)
        if f is None:
            return False  # nothing seen of the partner this deal: no odds, no sign
        # carre_odds is 0 unless the partner is seen keeping two copies of one rank (R6): asked only then
        if not f.mixed and len(f.known) >= 2 and memory.carre_odds(partner)[0] >= 0.999:
            return True  # every card of the partner's carré was seen taken
        if not f.emitted:
            return False  # no emission: no sign (partner_signalled)
        if not memory.partner_signalled():
            return False
        return not memory.is_human(partner) or memory.carre_odds(partner)[0] > 0.0

    def seat_guilt(self, seat: int, now: float) -> tuple[float, float]:
        memory = self.memory
        f = memory.facts.get(seat)
        if f is None or f.mixed or len(f.known) < 2:
            return 0.0, INF  # R6: no carré possible, whatever it shows
        # what depends on the cards only (carre_odds and its logit) is a function of three small counts: worked
        # out once for every seat and bot (-1.7 ms of 55 per 8-hard-bot game, bench/bots.py: the pool changes with
        # nearly every exchange, so a cache per seat missed half the time)
        rank = next(iter(f.known.values()))
        pool = memory.pool_cache  # unknown_pool(), its cache read inline
        hidden = pool[1] if pool is not None and pool[0] == memory.deal_version else memory.unknown_pool()
        key = (len(f.known), hidden.get(rank, 0), memory.pool_total)
        odds = _CARD_ODDS.get(key)
        if odds is None:
            p0, _ = memory.carre_odds(seat)
            odds = _CARD_ODDS[key] = (p0, math.log(max(p0, 1e-6) / max(1.0 - p0, 1e-6)) + 0.5 * len(f.known))
        p0, logit = odds
        if p0 >= 0.999:
            return 1.0, INF
        until = INF
        if not f.put.get(rank):
            # a collector of `rank`: it gave none away; once complete, it stops swapping
            scale = self.pace.table
            idle = (now - (f.last_swap if f.last_swap is not None else memory.deal_at)) / scale
            steps = 0
            for step in self.idle_steps:
                if idle < step:
                    until = now + (step - idle) * scale
                    break
                steps += 1
            if steps:  # adding 0.0 changes nothing: the centre is only looked at for a stop long enough
                logit += 1.2 * steps * (1.0 if rank in memory.centre_ranks() else 0.4)
        p_cards = 1.0 / (1.0 + math.exp(-logit))
        # holds_fresh and team_of, inlined: a hard bot weighs its calls at nearly every look
        channel = memory.perceived["seats"][seat]["channel"]
        emoji = channel.get("emoji")
        if emoji is None or not channel.get("held"):
            return p_cards, until
        team = seat % (memory.n // 2)
        if emoji == memory.last_signs.get(team) or (team, emoji) in memory.burnt:
            return p_cards, until
        style = memory.style.get(seat)
        trust = style.trust(self.sign_prior) if style else self.sign_prior
        p_emit = trust * min(1.0, 0.4 + 10 * p0)
        return 1.0 - (1.0 - p_cards) * (1.0 - p_emit), until


#: Easy: a first-timer's pace, slower to show its sign, and not an open book. It reacts in about 1.8 s, shows its
#: sign after a visible hesitation (0.45–2.3 s), and in about half of the deals (a tenth at 6 and 8 seats) bluffs
#: naively: a decoy held for two emissions right after its first kept card, before any carré is possible (R6). A
#: careful reader ignores it; a first-timer may fall for it.
EASY = Level(
    name="easy",
    reaction=(1.8, 0.25),
    look_gap=(1.0, 1.8),
    memory=None,
    # its slow eyes and its bluffs' stillness keep it slower than a newcomer (exchanges 4.5-5 s apart in median,
    # a newcomer's 3.8-3.9 s, in the ladder's easy cells); at 0.6-1.8 s a newcomer with an easy partner won 77 %
    # against two easy bots (400 games, target 65-75 %), now 71.5 %
    swap_pace=(0.1, 1.0),
    stuck_after=7.0,
    tracks_cards=False,
    emoji_beat=(0.7, 1.4),
    picker_beat=(0.8, 1.5),
    confirm_beat=(0.8, 1.5),
    sign_hesitation=(0.45, 2.3),
    contre_threshold=1.0,
    guilt_wait=(0.0, 0.3),
    r6_aware=False,
    decoy_chance=0.5,
    decoy_chance_big=0.1,
    decoys_per_deal=1,
    decoy_hold=(6.0, 9.0),
    naive_bluff=True,
    judgement=EasyJudgement,
)

#: Normal: human pace, and it leaves a partner the race. It reacts in about 1.45 s, reads emojis at face value (no
#: memory of who bluffed), remembers each opponent's last three exchanges, and bluffs in most deals, at a credible
#: moment (R6).
NORMAL = Level(
    name="normal",
    reaction=(1.45, 0.22),
    look_gap=(0.8, 1.3),
    memory=3,
    swap_pace=(1.2, 2.2),
    stuck_after=10.0,
    tracks_cards=True,
    emoji_beat=(0.5, 1.1),
    picker_beat=(0.6, 1.2),
    confirm_beat=(0.6, 1.1),
    sign_hesitation=(0.2, 0.8),
    contre_threshold=0.6,
    guilt_wait=(2.8, 4.0),
    r6_aware=True,
    decoy_chance=0.6,
    decoy_chance_big=0.6,
    decoys_per_deal=1,
    decoy_hold=(2.5, 4.5),
    naive_bluff=False,
    judgement=NormalJudgement,
)

#: Hard: full inference at a human pace, with a bounded memory. It reacts in about 1.25 s, remembers each
#: opponent's last four exchanges, learns every seat's bluffing at each reveal (R26), burns an emoji a team showed
#: and released unanswered (a known decoy), and bluffs at credible moments (R6), standing still while it does, as
#: a carré holder must (less often at 6 and 8 seats, where more opponents watch).
HARD = Level(
    name="hard",
    reaction=(1.25, 0.18),
    look_gap=(0.6, 1.0),
    memory=4,
    # its pace is what a newcomer can match: at 1.3-2.1 s a newcomer with a hard partner won 22.8 % of games
    # against two hard bots (400 games, bench/ladder.py), at 1.7-2.5 s 29.2 % (target 25-35 %)
    swap_pace=(1.7, 2.5),
    stuck_after=8.0,
    tracks_cards=True,
    emoji_beat=(0.4, 0.8),
    picker_beat=(0.5, 0.9),
    confirm_beat=(0.5, 0.9),
    sign_hesitation=(0.1, 0.4),
    contre_threshold=0.6,
    guilt_wait=(2.8, 3.8),
    r6_aware=True,
    decoy_chance=0.8,
    decoy_chance_big=0.4,  # more opponents watch, and each bluff costs the exchanges it stands still for
    decoys_per_deal=2,
    decoy_hold=(2.5, 4.0),
    naive_bluff=False,
    judgement=HardJudgement,
)

#: The levels a host may choose, weakest first.
LEVELS: dict[str, Level] = {level.name: level for level in (EASY, NORMAL, HARD)}

"""A bot's exchanges with the centre (R14–R16): those it made, and the levels' rule for the next one.

:class:`Exchanges` knows our exchanges in flight: a player knows the cards they just swapped before the table
shows it, so decisions read the hand and centre as those exchanges left them (:meth:`Exchanges.own_table`), not
only as last perceived. :class:`Collector` is the levels' rule: collect one rank, one exchange per cooldown
(R15) plus the level's pace, scored by the level's judgement.
"""

from __future__ import annotations

import random
from typing import Any

from .channel import Channel
from .hands import Hands
from .levels import Judgement, Level
from .memory import INF, Memory
from .pace import Pace

Cards = list[dict[str, Any]]


class Exchanges:
    """Our exchanges sent and not refused, and when the next one may go."""

    def __init__(self, memory: Memory, hands: Hands) -> None:
        self.memory = memory
        self.hands = hands
        self.swap_at = -INF  # our pace: no exchange before this (the cooldown is the hands' swap_block_until)
        # by id: (sent at, card given, card taken, place)
        self.moves: dict[str, tuple[float, int, dict[str, Any], int]] = {}

    def deal(self) -> None:
        """New hands: nothing of ours is in flight any more, and we may exchange at once."""
        self.moves = {}
        self.swap_at = -INF

    def refused(self, ref: str, kind: Any, reason: str, at: float) -> None:
        """An action of ours was refused: a refused exchange never happened."""
        self.moves.pop(ref, None)
        if kind == "swap" and reason in ("card_taken", "not_your_card", "no_such_place"):
            self.swap_at = min(self.swap_at, at)  # R16: costs nothing, look again

    def sight(self, now: float) -> tuple[Cards, Cards] | None:
        """Our hand and the centre (:meth:`own_table`) once the cooldown and our pace allow an exchange, else
        ``None`` (a wake is planned for the moment they will)."""
        ready = max(self.swap_at, self.hands.swap_block_until)
        if now < ready:
            self.hands.plan(ready)
            return None
        hand, centre = self.own_table()
        if not hand or not centre:
            return None
        return hand, centre

    def own_table(self) -> tuple[Cards, Cards]:
        """Our hand and the centre as our own exchanges since the perceived view left them."""
        view = self.memory.perceived
        hand, centre = view["you"].get("hand") or [], view.get("centre") or []
        moves = self.moves
        if not moves:
            return hand, centre
        seen_at = self.memory.view_at
        hand, centre = list(hand), list(centre)
        for ref, (at, give, took, place) in list(moves.items()):
            if at < seen_at:
                del moves[ref]  # the view shows it already (or it was refused, and the view shows that)
                continue
            # a view of the very instant we swapped may predate the swap (it was sent for an earlier change of
            # that instant): the move is applied below only if the view still shows the card we gave
            for i, c in enumerate(hand):
                if c["id"] == give:
                    if place < len(centre) and centre[place]["id"] == took["id"]:
                        centre[place] = c
                    hand[i] = took
                    break
        return hand, centre

    def holds_carre(self) -> bool:
        """Do we hold a carré? A player knows the exchange they just made completed it, before the table shows it."""
        return bool(self.memory.you.get("has_carre")) or (bool(self.moves) and self.own_carre())

    def own_carre(self) -> bool:
        """Do the cards we know we hold make a carré (R7)?"""
        hand, _ = self.own_table()
        if len(hand) != 4:
            return False
        rank = hand[0]["rank"]
        return hand[1]["rank"] == rank and hand[2]["rank"] == rank and hand[3]["rank"] == rank

    def send(self, now: float, give: dict[str, Any], place: int, took: dict[str, Any]) -> dict[str, Any]:
        """The exchange message, remembered as ours until the view shows it (or it is refused)."""
        msg = self.hands.send("swap", now, card=give["id"], place=place, expected=took["id"])
        self.moves[msg["id"]] = (now, give["id"], took, place)
        return msg


class Collector:
    """The levels' swap rule: collect the best-scored rank, one exchange per cooldown plus the level's pace."""

    def __init__(
        self,
        level: Level,
        rng: random.Random,
        pace: Pace,
        memory: Memory,
        hands: Hands,
        exchanges: Exchanges,
        channel: Channel,
        judgement: Judgement,
    ) -> None:
        self.level = level
        self.rng = rng
        self.pace = pace
        self.memory = memory
        self.hands = hands
        self.exchanges = exchanges
        self.channel = channel
        self.judgement = judgement
        self.target: str | None = None  # the rank we collect
        self._waiting: tuple[float, tuple] | None = None  # (until, what was in sight): see swap()

    def forget_plan(self) -> None:
        """A new round or new hands: collect afresh."""
        self.target = None
        self._waiting = None

    def own_swap(self) -> None:
        """Our own exchange was seen: what is in sight changed."""
        self._waiting = None

    def swap(self, now: float) -> list[dict[str, Any]]:
        memory, hands, channel = self.memory, self.hands, self.channel
        if memory.you.get("has_carre") or hands.pending("swap"):
            return []
        if channel.emoji_plan is not None:
            return []  # the thumb is on the emoji tray
        if channel.release_at is not None:
            hands.plan(channel.release_at)  # a carré holder never swaps: neither does a convincing bluff
            return []
        table = self.exchanges.sight(now)
        if table is None:
            return []
        hand, centre = table
        sight = None  # what is in sight: the card ids of hand and centre, with the facts seen
        waiting = self._waiting
        if waiting is not None and now < waiting[0]:
            sight = ([c["id"] for c in hand], [c["id"] for c in centre], memory.facts_gen)
            if sight == waiting[1]:
                # Nothing for us in the centre last time: with the same cards in sight and the same facts, the
                # same target wins again (it holds the 0.3 bonus now), so the same wait follows, without dice.
                hands.plan(waiting[0])
                return []
        self._waiting = None
        # counts and scores in plain loops, not helpers and a closure: -1 ms of 58 per 8-hard-bot game
        # (bench/bots.py)
        mine: dict[str, int] = {}
        for c in hand:
            r = c["rank"]
            mine[r] = mine.get(r, 0) + 1
        in_centre: dict[str, int] = {}
        for c in centre:
            r = c["rank"]
            in_centre[r] = in_centre.get(r, 0) + 1
        opp, mate = memory.others_known() if self.level.tracks_cards else ({}, {})
        ranks = sorted(mine.keys() | in_centre.keys())
        self.rng.shuffle(ranks)  # ties broken by our own dice, not by rank order
        rank_score = self.judgement.rank_score
        target = self.target
        base: dict[str, float] = {}
        best = -INF
        for r in ranks:  # max(ranks, key=score): the first best wins; the target of the moment is favoured
            base[r] = v = rank_score(r, mine, in_centre, opp, mate)
            v += 0.3 if r == target else 0.0
            if v > best:
                best, want = v, r
        self.target = want
        if not in_centre.get(want):
            # nothing for us in the centre: after a while collect what the centre offers (no dead tables)
            stuck = self.level.stuck_after * self.pace.table
            last = memory.last_my_swap
            if now - last < stuck:
                until = last + stuck
                if sight is None:
                    sight = ([c["id"] for c in hand], [c["id"] for c in centre], memory.facts_gen)
                self._waiting = (until, sight)
                hands.plan(until)
                return []
            offered = [r for r in ranks if in_centre.get(r)]
            if not offered:
                return []
            want = max(offered, key=base.__getitem__)  # the target is not offered: no bonus to add
        givable = [c for c in hand if c["rank"] != want]
        if not givable:
            return []
        self.rng.shuffle(givable)
        give_score = self.judgement.give_score
        give = min(givable, key=lambda c: give_score(c["rank"], mine, opp, mate))
        places = [i for i, c in enumerate(centre) if c["rank"] == want]
        place = self.rng.choice(places)
        cooldown = float(memory.perceived["timing"]["swap_cooldown"])
        exchanges = self.exchanges
        exchanges.swap_at = now + cooldown + self.rng.uniform(*self.level.swap_pace) * self.pace.table
        hands.plan(exchanges.swap_at)
        return [exchanges.send(now, give, place, centre[place])]

"""A stand-in for a first-time player, for the simulator only: the yardstick the bot levels are calibrated on.

It is not a level a host can seat: the simulator puts it on a *human* seat (``--teams newcomer+easy,easy``), so
it plays under a human's rules (it says "ready", may ask for a reshuffle and answers votes) and the bots
around it treat it as a human. Like the bots it sees only its seat's messages and acts through the phone's
parse path, paying the phone's motor costs (the hold before a call, the second tap that chooses an emoji, the
team picker at 6 and 8 seats, the R23 question). It is composed like a bot (:func:`make_newcomer`), with its own
swap rule, its own sign phase and a reshuffler.

Its rules, all of them:

- it reacts in 1.2–2.5 s and swaps greedily toward its most common rank every 2.5–4 s;
- with a carré it emits its true sign;
- it calls Quatro when its partner emits the team sign;
- it calls Contre on an opposing team when one of that team's seats emitted the same emoji twice while it
  seemed to be collecting;
- it asks for a reshuffle when nobody has swapped for ~10 s.

Details that keep it simple and stable: "most common rank" breaks ties toward a rank the centre shows, and
it swaps only when the centre shows that rank (giving a card of its least common rank); "seemed to be
collecting" means every card it was seen taking and keeping is of one rank; "~10 s" is drawn in 9–11 s. In
the sign phase it picks a sign (unless its partner did) and says ready; it accepts every reshuffle vote.
"""

from __future__ import annotations

import random
from typing import Any

from .bot import Bot, Senses
from .calls import Calls
from .channel import Channel
from .hands import Hands
from .levels import Level, base_give_score, base_rank_score
from .memory import INF, Memory
from .pace import Pace
from .policy import Messages, Policy, fresh_sign
from .swaps import Exchanges

#: body: from picking the sign to pressing "ready" (uniform range, seconds).
READY_BEAT = (0.6, 1.5)
#: table: seconds between two of its exchanges (uniform range).
SWAP_EVERY = (2.5, 4.0)
#: table: nobody swapped for this long (uniform range, seconds): it asks for a reshuffle.
STUCK_FOR = (9.0, 11.0)


class NewcomerJudgement:
    """Quatro on the partner's sign; Contre on a seat that emitted one emoji twice while it seemed to collect."""

    def __init__(self, memory: Memory, pace: Pace) -> None:
        self.memory = memory
        self.rank_score = base_rank_score
        self.give_score = base_give_score

    def wants_quatro(self, now: float) -> bool:
        return self.memory.partner_signalled()

    def seat_guilt(self, seat: int, now: float) -> tuple[float, float]:
        memory = self.memory
        f = memory.facts.get(seat)
        if f is None or not f.known or f.mixed:
            return 0.0, INF  # not collecting one rank, as far as it saw
        counts: dict[str, int] = {}
        for t, e in f.emitted:
            if t >= memory.deal_at:
                counts[e] = counts.get(e, 0) + 1
        return (1.0 if counts and max(counts.values()) >= 2 else 0.0), INF


NEWCOMER = Level(
    name="newcomer",
    reaction=(1.2, 0.25),  # unused: its reaction is uniform in reaction_span
    reaction_span=(1.2, 2.5),
    look_gap=(0.5, 1.0),
    memory=None,
    swap_pace=(0.5, 1.5),  # unused: it swaps every SWAP_EVERY
    stuck_after=8.0,  # unused: it waits for its rank
    tracks_cards=False,
    emoji_beat=(0.6, 1.2),
    picker_beat=(0.7, 1.4),
    confirm_beat=(0.8, 1.5),
    sign_hesitation=(0.0, 0.0),
    contre_threshold=1.0,
    guilt_wait=(0.0, 0.0),
    r6_aware=False,
    decoy_chance=0.0,
    decoy_chance_big=0.0,
    decoys_per_deal=1,
    decoy_hold=(2.5, 4.0),
    naive_bluff=False,
    judgement=NewcomerJudgement,
)


def counts(cards: list[dict[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in cards:
        out[c["rank"]] = out.get(c["rank"], 0) + 1
    return out


class GreedyCollector:
    """Toward the most common rank in hand, only when the centre shows it, every SWAP_EVERY."""

    def __init__(
        self, rng: random.Random, pace: Pace, memory: Memory, hands: Hands, exchanges: Exchanges, channel: Channel
    ) -> None:
        self.rng = rng
        self.pace = pace
        self.memory = memory
        self.hands = hands
        self.exchanges = exchanges
        self.channel = channel

    def forget_plan(self) -> None:
        """It keeps no plan between exchanges."""

    def own_swap(self) -> None:
        """It keeps no plan between exchanges."""

    def swap(self, now: float) -> Messages:
        if self.memory.you.get("has_carre") or self.hands.pending("swap") or self.channel.emoji_plan is not None:
            return []
        exchanges = self.exchanges
        table = exchanges.sight(now)
        if table is None:
            return []
        hand, centre = table
        mine, offered = counts(hand), counts(centre)
        top = max(mine.values())
        best = [r for r in mine if mine[r] == top]
        shown = [r for r in best if offered.get(r)]
        if not shown:
            return []  # waits for the centre to show its rank (a new look comes with every change)
        rng = self.rng
        want = rng.choice(sorted(shown))
        give = min((c for c in hand if c["rank"] != want), key=lambda c: (mine[c["rank"]], rng.random()))
        place = rng.choice([i for i, c in enumerate(centre) if c["rank"] == want])
        exchanges.swap_at = now + rng.uniform(*SWAP_EVERY) * self.pace.table
        self.hands.plan(exchanges.swap_at)
        return [exchanges.send(now, give, place, centre[place])]


class NewcomerSigner:
    """It picks a sign (unless its partner did), then says ready a tap later."""

    def __init__(self, rng: random.Random, pace: Pace, memory: Memory, hands: Hands) -> None:
        self.rng = rng
        self.pace = pace
        self.memory = memory
        self.hands = hands
        self.picked_in = -1
        self.readied_in = -1
        self.ready_at = -INF

    def sign_phase(self, now: float) -> Messages:
        memory, hands = self.memory, self.hands
        you = memory.you
        if you.get("sign") is None and self.picked_in != memory.round:
            self.picked_in = memory.round
            self.ready_at = now + self.rng.uniform(*READY_BEAT) * self.pace.body  # then the "ready" button
            hands.plan(self.ready_at)
            return [hands.send("pick_sign", now, sign=fresh_sign(self.rng, you.get("last_sign")))]
        if self.readied_in != memory.round and not memory.perceived["seats"][memory.seat]["ready"]:
            if self.picked_in == memory.round and now < self.ready_at:
                hands.plan(self.ready_at)
                return []
            self.readied_in = memory.round
            return [hands.send("ready", now)]
        return []


class Reshuffler:
    """R27–R28: ask when the table is stuck; accept every vote it is asked in."""

    def __init__(self, rng: random.Random, pace: Pace, memory: Memory, hands: Hands) -> None:
        self.rng = rng
        self.pace = pace
        self.memory = memory
        self.hands = hands
        self.asked_in = -1
        self.voted: set[Any] = set()
        self.patience = self._draw_patience()

    def _draw_patience(self) -> float:
        return self.rng.uniform(*STUCK_FOR) * self.pace.table

    def deal(self) -> None:
        self.patience = self._draw_patience()

    def act(self, now: float) -> Messages:
        memory, hands = self.memory, self.hands
        assert memory.view is not None
        state = memory.view.get("reshuffle") or {}
        vote = state.get("vote")
        if vote is not None:
            key = (memory.round, vote.get("requester"), memory.last_swap_seen)
            if memory.you.get("voter") and key not in self.voted:
                self.voted.add(key)
                return [hands.send("answer_vote", now, accept=True)]
            return []
        if state.get("done") or self.asked_in == memory.round or state.get("next_vote_in"):
            return []
        quiet_until = memory.last_swap_seen + self.patience
        if now < quiet_until:
            hands.plan(quiet_until)
            return []
        self.asked_in = memory.round
        return [hands.send("request_reshuffle", now)]


def make_newcomer(seat: int, rng: random.Random, *, human_pace: bool = True) -> Bot:
    """The scripted first-time player for ``seat``, drawing all its dice from ``rng`` (``human_pace``: as
    :func:`~quatro_party.bots.make_bot`)."""
    level = NEWCOMER
    senses = Senses(seat, rng, level, human_pace)
    pace, memory, hands = senses.pace, senses.memory, senses.hands
    judgement = level.judgement(memory, pace)
    exchanges = Exchanges(memory, hands)
    channel = Channel(level, rng, pace, memory, hands)
    calls = Calls(level, rng, pace, memory, hands, exchanges, judgement)
    policy = Policy(
        memory,
        hands,
        exchanges,
        calls,
        channel,
        GreedyCollector(rng, pace, memory, hands, exchanges, channel),
        NewcomerSigner(rng, pace, memory, hands),
        Reshuffler(rng, pace, memory, hands),
    )
    return Bot(seat, level.name, senses, policy)

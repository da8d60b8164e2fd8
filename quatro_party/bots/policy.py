"""What a bot does with what it perceived, in the order a careful player thinks.

1. **Calls** (:mod:`.calls`): "Quatro!" when the partner shows the team sign (R22), "Contre!" by the level's
   rule (R24). A call ends the round (R26), so it comes first.
2. **Channel** (:mod:`.channel`): the true sign with a carré, decoys at credible moments (R17–R20).
3. **Swaps** (:mod:`.swaps`): collect one rank (R14–R16), one exchange per cooldown (R15) plus the level's pace.

Never: vote or ask for a reshuffle (R30), pick the sign before a human partner (R13). Two bot partners pick
their sign themselves (both try at once: the first pick fixes it, R8), whenever the sign phase leaves them the
time. (The simulator's scripted newcomer, on a human seat, composes its own signer, collector and a reshuffler:
:mod:`.newcomer`.)
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from ..engine.rules import SIGNS
from .calls import Calls
from .channel import Channel
from .hands import Hands
from .memory import Memory
from .swaps import Exchanges

Messages = list[dict[str, Any]]


def fresh_sign(rng: random.Random, last: str | None) -> str:
    """R8, R10: a sign for the team, never last round's."""
    return rng.choice([s for s in SIGNS if s != last])


class Signer(Protocol):
    """Who picks the team's sign in the sign phase, and how."""

    def sign_phase(self, now: float) -> Messages:
        """What to send in the sign phase now."""


class Collecting(Protocol):
    """A swap rule: the next exchange, and what makes it collect afresh."""

    def swap(self, now: float) -> Messages:
        """The exchange to send now, if any (a wake is planned for the next one)."""

    def forget_plan(self) -> None:
        """A new round or new hands."""

    def own_swap(self) -> None:
        """Our own exchange was seen."""


class Extra(Protocol):
    """A player's own extra move in play (the newcomer's reshuffle requests and votes)."""

    def act(self, now: float) -> Messages:
        """What to send now."""

    def deal(self) -> None:
        """New hands were dealt."""


class BotSigner:
    """R13: a bot picks only when its partner is a bot too. Both partners pick as soon as they see the sign phase
    (a human at the table may be ready quickly): the first pick fixes the sign (R8), the other is refused."""

    def __init__(self, rng: random.Random, memory: Memory, hands: Hands) -> None:
        self.rng = rng
        self.memory = memory
        self.hands = hands
        self.picked_in = -1  # the round we picked in

    def sign_phase(self, now: float) -> Messages:
        memory = self.memory
        you = memory.you
        if you.get("sign") is not None or memory.is_human(memory.partner()) or self.picked_in == memory.round:
            return []
        self.picked_in = memory.round  # once a round: a refusal means the partner (or R12) settled it
        return [self.hands.send("pick_sign", now, sign=fresh_sign(self.rng, you.get("last_sign")))]


class Policy:
    """A bot's decisions: the calls, the channel, the swaps and the sign, from the perceived view."""

    def __init__(
        self,
        memory: Memory,
        hands: Hands,
        exchanges: Exchanges,
        calls: Calls,
        channel: Channel,
        collector: Collecting,
        signer: Signer,
        extra: Extra | None = None,
    ) -> None:
        self.memory = memory
        self.hands = hands
        self.exchanges = exchanges
        self.calls = calls
        self.channel = channel
        self.collector = collector
        self.signer = signer
        self.extra = extra

    # --- what was perceived -------------------------------------------------------------

    def new_round(self) -> None:
        """A new round (sign phase) began."""
        self.collector.forget_plan()
        self.channel.new_round()
        self.calls.new_round()

    def heard(self, event: dict[str, Any], at: float) -> None:
        """An event the memory passed on (``Memory.read``): our own exchange, or new hands."""
        if event["type"] == "swapped":
            self.collector.own_swap()
            self.channel.own_swap(event["took"]["rank"], at)
            return
        self.exchanges.deal()
        self.collector.forget_plan()
        self.channel.deal()
        self.calls.deal()
        if self.extra is not None:
            self.extra.deal()

    def refused(self, sent: dict[str, Any], reason: str, at: float, now: float) -> None:
        """An action of ours (``sent``) was refused at ``at``, perceived at ``now``."""
        kind = sent.get("type")
        self.exchanges.refused(str(sent.get("id")), kind, reason, at)
        if kind == "call_quatro" and reason == "confirm_own_carre":
            self.calls.confirm(at, now)

    # --- the decision -------------------------------------------------------------------

    def decide(self, now: float) -> Messages:
        """What to send now, from the last view perceived."""
        view = self.memory.view
        if view is None:
            return []
        phase = view["phase"]
        if phase == "sign":
            return self.signer.sign_phase(now)
        if phase != "play":
            return []
        calls = self.calls
        if not view["you"].get("hand"):
            out: Messages = []
        else:
            act = calls.act(now)
            out = self._play(now) if act is None else act
        extra = self.extra
        if extra is None or calls.plan is not None or calls.decided:
            return out
        return out + extra.act(now)

    def _play(self, now: float) -> Messages:
        """The channel, then the swaps (no call under the thumb)."""
        channel, hands = self.channel, self.hands
        out = channel.act(now)
        swap_at = self.exchanges.swap_at
        ready = swap_at if swap_at > hands.swap_block_until else hands.swap_block_until
        if now < ready and channel.emoji_plan is None and channel.release_at is None:
            if not self.memory.you.get("has_carre") and not hands.pending("swap"):
                hands.plan(ready)  # what the swap rule would do: wait for the cooldown and our pace
            return out
        return out + self.collector.swap(now)

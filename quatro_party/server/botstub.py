"""A trivial stand-in bot: a simple, predictable player for server tests, and the table's fallback when a
level's bot cannot be made (a bug must not leave a seat that never plays).

It speaks the bot interface the table expects (``observe`` / ``next_wake`` /
``wake``) and plays the phone protocol: ready in the sign phase, then one greedy
swap every couple of seconds toward the rank it holds most of. It never calls.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ..protocol import action_message


class StubBot:
    """Greedy swapper: collects the rank it holds most of, one swap per cooldown (plus a human-ish delay)."""

    def __init__(self, seat: int, level: str, rng: random.Random) -> None:
        self.seat, self.level, self.rng = seat, level, rng
        self.view: dict[str, Any] | None = None
        self.wake_at: float | None = None

    def observe(self, message: dict[str, Any], now: float) -> None:
        if message.get("type") == "state":
            self.view = message["view"]
            if self.view.get("phase") == "play" and self.wake_at is None:
                you = self.view.get("you") or {}
                self.wake_at = now + max(you.get("swap_wait") or 0.0, 0.0) + self.rng.uniform(0.8, 1.6)

    def next_wake(self) -> float | None:
        return self.wake_at

    def wake(self, now: float) -> list[dict[str, Any]]:
        self.wake_at = None
        view = self.view
        if not view or view.get("phase") != "play":
            return []
        hand = (view.get("you") or {}).get("hand") or []
        centre = view.get("centre") or []
        if not hand or not centre:
            return []
        counts = Counter(c["rank"] for c in hand)
        goal = max(counts, key=lambda r: (counts[r], r))
        give = next((c for c in hand if c["rank"] != goal), None)
        place = next((i for i, c in enumerate(centre) if c["rank"] == goal), None)
        if give is None or place is None:
            return []
        return [action_message("swap", card=give["id"], place=place, expected=centre[place]["id"])]


def make_bot(seat: int, level: str, rng: random.Random) -> StubBot:
    """Same signature as ``quatro_party.bots.make_bot``."""
    return StubBot(seat, level, rng)

"""A bot's eyes: what the phone was sent, the glances at it, and the reaction delay before it is perceived.

A person does not re-think at every change; they *look* at the table at moments. Messages are only stored
(the latest state, the events since the last glance, the replies). The bot *glances* when it notices a change,
but at most once per ``look_gap``: a glance captures the latest state it was sent and every event since its
previous glance. What it saw is *perceived* only after a reaction delay drawn from the bot's own RNG (never
under :data:`~.pace.MIN_REACTION` seconds), in one batch, in glance order. So no call, swap or
emission ever answers an event younger than the delay, and a burst of changes costs one look, not one thought
per change.
"""

from __future__ import annotations

import math
import random
from collections import deque
from typing import Any

from .pace import MIN_REACTION, Pace

#: A glance taken, not yet perceived: (perceive at, glanced at, latest state or None, when it was sent, the
#: events since the previous glance, the replies since then as (time, message)).
Glance = tuple[float, float, Any, float, list, list]


class Eyes:
    """What was sent and not yet perceived, and when the bot next looks. Body durations (:class:`~.pace.Pace`)."""

    def __init__(
        self,
        rng: random.Random,
        pace: Pace,
        look_gap: tuple[float, float],
        reaction: tuple[float, float],
        reaction_span: tuple[float, float] | None = None,
    ) -> None:
        self.rng = rng
        self.pace = pace
        self.look_gap = look_gap
        #: The reaction law: log-normal of this (median, sigma), never under MIN_REACTION; or, when
        #: ``reaction_span`` is given, uniform in it.
        self.reaction = reaction
        self.reaction_span = reaction_span
        # what was sent and not yet glanced at: the latest state (and when), its events since, the replies
        self.latest: dict[str, Any] | None = None
        self.latest_at = 0.0
        self.unseen_events: list[dict[str, Any]] = []
        self.unseen_replies: list[tuple[float, dict[str, Any]]] = []
        self.glance_at: float | None = None  # the next glance (a change was noticed)
        self.glance_free = float("-inf")  # no glance before this (look_gap after the last)
        self.inbox: deque[Glance] = deque()  # glances taken, not yet perceived
        self.last_perceive = float("-inf")

    def store_state(self, message: dict[str, Any], now: float) -> None:
        """A ``state`` message: the latest one is kept, its events are added to those unseen."""
        self.pace.read((message.get("view") or {}).get("timing") or {})
        self.latest, self.latest_at = message, now
        events = message.get("events")
        if events:
            self.unseen_events.extend(events)

    def store_reply(self, message: dict[str, Any], now: float) -> None:
        """A reply (``ok``, ``refused``, ``error``): read at the next glance."""
        self.unseen_replies.append((now, message))

    def look_now(self, now: float) -> None:
        """Glance at ``now`` whatever the last glance (the phone asks at once, under the player's thumb)."""
        self.glance_free = min(self.glance_free, now)
        self.glance_at = now

    def notice(self, now: float) -> float:
        """Something changed at the table at ``now`` (no content: a phone sees that much): plan a glance,
        at once or when the last one is ``look_gap`` old. Returns when it will be.

        A glance due now is taken at once, when the bot holds a message of this instant (as ``Bot.observe``
        does); otherwise the next ``Bot.wake`` takes it (the simulator shows the bot its view first)."""
        at = self.glance_at
        if at is None:
            at = self.glance_at = now if now >= self.glance_free else self.glance_free
        return at

    def wants_view(self, now: float) -> bool:
        """Is a glance due at ``now``? (The simulator builds this bot's view only then.)"""
        return self.glance_at is not None and self.glance_at <= now

    def glance(self, now: float) -> None:
        """Look at the table: take what was sent since the last glance; perceived after a reaction delay."""
        self.glance_at = None
        body = self.pace.body
        self.glance_free = now + self.rng.uniform(*self.look_gap) * body
        if self.latest is None and not self.unseen_events and not self.unseen_replies:
            return
        delay = self.reaction_delay() * body
        self.last_perceive = max(self.last_perceive, now + delay)
        self.inbox.append(
            (self.last_perceive, now, self.latest, self.latest_at, self.unseen_events, self.unseen_replies)
        )
        self.latest = None
        self.unseen_events = []
        self.unseen_replies = []

    def reaction_delay(self) -> float:
        """One perception delay (unscaled seconds), from this bot's law."""
        if self.reaction_span is not None:
            return self.rng.uniform(*self.reaction_span)
        median, sigma = self.reaction
        return max(MIN_REACTION, median * math.exp(sigma * self.rng.gauss(0.0, 1.0)))

    def next_look(self) -> float | None:
        """The sooner of the next glance and the next perception, or ``None``."""
        best = self.glance_at
        if self.inbox:
            t = self.inbox[0][0]
            if best is None or t < best:
                best = t
        return best

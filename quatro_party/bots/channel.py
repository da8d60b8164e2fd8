"""A bot's channel (R17–R20): the true sign when it holds a carré, decoys at credible moments.

Holding a carré, the bot shows the true sign (takes the channel, then chooses the emoji a beat later, R17–R18)
after a hesitation; the partner answers with "Quatro!". Decoys (R20) are shown only at moments a carré could have
been completed: right after an exchange that leaves the bot seen keeping two or more copies of one rank (R6: no
hand can hold a carré with fewer), with the same delay a true sign would have, standing still as a carré holder
must (the swap rule waits while ``release_at`` is set), then released. A naive bluffer (easy) bluffs at its
first kept card instead, before any carré is possible.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.rules import SIGNS
from .hands import Hands
from .levels import Level
from .memory import Memory
from .pace import MIN_EMOJI_BEAT, Pace


class Channel:
    """What the bot shows on its channel, and when."""

    def __init__(self, level: Level, rng: random.Random, pace: Pace, memory: Memory, hands: Hands) -> None:
        self.level = level
        self.rng = rng
        self.pace = pace
        self.memory = memory
        self.hands = hands
        self.sign_at: float | None = None  # when the true sign will be shown (after the hesitation)
        self.emoji_plan: tuple[float, str] | None = None  # the emoji to choose once the tray is open
        self.decoy_at: float | None = None  # when the next decoy is shown
        self.release_at: float | None = None  # when the decoy shown is released
        self.decoys = 0  # decoys this deal
        self.my_fresh: list[str] = []  # emojis this seat emitted this round (decoys and sign)

    def new_round(self) -> None:
        self.decoy_at = self.release_at = self.sign_at = None
        self.emoji_plan = None
        self.my_fresh = []

    def deal(self) -> None:
        self.decoys = 0
        self.decoy_at = None
        self.sign_at = None

    def own_swap(self, took: str, at: float) -> None:
        """We saw our own exchange go through: a carré is completed at such moments, so a decoy is credible
        then (R6: only once the table has seen us keep two or more copies of one rank). A naive bluffer bluffs
        at its first kept card, when it looks like a collector though no carré is possible yet."""
        level = self.level
        kept = self.memory.public_known
        if level.naive_bluff:
            if (
                self.decoys < level.decoys_per_deal
                and self.release_at is None
                and len(kept) == 1
                and self.rng.random() < (level.decoy_chance if self.memory.n == 4 else level.decoy_chance_big)
            ):
                self.decoys += 1
                self.decoy_at = at + self.rng.uniform(*level.sign_hesitation) * self.pace.table
            return
        if (
            level.decoy_chance
            and self.decoys < level.decoys_per_deal
            and self.release_at is None
            and set(kept.values()) == {took}
            and len(kept) >= 2
            and self.rng.random() < (level.decoy_chance if self.memory.n == 4 else level.decoy_chance_big)
        ):
            self.decoys += 1
            self.decoy_at = at + self.rng.uniform(*level.sign_hesitation) * self.pace.table  # as a true sign

    def act(self, now: float) -> list[dict[str, Any]]:
        """What to send on the channel now (a wake is planned for what comes later)."""
        memory, hands = self.memory, self.hands
        you = memory.you
        sign = you.get("sign")
        held = memory.channel_of(memory.seat)["held"]
        choice = you.get("channel_choice")
        if self.emoji_plan is not None:
            at, emoji = self.emoji_plan
            if now < at:
                hands.plan(at)
                return []
            self.emoji_plan = None
            self.my_fresh.append(emoji)
            return [hands.send("choose_emoji", now, emoji=emoji)]
        if hands.sent and (hands.pending("take_channel") or hands.pending("release_channel")):
            return []
        if you.get("has_carre") and sign:
            self.decoy_at = self.release_at = None
            if held and choice == sign:
                return []
            if not memory.perceived["seats"][memory.partner()]["connected"]:
                # R33: nobody can answer the sign, but the opponents would read it: keep the carré quiet
                # (and keep it: the partner may come back, then we show it)
                return []
            if self.sign_at is None:
                self.sign_at = now + self.rng.uniform(*self.level.sign_hesitation) * self.pace.table
            ready = max(self.sign_at, hands.channel_block_until if not held else now)
            if now < ready:
                hands.plan(ready)
                return []
            return self._show(sign, now, held)
        self.sign_at = None
        if held and (
            choice == sign
            or (self.release_at is not None and now >= self.release_at)
            or (self.release_at is None and self.decoy_at is None)
        ):
            # no carré (any more, e.g. after a reshuffle), or the decoy has been shown long enough
            if now < hands.channel_block_until:
                hands.plan(hands.channel_block_until)
                return []
            self.release_at = None
            return [hands.send("release_channel", now)]
        if held and self.release_at is not None:
            hands.plan(self.release_at)
            return []
        if self.decoy_at is not None and not held:
            ready = max(self.decoy_at, hands.channel_block_until)
            if now < ready:
                hands.plan(ready)
                return []
            self.decoy_at = None
            self.release_at = now + self.rng.uniform(*self.level.decoy_hold) * self.pace.table
            hands.plan(self.release_at)
            return self._show(self.pick_decoy(), now, False)
        return []

    def _show(self, emoji: str, now: float, held: bool) -> list[dict[str, Any]]:
        """Take the channel (unless held) and choose ``emoji`` once the tray is open (the phone's second tap)."""
        beat = max(MIN_EMOJI_BEAT, self.rng.uniform(*self.level.emoji_beat)) * self.pace.body
        self.emoji_plan = (now + beat, emoji)
        self.hands.plan(now + beat)
        return [] if held else [self.hands.send("take_channel", now)]

    def pick_decoy(self) -> str:
        """R20: any emoji but our sign (the partner would call!) and but last round's sign (public, R10)."""
        you = self.memory.you
        banned = {you.get("sign"), you.get("last_sign"), *self.my_fresh}
        return self.rng.choice([s for s in SIGNS if s not in banned])

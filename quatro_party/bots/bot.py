"""A bot: a phone's eyes and hands, a memory and a policy, nothing more (R3, R13, R30, R36–R39).

A bot is fed exactly the messages a phone in its seat receives (``state`` with the seat's view and the public
events, ``ok``, ``refused``) and answers with phone protocol messages. It never sees the engine, so it cannot
cheat: everything it knows it read in those dicts.

:class:`Bot` is the composition of the parts, each owning its state:

* :class:`~.eyes.Eyes` — messages stored, glances, the reaction delay before what was seen is perceived;
* :class:`~.memory.Memory` — the view perceived and what the public events taught;
* :class:`~.hands.Hands` — actions in flight, the buttons' cooldowns, the bot's own wake-up plan;
* :class:`~.policy.Policy` — the decisions (calls, channel, swaps, sign), taken in :meth:`Bot.wake` from perceived
  information only, so no call, swap or emission ever answers an event younger than the reaction delay.

Nothing runs between wakes. The simulator uses :meth:`Bot.notice` and :meth:`Bot.wants_view` to build a view
only for a bot that is about to glance (the view and the events since its last one: exactly the frame it would
have kept).
"""

from __future__ import annotations

import random
from typing import Any

from .eyes import Eyes
from .hands import Hands
from .levels import Level
from .memory import Memory
from .pace import PENDING_TIMEOUT, Pace
from .policy import Policy

#: The event types the memory reads: the others (a ready, a vote, ...) are seen in the views, so a third of a
#: game's events are skipped without a call.
EVENTS_READ = frozenset(
    {
        "dealt",
        "reshuffled",
        "round_opened",
        "round_ended",
        "sign_phase_opened",
        "swapped",
        "emitted",
        "channel_taken",
        "channel_released",
    }
)
_NEW_ROUND = ("sign_phase_opened", "round_opened")
_CALLS = ("call_quatro", "call_contre")


class Senses:
    """The parts every player of the simulator or the host is made of before its policy: its clocks, eyes,
    memory and hands (the policy is composed on them)."""

    def __init__(self, seat: int, rng: random.Random, level: Level, human_pace: bool) -> None:
        self.pace = Pace(human_pace)
        self.eyes = Eyes(rng, self.pace, level.look_gap, level.reaction, level.reaction_span)
        self.memory = Memory(seat, level.memory, level.r6_aware)
        self.hands = Hands(seat)


class Bot:
    """A seat played by the computer. Public API (the only one the host uses): :meth:`observe`,
    :meth:`next_wake`, :meth:`wake`; the simulator also uses :meth:`notice` and :meth:`wants_view`."""

    def __init__(self, seat: int, level: str, senses: Senses, policy: Policy) -> None:
        self.seat = seat
        self.level = level
        self.pace = senses.pace
        self.eyes = senses.eyes
        self.memory = senses.memory
        self.hands = senses.hands
        self.policy = policy
        # the eyes answer these two alone (the simulator asks every bot at every change)
        self.notice = self.eyes.notice
        self.wants_view = self.eyes.wants_view

    def observe(self, message: dict[str, Any], now: float) -> None:
        """Take one server→client message: stored only, until the bot's next glance (ask :meth:`next_wake`)."""
        if not isinstance(message, dict):
            raise TypeError("a bot only reads protocol messages (dicts)")
        eyes = self.eyes
        if eyes.glance_at is not None and eyes.glance_at < now:
            eyes.glance(eyes.glance_at)  # a glance due before this message (nobody woke us): it saw the older
        if message.get("type") == "state":
            eyes.store_state(message, now)
        else:
            # a reply (ok, refused) is read at the next glance: an accepted action changes the table, and
            # that change is noticed (a refusal that changes nothing is read then, or its action forgotten)
            eyes.store_reply(message, now)
            sent = self.hands.reply_came(str(message.get("id")))
            if message.get("type") != "refused":
                return
            if sent is not None and sent["type"] in _CALLS:
                # a refused call changes nothing at the table, but the phone asks at once, under the player's
                # thumb (R23): it is seen at a glance now, whatever the last one (the next wake takes it)
                eyes.look_now(now)
                return
            # another refusal changes nothing either: it is seen at the next glance, planned now
        if eyes.notice(now) <= now:
            eyes.glance(now)  # free to look: this glance sees the message just received

    def next_wake(self) -> float | None:
        """When the bot next wants :meth:`wake` to be called (absolute time), or ``None``."""
        hands = self.hands
        best = hands.timer
        t = self.eyes.next_look()
        if t is not None and (best is None or t < best):
            best = t
        if hands.sent:
            # the oldest action still unanswered (one whose reply we hold waits for our eyes, not for a timeout)
            oldest = hands.oldest_unanswered()
            if oldest is not None:
                t = oldest + PENDING_TIMEOUT * self.pace.table
                if best is None or t < best:
                    best = t
        return best

    def wake(self, now: float) -> list[dict[str, Any]]:
        """Glance if due, perceive what is due, then act: the phone messages to send now."""
        eyes, hands = self.eyes, self.hands
        if eyes.glance_at is not None and eyes.glance_at <= now:
            eyes.glance(now)
        think = False  # something new to think about (a look, a lost reply)
        inbox = eyes.inbox
        while inbox and inbox[0][0] <= now:
            self._perceive(now, *inbox.popleft()[1:])
            think = True
        if hands.sent and hands.give_up(now, PENDING_TIMEOUT * self.pace.table):
            think = True
        planned = hands.timer is not None and hands.timer <= now  # only our own plan is due (e.g. a swap)
        if planned:
            hands.timer = None
        if self.memory.view is None or not (think or planned):
            return []
        out = self.policy.decide(now)
        if hands.timer is not None and hands.timer <= now:  # never ask to be woken in the past
            hands.timer = None
        return out

    def _perceive(
        self,
        now: float,
        at: float,
        msg: dict[str, Any] | None,
        msg_at: float,
        events: list[dict[str, Any]],
        replies: list[tuple[float, dict[str, Any]]],
    ) -> None:
        """One glance (taken at ``at``), perceived at ``now``: the events since the last one, then the latest
        view, then the replies."""
        memory, policy = self.memory, self.policy
        view = msg.get("view") if msg is not None else None
        if not (isinstance(view, dict) and "you" in view):
            view = None
        if (
            view is not None
            and view.get("round", 0) != memory.round
            and not any(e.get("type") in _NEW_ROUND for e in events)
        ):
            # a new round first: its deal may come in this very glance (an all-bot table opens at once)
            memory.n = int(view["seat_count"])
            memory.new_round(view.get("round", 0))
            policy.new_round()
        read = memory.read
        for event in events:
            kind = event.get("type")
            if kind not in EVENTS_READ:
                continue
            if kind in _NEW_ROUND and event.get("round", memory.round) != memory.round:
                if view is not None:
                    memory.n = int(view["seat_count"])
                memory.new_round(event.get("round", 0))
                policy.new_round()
            if read(event, at):
                policy.heard(event, at)
        if view is not None:
            memory.view, memory.view_at = view, msg_at
            memory.n = int(view["seat_count"])
            you = view["you"]
            hands = self.hands
            hands.swap_block_until = max(hands.swap_block_until, msg_at + (you.get("swap_wait") or 0.0))
            hands.channel_block_until = max(hands.channel_block_until, msg_at + (you.get("channel_wait") or 0.0))
        for t, reply in replies:
            self._reply(reply, t, now)

    def _reply(self, msg: dict[str, Any], at: float, now: float) -> None:
        kind = msg.get("type")
        if kind not in ("ok", "refused", "error"):  # "error": the host refused the message itself (e.g. flood)
            return
        hands = self.hands
        ref = str(msg.get("id"))
        sent = hands.sent.get(ref)
        hands.forget(ref)
        if kind == "ok":
            return
        self.memory.evidence += 1
        if kind != "refused":
            return
        if sent is not None:
            self.policy.refused(sent[1], str(msg.get("reason")), at, now)
        wait = (msg.get("details") or {}).get("wait")
        if msg.get("reason") == "swap_cooldown" and wait:
            hands.swap_block_until = max(hands.swap_block_until, at + float(wait))
        if msg.get("reason") == "channel_cooldown" and wait:
            hands.channel_block_until = max(hands.channel_block_until, at + float(wait))

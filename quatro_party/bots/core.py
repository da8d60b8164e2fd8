"""The machinery every bot shares: a phone's eyes (perception with a human delay) and a phone's hands.

A bot is fed exactly the messages a phone in its seat receives (``state`` with the seat's view and the
public events, ``ok``, ``refused``) and answers with phone protocol messages. It never sees the engine,
so it cannot cheat: everything it knows it read in those dicts (R36–R39).

Human perception: a person does not re-think at every change; they *look* at the table at
moments. :meth:`Bot.observe` only stores a message (the latest state, and the events since the last
look). The bot *glances* when it notices a change, but at most once per ``look_gap`` (level-dependent):
a glance captures the latest state it was sent and every event since its previous glance. What it saw
is *perceived* only after a reaction delay drawn from the bot's own RNG (never under
:data:`MIN_REACTION` seconds), in one batch; decisions are taken in :meth:`Bot.wake` from perceived
information only, so no call, swap or emission ever answers an event younger than the delay.
Nothing runs between wakes, and a burst of changes costs one look, not one thought per change.

The simulator uses :meth:`Bot.notice` and :meth:`Bot.wants_view` to build a view only for a bot that
is about to glance (the view and the events since its last one: exactly the frame it would have kept).
"""

from __future__ import annotations

import math
import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from ..engine.rules import DEFAULT_TIMING, RANKS, SIGNS, partner_of, seats_of, team_of
from ..protocol import action_message

#: No bot answers an event sooner than this (seconds): a quick human, not a machine. At a table whose
#: rules run faster (``Timing.scaled``), every delay of the bots, this one included, is scaled alike.
MIN_REACTION = 0.7
#: The phone's motor costs, paid by every bot as a player pays them (seconds). A call button must be held
#: this long before it fires (the phone's press-and-hold, there against stray touches).
CALL_HOLD = 0.55
#: The least time between taking the channel and choosing its emoji: the tray opens, then a second tap.
MIN_EMOJI_BEAT = 0.3
#: An action with no ``ok``/``refused`` after this long is forgotten (the host may have dropped it).
PENDING_TIMEOUT = 3.0


def rank_of(card_id: int) -> str:
    """R4: a card's rank from its id (ids are ``4 * rank index + suit``), public knowledge."""
    return RANKS[card_id // 4]


@dataclass
class SeatFacts:
    """What a careful player knows about one other seat this round, from public events only."""

    known: dict[int, str] = field(default_factory=dict)  # card id -> rank: taken, not put back, remembered
    recent: deque = field(default_factory=deque)  # ids of the cards it took, latest last (bounded memory)
    put: dict[str, int] = field(default_factory=dict)  # rank -> copies given away this deal
    mixed: bool = False  # keeps cards of two ranks or more: no carré possible now
    last_swap: float | None = None
    emitted: list[tuple[float, str]] = field(default_factory=list)  # (time, emoji), this round


@dataclass
class StyleStats:
    """How a seat used its channel in past rounds, learnt from the reveals (R26)."""

    sign_emissions: int = 0  # fresh emojis that were the team's sign
    decoy_emissions: int = 0  # fresh emojis that were not

    def trust(self, prior: float) -> float:
        """Probability that a fresh emoji from this seat is its team's sign (Laplace-smoothed)."""
        return (self.sign_emissions + 2 * prior) / (self.sign_emissions + self.decoy_emissions + 2)


class Bot:
    """A seat played by the computer. Subclasses (levels) set the knobs and the policies.

    Public API (the only one the host uses): :meth:`observe`, :meth:`next_wake`, :meth:`wake`.
    """

    level = "base"
    #: Perception delay: a log-normal law of this median (seconds) and shape, never under :data:`MIN_REACTION`.
    reaction_median = 1.2
    reaction_sigma = 0.25
    #: How many of each other seat's latest exchanges the bot remembers (``None``: all of the deal). A card
    #: taken longer ago is forgotten: the bot no longer knows that seat keeps it.
    memory: int | None = None
    #: Extra hesitation before each swap once the cooldown is over (uniform range, seconds).
    swap_hesitation = (0.1, 0.6)
    #: After a glance, the next one comes no sooner than this (uniform range, seconds): changes in between
    #: are seen together at the next glance.
    look_gap = (0.4, 0.8)
    #: In play, with nothing perceived for this long, think again anyway (beliefs grow with time).
    idle_look: float | None = None
    #: The event types :meth:`_event` reads, at every level: the others (a channel taken or released, a ready,
    #: ...) are seen in the views, so a third of a game's events are skipped without a call. A level that
    #: reads another type adds it here.
    events_read: frozenset[str] = frozenset(
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

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        # what was sent and not yet glanced at: the latest state (and when), its events since, the replies
        self._latest: dict[str, Any] | None = None
        self._latest_at = 0.0
        self._unseen_events: list[dict[str, Any]] = []
        self._unseen_replies: list[tuple[float, dict[str, Any]]] = []
        self._glance_at: float | None = None  # the next glance (a change was noticed)
        self._glance_free = float("-inf")  # no glance before this (look_gap after the last)
        # glances taken, not yet perceived: (perceive_at, glanced_at, state, state_at, events, replies)
        self._inbox: deque[tuple[float, float, Any, float, list, list]] = deque()
        self._last_perceive: float = float("-inf")
        self._idle_at: float | None = None  # think again then, if nothing was perceived meanwhile
        self.rethink = True  # this decision follows a look (calls are weighed again), not only a plan coming due
        self.time_scale = 1.0  # < 1 only at a table whose rules were sped up (tests, demos)
        self._seen_timing: Any = None  # the last view's timing dict, already read
        self._timer: float | None = None  # own plan: when to look again without news
        # id -> (sent_at, message), in the order sent (times never go back): the first is the oldest
        self._pending: dict[str, tuple[float, dict[str, Any]]] = {}
        self._pending_kinds: dict[str, int] = {}  # message type -> how many of them are pending
        # pending actions whose reply came and is not perceived yet: they never time out (a slow glance must not
        # forget a refusal it already holds, or a refused call would never be sent again)
        self._answered: set[str] = set()
        self._serial = 0
        # perceived state
        self.view: dict[str, Any] | None = None
        self.view_at = 0.0  # when that view was true (its durations count from then)
        self.round = 0
        self.facts: dict[int, SeatFacts] = {}
        self.style: dict[int, StyleStats] = {}
        self.round_started = 0.0
        self.last_signs: dict[int, str] = {}  # team -> its previous sign, public since the reveal (R10)
        self.my_fresh: list[str] = []  # emojis this seat emitted this round (decoys and sign)
        self.swap_block_until = float("-inf")
        self.channel_block_until = float("-inf")
        self.decided_call = False
        self.n = 4  # seats at the table, from the last view
        self._facts_gen = 0  # bumped whenever what other seats are seen keeping may change
        self._deal_version = 0  # bumped at each new deal or round: the hidden pool must be counted again
        self._pool_cache: tuple[int, dict[str, int]] | None = None  # (deal version, pool), kept up to date
        self._pool_total = 0  # sum of the cached pool
        self._centre_ranks: tuple[Any, set[str]] = (None, set())
        #: Bumped whenever the evidence about carrés may have changed (a swap, an emission, a channel taken or
        #: released, a deal, a reply): calls are weighed again only then, or when time alone changes them.
        self.evidence = 0
        self.candidates: set[int] = set()  # other seats that could hold a carré, by what they are seen keeping
        self.last_swap_seen = float("-inf")  # when the last exchange of anybody was seen (or the last deal)
        self.perceived_at = 0.0  # the time of the wake perceiving what it perceives
        self.setup()

    def setup(self) -> None:
        """Hook for levels: extra per-bot state."""

    # --- the API ---------------------------------------------------------------------

    def observe(self, message: dict[str, Any], now: float) -> None:
        """Take one server→client message: stored only, until the bot's next glance (ask :meth:`next_wake`)."""
        if not isinstance(message, dict):
            raise TypeError("a bot only reads protocol messages (dicts)")
        if self._glance_at is not None and self._glance_at < now:
            self._glance(self._glance_at)  # a glance due before this message (nobody woke us): it saw the older
        if message.get("type") == "state":
            timing = (message.get("view") or {}).get("timing") or {}
            if timing is not self._seen_timing:  # views may share one timing dict: read it once
                self._seen_timing = timing
                length = timing.get("round_length")
                if isinstance(length, (int, float)) and length > 0:
                    # a table run faster (host --time-scale) scales its humans too, rule for rule
                    self.time_scale = min(1.0, float(length) / DEFAULT_TIMING.round_length)
            self._latest, self._latest_at = message, now
            events = message.get("events")
            if events:
                self._unseen_events.extend(events)
        else:
            # a reply (ok, refused) is read at the next glance: an accepted action changes the table, and
            # that change is noticed (a refusal that changes nothing is read then, or its action forgotten)
            self._unseen_replies.append((now, message))
            ref = str(message.get("id"))
            if ref in self._pending:
                self._answered.add(ref)
            if message.get("type") != "refused":
                return
            sent = self._pending.get(str(message.get("id")))
            if sent is not None and sent[1]["type"] in ("call_quatro", "call_contre"):
                # a refused call changes nothing at the table, but the phone asks at once, under the player's
                # thumb (R23): it is seen at a glance now, whatever the last one (the next wake takes it)
                self._glance_free = min(self._glance_free, now)
                self._glance_at = now
                return
            # another refusal changes nothing either: it is seen at the next glance, planned now
        if self.notice(now) <= now:
            self._glance(now)  # free to look: this glance sees the message just received

    def notice(self, now: float) -> float:
        """Something changed at the table at ``now`` (no content: a phone sees that much): plan a glance,
        at once or when the last one is ``look_gap`` old. Returns when it will be.

        A glance due now is taken at once, when the bot holds a message of this instant (as :meth:`observe`
        does); otherwise the next :meth:`wake` takes it (the simulator shows the bot its view first)."""
        at = self._glance_at
        if at is None:
            at = self._glance_at = now if now >= self._glance_free else self._glance_free
        return at

    def wants_view(self, now: float) -> bool:
        """Is a glance due at ``now``? (The simulator builds this bot's view only then.)"""
        return self._glance_at is not None and self._glance_at <= now

    def next_wake(self) -> float | None:
        """When the bot next wants :meth:`wake` to be called (absolute time), or ``None``."""
        best = self._timer
        t = self._glance_at
        if t is not None and (best is None or t < best):
            best = t
        t = self._idle_at
        if t is not None and (best is None or t < best):
            best = t
        if self._inbox:
            t = self._inbox[0][0]
            if best is None or t < best:
                best = t
        if self._pending:
            # the oldest action still unanswered (one whose reply we hold waits for our eyes, not for a timeout):
            # actions are sent in time order, so it is the first one unanswered
            oldest = None
            answered = self._answered
            for ref, (sent, _) in self._pending.items():
                if ref not in answered:
                    oldest = sent
                    break
            if oldest is not None:
                t = oldest + PENDING_TIMEOUT * self.time_scale
                if best is None or t < best:
                    best = t
        return best

    def _glance(self, now: float) -> None:
        """Look at the table: take what was sent since the last glance; perceived after a reaction delay."""
        self._glance_at = None
        self._glance_free = now + self.rng.uniform(*self.look_gap) * self.time_scale
        if self._latest is None and not self._unseen_events and not self._unseen_replies:
            return
        delay = self.reaction_delay() * self.time_scale
        self._last_perceive = max(self._last_perceive, now + delay)
        self._inbox.append(
            (self._last_perceive, now, self._latest, self._latest_at, self._unseen_events, self._unseen_replies)
        )
        self._latest = None
        self._unseen_events = []
        self._unseen_replies = []

    def reaction_delay(self) -> float:
        """One perception delay (unscaled seconds), from this level's law."""
        return max(MIN_REACTION, self.reaction_median * math.exp(self.reaction_sigma * self.rng.gauss(0.0, 1.0)))

    def wake(self, now: float) -> list[dict[str, Any]]:
        """Glance if due, perceive what is due, then act: the phone messages to send now."""
        if self._glance_at is not None and self._glance_at <= now:
            self._glance(now)
        think = False  # something new to think about (a look, a lost reply, time passing): rethink the calls
        self.perceived_at = now  # what is perceived in this wake is perceived now
        while self._inbox and self._inbox[0][0] <= now:
            self._perceive_glance(*self._inbox.popleft()[1:])
            think = True
        pending = self._pending
        if pending:
            timeout = PENDING_TIMEOUT * self.time_scale
            answered = self._answered
            lost = []
            for ref, (sent, _) in pending.items():
                if ref in answered:
                    continue  # its reply is on its way to our eyes
                if sent + timeout > now:
                    break  # young, and so are those sent after it
                lost.append(ref)
            for ref in lost:
                self._forget(ref)
                think = True
        if self._idle_at is not None and self._idle_at <= now:
            self._idle_at = None
            think = True
        planned = self._timer is not None and self._timer <= now  # only our own plan is due (e.g. a swap)
        if planned:
            self._timer = None
        if self.view is None or not (think or planned):
            return []
        self.rethink = think
        out = self.decide(now)
        if self._timer is not None and self._timer <= now:  # never ask to be woken in the past
            self._timer = None
        if think:
            idle = self.idle_look
            self._idle_at = now + idle * self.time_scale if idle is not None and self.view["phase"] == "play" else None
        return out

    # --- perception --------------------------------------------------------------------

    def _perceive_glance(
        self,
        at: float,
        msg: dict[str, Any] | None,
        msg_at: float,
        events: list[dict[str, Any]],
        replies: list[tuple[float, dict[str, Any]]],
    ) -> None:
        """One glance, perceived: the events since the last one (all seen at ``at``), then the latest view."""
        view = msg.get("view") if msg is not None else None
        if not (isinstance(view, dict) and "you" in view):
            view = None
        if (
            view is not None
            and view.get("round", 0) != self.round
            and not any(e.get("type") in ("sign_phase_opened", "round_opened") for e in events)
        ):
            # a new round first: its deal may come in this very glance (an all-bot table opens at once)
            self.n = int(view["seat_count"])
            self._new_round(view.get("round", 0), at)
        read = self.events_read
        for event in events:
            kind = event.get("type")
            if kind not in read:
                continue
            if kind in ("sign_phase_opened", "round_opened") and event.get("round", self.round) != self.round:
                if view is not None:
                    self.n = int(view["seat_count"])
                self._new_round(event.get("round", 0), at)
            self._event(event, at)
        if view is not None:
            self.view, self.view_at = view, msg_at
            self.n = int(view["seat_count"])
            you = view["you"]
            self.swap_block_until = max(self.swap_block_until, msg_at + (you.get("swap_wait") or 0.0))
            self.channel_block_until = max(self.channel_block_until, msg_at + (you.get("channel_wait") or 0.0))
        for t, reply in replies:
            self._reply(reply, t)

    def _reply(self, msg: dict[str, Any], at: float) -> None:
        kind = msg.get("type")
        if kind in ("ok", "refused", "error"):  # "error": the host refused the message itself (e.g. flood)
            ref = str(msg.get("id"))
            sent = self._pending.get(ref)
            self._forget(ref)
            if kind != "ok":
                self.evidence += 1
            if kind == "refused" and sent is not None:
                self.on_refused(sent[1], str(msg.get("reason")), at)
            if kind == "refused":
                wait = (msg.get("details") or {}).get("wait")
                if msg.get("reason") == "swap_cooldown" and wait:
                    self.swap_block_until = max(self.swap_block_until, at + float(wait))
                if msg.get("reason") == "channel_cooldown" and wait:
                    self.channel_block_until = max(self.channel_block_until, at + float(wait))

    def on_refused(self, sent: dict[str, Any], reason: str, at: float) -> None:
        """Hook for levels: an action of ours was refused (``sent`` is the message), perceived at ``at``."""

    def _new_round(self, number: int, at: float) -> None:
        self.round = number
        self._deal_version += 1
        self.facts = {}
        self.candidates.clear()
        self.my_fresh = []
        self.decided_call = False
        self.round_started = at
        self._facts_gen += 1
        self.on_new_round()

    def on_new_round(self) -> None:
        """Hook for levels: a new round (sign phase) began."""

    def _seat_facts(self, seat: int) -> SeatFacts:
        f = self.facts.get(seat)
        if f is None:
            f = self.facts[seat] = SeatFacts()
        return f

    def _event(self, e: dict[str, Any], at: float) -> None:
        kind = e["type"]
        if kind == "swapped":
            seat, put, took = e["seat"], e["put"], e["took"]
            self.last_swap_seen = at
            if seat == self.seat:
                # our own exchange moves cards between places we see: the hidden pool is unchanged
                self.evidence += 1
                self.on_own_swap_event(put, took, at)
                return
            f = self.facts.get(seat)
            if f is None:
                f = self.facts[seat] = SeatFacts()
            was = seat in self.candidates
            memory = self.memory
            if memory is not None and seat != (self.seat + self.n // 2) % self.n:  # a partner is watched closely
                f.recent.append(took["id"])
                if len(f.recent) > memory:
                    self._forget_card(f, f.recent.popleft())
            self._facts_gen += 1
            known = f.known
            if known.pop(put["id"], None) is None:  # a hidden card came to light: the hidden pool shrank
                pool = self._pool_cache
                if pool is not None and pool[0] == self._deal_version:
                    pool[1][put["rank"]] -= 1  # counting it again from the view would find exactly this
                    self._pool_total -= 1
            rank = took["rank"]
            known[took["id"]] = rank
            f.mixed = len(set(known.values())) > 1
            f.put[put["rank"]] = f.put.get(put["rank"], 0) + 1
            f.last_swap = at
            if not f.mixed and len(known) >= 2:  # _candidate, inlined (every swap, read by every bot)
                self.candidates.add(seat)
            else:
                self.candidates.discard(seat)
            if self.swap_matters(seat, f, was):
                self.evidence += 1
            return
        self.evidence += 1
        if kind == "emitted":
            seat = e["seat"]
            if seat != self.seat:
                self._seat_facts(seat).emitted.append((at, e["emoji"]))
            return
        if kind in ("channel_taken", "channel_released"):
            if kind == "channel_released" and e["seat"] != self.seat:
                self.on_release(e["seat"], at)
            return
        self._deal_version += 1  # new cards or a new round: every card inference must be redone
        if kind in ("dealt", "reshuffled"):  # R27, R31: every hand is new, what we knew is void
            self._facts_gen += 1
            self.candidates.clear()
            self.last_swap_seen = at
            for f in self.facts.values():
                f.known.clear()
                f.recent.clear()
                f.mixed = False
                f.put.clear()
                f.last_swap = None
            if kind == "dealt":
                self.round_started = at
            self.on_deal(at)
        elif kind == "round_opened":
            self.round_started = at
        elif kind == "round_ended":
            self._learn(e.get("result") or {})
        if kind in ("sign_phase_opened", "round_ended"):
            self.on_round_change()

    def _candidate(self, seat: int, f: SeatFacts) -> None:
        """R6: keep the set of other seats that could hold a carré (one rank kept, two copies or more)."""
        if not f.mixed and len(f.known) >= 2:
            self.candidates.add(seat)
        else:
            self.candidates.discard(seat)

    def swap_matters(self, seat: int, f: SeatFacts, was_candidate: bool) -> bool:
        """Hook for levels: may this exchange of another seat change our calls? (When not, they are not
        weighed again.) By default: yes."""
        return True

    def on_own_swap_event(self, put: dict[str, Any], took: dict[str, Any], at: float) -> None:
        """Hook for levels: our own exchange, perceived."""

    def on_deal(self, at: float) -> None:
        """Hook for levels: new hands (a deal or a reshuffle), perceived."""

    def on_release(self, seat: int, at: float) -> None:
        """Hook for levels: another seat released its channel."""

    def on_round_change(self) -> None:
        """Hook for levels: a sign phase opened or a round ended."""

    def _forget_card(self, f: SeatFacts, card: int) -> None:
        """Bounded memory: the bot no longer remembers that this seat took ``card`` (it is hidden again)."""
        rank = f.known.pop(card, None)
        if rank is None:
            return  # given back since: nothing to forget
        f.mixed = len(set(f.known.values())) > 1
        self._facts_gen += 1
        for seat, g in self.facts.items():
            if g is f:
                self._candidate(seat, f)
        pool = self._pool_cache
        if pool is not None and pool[0] == self._deal_version:
            pool[1][rank] += 1
            self._pool_total += 1

    def _learn(self, result: dict[str, Any]) -> None:
        """R26: the reveal shows every sign; score each seat's fresh emojis as sign or decoy."""
        signs = result.get("signs") or []
        n = len(result.get("hands") or [])
        for t, sign in enumerate(signs):
            if sign is not None:
                self.last_signs[t] = sign
        if not n:
            return
        for seat, f in self.facts.items():
            team = team_of(seat, n)
            sign = signs[team] if team < len(signs) else None
            st = self.style.setdefault(seat, StyleStats())
            for emoji in dict.fromkeys(e for _, e in f.emitted):
                if emoji == sign:
                    st.sign_emissions += 1
                else:
                    st.decoy_emissions += 1
        self.facts = {}
        self.candidates.clear()
        self._facts_gen += 1

    # --- reading the perceived view -----------------------------------------------------

    @property
    def perceived(self) -> dict[str, Any]:
        """The last view perceived: decisions are only taken once there is one."""
        assert self.view is not None
        return self.view

    @property
    def you(self) -> dict[str, Any]:
        assert self.view is not None
        return self.view["you"]

    @property
    def seat_count(self) -> int:
        return self.n

    def partner(self) -> int:
        """R2: our partner's seat."""
        return partner_of(self.seat, self.n)

    def team_of(self, seat: int) -> int:
        """R2: the team of ``seat``."""
        return team_of(seat, self.n)

    def team_seats(self, team: int) -> tuple[int, int]:
        """R2: the two seats of ``team``."""
        return seats_of(team, self.n)

    def hand(self) -> list[dict[str, Any]]:
        return list(self.you.get("hand") or [])

    def centre(self) -> list[dict[str, Any]]:
        assert self.view is not None
        return list(self.view.get("centre") or [])

    def centre_ranks(self) -> set[str]:
        """The ranks the centre of the perceived view shows (computed once per view)."""
        view = self.view
        assert view is not None
        if self._centre_ranks[0] is not view:
            self._centre_ranks = (view, {c["rank"] for c in view.get("centre") or ()})
        return self._centre_ranks[1]

    def counts(self, cards: list[dict[str, Any]]) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in cards:
            out[c["rank"]] = out.get(c["rank"], 0) + 1
        return out

    def channel_of(self, seat: int) -> dict[str, Any]:
        assert self.view is not None
        return self.view["seats"][seat]["channel"]

    def is_human(self, seat: int) -> bool:
        assert self.view is not None
        return self.view["seats"][seat]["kind"] == "human"

    def unknown_pool(self) -> dict[str, int]:
        """Copies of each rank whose place is unknown to this seat (hidden in other hands)."""
        if self._pool_cache is not None and self._pool_cache[0] == self._deal_version:
            return self._pool_cache[1]
        ranks = RANKS[: self.seat_count + 1]
        pool = {r: 4 for r in ranks}
        for c in self.hand() + self.centre():
            pool[c["rank"]] -= 1
        for f in self.facts.values():
            for r in f.known.values():
                pool[r] -= 1
        self._pool_cache = (self._deal_version, pool)
        self._pool_total = sum(pool.values())
        return pool

    def carre_odds(self, seat: int) -> tuple[float, str | None]:
        """From public facts only: the chance ``seat`` holds a carré if its hidden cards were random,
        and the rank it would be of. Cards the seat took and kept are known (R14 swaps are public).

        R6: a dealt hand holds at most two cards of a rank, so a carré needs at least two copies taken and
        kept since the deal: a seat seen keeping fewer (or two ranks) cannot hold one, whatever it shows."""
        f = self.facts.get(seat)
        if f is None or f.mixed or len(f.known) < 2:
            return 0.0, None
        hidden = 4 - len(f.known)
        rank = next(iter(f.known.values()))
        if hidden == 0:
            return 1.0, rank
        pool = self.unknown_pool()
        total = self._pool_total
        if total < hidden:
            return 0.0, None
        # one ratio of small binomials: cheaper than any cache of it
        return math.comb(max(pool.get(rank, 0), 0), hidden) / math.comb(total, hidden), rank

    # --- acting -----------------------------------------------------------------------

    def send(self, kind: str, now: float, **fields: Any) -> dict[str, Any]:
        """A phone message with an id, remembered until its ``ok``/``refused`` comes back."""
        self._serial += 1
        ref = f"b{self.seat}.{self._serial}"
        msg = action_message(kind, **fields)
        msg["id"] = ref
        self._pending[ref] = (now, msg)
        self._pending_kinds[kind] = self._pending_kinds.get(kind, 0) + 1
        return msg

    def _forget(self, ref: str) -> None:
        """The action ``ref`` was answered, or is given up."""
        found = self._pending.pop(ref, None)
        self._answered.discard(ref)
        if found is not None:
            kind = found[1]["type"]
            left = self._pending_kinds[kind] - 1
            if left:
                self._pending_kinds[kind] = left
            else:
                del self._pending_kinds[kind]

    def pending(self, kind: str) -> bool:
        """Is an action of this kind sent and not yet answered?"""
        return kind in self._pending_kinds

    def plan(self, at: float) -> None:
        """Ask to be woken at ``at`` (the earliest plan wins)."""
        if self._timer is None or at < self._timer:
            self._timer = at

    def decide(self, now: float) -> list[dict[str, Any]]:
        """The level's policy: what to send now. The view is the last one perceived."""
        raise NotImplementedError


def fresh_sign(rng: random.Random, last: str | None) -> str:
    """R8, R10: a sign for the team, never last round's."""
    return rng.choice([s for s in SIGNS if s != last])

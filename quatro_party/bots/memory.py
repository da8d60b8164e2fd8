"""A bot's memory: the last view it perceived and what a careful player knows from the public events.

Everything here was read in the seat's own messages (R36–R39): the view, and the public events — who swapped
what (R14), who emitted what (R18), the reveals (R26). From them the memory keeps, per other seat, the cards it
took and kept (a bounded memory at most levels), the ranks it gave away, its emissions this round; per seat,
how it used its channel in past rounds; the copies of each rank whose place is unknown; and ``evidence``, a
counter bumped whenever what it knows about carrés may have changed (the calls are weighed again only then).
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from ..engine.rules import RANKS, partner_of, team_of

INF = float("inf")


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


class Memory:
    """The perceived view and the facts read from public events, for the seat ``seat``.

    ``span``: how many of each other seat's latest exchanges are remembered (``None``: all of the deal; a
    partner is always watched closely). ``r6_aware``: a reader of R6 weighs its calls again after another
    seat's exchange only while some seat could hold a carré."""

    def __init__(self, seat: int, span: int | None, r6_aware: bool) -> None:
        self.seat = seat
        self.span = span
        self.r6_aware = r6_aware
        self.view: dict[str, Any] | None = None
        self.view_at = 0.0  # when that view was true (its durations count from then)
        self.n = 4  # seats at the table, from the last view
        self.round = 0
        self.facts: dict[int, SeatFacts] = {}
        self.style: dict[int, StyleStats] = {}
        self.last_signs: dict[int, str] = {}  # team -> its previous sign, public since the reveal (R10)
        self.candidates: set[int] = set()  # other seats that could hold a carré, by what they are seen keeping
        self.burnt: set[tuple[int, str]] = set()  # (team, emoji): shown this deal, released unanswered: a decoy
        self.deal_at = -INF  # when the hands were last dealt (or reshuffled)
        self.last_swap_seen = -INF  # when the last exchange of anybody was seen (or the last deal)
        self.last_my_swap = -INF  # when our own last exchange was seen (or the last deal)
        self.public_known: dict[int, str] = {}  # what the table knows of our hand: cards we took and kept
        #: Bumped whenever the evidence about carrés may have changed (a swap, an emission, a channel taken or
        #: released, a deal, a reply): calls are weighed again only then, or when time alone changes them.
        self.evidence = 0
        self.facts_gen = 0  # bumped whenever what other seats are seen keeping may change
        self.deal_version = 0  # bumped at each new deal or round: the hidden pool must be counted again
        self.pool_cache: tuple[int, dict[str, int]] | None = None  # (deal version, pool), kept up to date
        self.pool_total = 0  # sum of the cached pool
        self._centre_ranks: tuple[Any, set[str]] = (None, set())
        self._others_known: tuple[int, tuple[dict[str, int], dict[str, int]]] = (-1, ({}, {}))

    # --- what happened ------------------------------------------------------------------

    def new_round(self, number: int) -> None:
        """A new round (its sign phase) began: what was known of the last one is void."""
        self.round = number
        self.deal_version += 1
        self.facts = {}
        self.candidates.clear()
        self.facts_gen += 1

    def read(self, e: dict[str, Any], at: float) -> bool:
        """Read one public event, seen at ``at``. True when the policy must hear of it too: our own exchange,
        or new hands (a deal or a reshuffle)."""
        kind = e["type"]
        if kind == "swapped":
            seat, put, took = e["seat"], e["put"], e["took"]
            self.last_swap_seen = at
            if seat == self.seat:
                # our own exchange moves cards between places we see: the hidden pool is unchanged
                self.evidence += 1
                self.public_known.pop(put["id"], None)
                self.public_known[took["id"]] = took["rank"]
                self.last_my_swap = at
                return True
            f = self.facts.get(seat)
            if f is None:
                f = self.facts[seat] = SeatFacts()
            was = seat in self.candidates
            span = self.span
            if span is not None and seat != (self.seat + self.n // 2) % self.n:  # a partner is watched closely
                f.recent.append(took["id"])
                if len(f.recent) > span:
                    self._forget_card(f, f.recent.popleft())
            self.facts_gen += 1
            known = f.known
            if known.pop(put["id"], None) is None:  # a hidden card came to light: the hidden pool shrank
                pool = self.pool_cache
                if pool is not None and pool[0] == self.deal_version:
                    pool[1][put["rank"]] -= 1  # counting it again from the view would find exactly this
                    self.pool_total -= 1
            rank = took["rank"]
            known[took["id"]] = rank
            f.mixed = len(set(known.values())) > 1
            f.put[put["rank"]] = f.put.get(put["rank"], 0) + 1
            f.last_swap = at
            if not f.mixed and len(known) >= 2:  # _candidate, inlined (every swap, read by every bot)
                self.candidates.add(seat)
            else:
                self.candidates.discard(seat)
            # may this exchange change our calls? A reader of R6 weighs them again only while some seat could
            # hold a carré (its odds follow the pool), or when the partner swapped
            if not self.r6_aware or was or self.candidates or seat == partner_of(self.seat, self.n):
                self.evidence += 1
            return False
        self.evidence += 1
        if kind == "emitted":
            seat = e["seat"]
            if seat != self.seat:
                self._seat_facts(seat).emitted.append((at, e["emoji"]))
            return False
        if kind in ("channel_taken", "channel_released"):
            if kind == "channel_released" and e["seat"] != self.seat:
                self._burn(e["seat"])
            return False
        self.deal_version += 1  # new cards or a new round: every card inference must be redone
        if kind in ("dealt", "reshuffled"):  # R27, R31: every hand is new, what we knew is void
            self.facts_gen += 1
            self.candidates.clear()
            self.last_swap_seen = at
            for f in self.facts.values():
                f.known.clear()
                f.recent.clear()
                f.mixed = False
                f.put.clear()
                f.last_swap = None
            self.burnt = set()
            self.deal_at = at
            self.public_known = {}
            self.last_my_swap = at
            return True
        if kind == "round_ended":
            self._learn(e.get("result") or {})
        if kind in ("sign_phase_opened", "round_ended"):
            self.burnt = set()
        return False

    def _seat_facts(self, seat: int) -> SeatFacts:
        f = self.facts.get(seat)
        if f is None:
            f = self.facts[seat] = SeatFacts()
        return f

    def _candidate(self, seat: int, f: SeatFacts) -> None:
        """R6: keep the set of other seats that could hold a carré (one rank kept, two copies or more)."""
        if not f.mixed and len(f.known) >= 2:
            self.candidates.add(seat)
        else:
            self.candidates.discard(seat)

    def _burn(self, seat: int) -> None:
        """Another seat released its channel, unanswered: the emojis its team showed this deal were decoys."""
        f = self.facts.get(seat)
        if f is not None and self.view is not None:
            team = team_of(seat, self.n)
            for t, emoji in f.emitted:
                if t >= self.deal_at:
                    self.burnt.add((team, emoji))

    def _forget_card(self, f: SeatFacts, card: int) -> None:
        """Bounded memory: the bot no longer remembers that this seat took ``card`` (it is hidden again)."""
        rank = f.known.pop(card, None)
        if rank is None:
            return  # given back since: nothing to forget
        f.mixed = len(set(f.known.values())) > 1
        self.facts_gen += 1
        for seat, g in self.facts.items():
            if g is f:
                self._candidate(seat, f)
        pool = self.pool_cache
        if pool is not None and pool[0] == self.deal_version:
            pool[1][rank] += 1
            self.pool_total += 1

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
        self.facts_gen += 1

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

    def partner(self) -> int:
        """R2: our partner's seat."""
        return partner_of(self.seat, self.n)

    def team_of(self, seat: int) -> int:
        """R2: the team of ``seat``."""
        return team_of(seat, self.n)

    def centre_ranks(self) -> set[str]:
        """The ranks the centre of the perceived view shows (computed once per view)."""
        view = self.view
        assert view is not None
        if self._centre_ranks[0] is not view:
            self._centre_ranks = (view, {c["rank"] for c in view.get("centre") or ()})
        return self._centre_ranks[1]

    def channel_of(self, seat: int) -> dict[str, Any]:
        assert self.view is not None
        return self.view["seats"][seat]["channel"]

    def is_human(self, seat: int) -> bool:
        assert self.view is not None
        return self.view["seats"][seat]["kind"] == "human"

    # --- inference ------------------------------------------------------------------------

    def unknown_pool(self) -> dict[str, int]:
        """Copies of each rank whose place is unknown to this seat (hidden in other hands)."""
        if self.pool_cache is not None and self.pool_cache[0] == self.deal_version:
            return self.pool_cache[1]
        view = self.perceived
        ranks = RANKS[: self.n + 1]
        pool = {r: 4 for r in ranks}
        for c in list(self.you.get("hand") or []) + list(view.get("centre") or []):
            pool[c["rank"]] -= 1
        for f in self.facts.values():
            for r in f.known.values():
                pool[r] -= 1
        self.pool_cache = (self.deal_version, pool)
        self.pool_total = sum(pool.values())
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
        total = self.pool_total
        if total < hidden:
            return 0.0, None
        # one ratio of small binomials: cheaper than any cache of it
        return math.comb(max(pool.get(rank, 0), 0), hidden) / math.comb(total, hidden), rank

    def others_known(self) -> tuple[dict[str, int], dict[str, int]]:
        """Copies of each rank other seats are seen keeping: (opponents, partner). Counted again only when
        what other seats keep changed (``facts_gen``)."""
        cached = self._others_known
        if cached[0] == self.facts_gen:
            return cached[1]
        opp: dict[str, int] = {}
        mate: dict[str, int] = {}
        partner = self.partner()
        for seat, f in self.facts.items():
            bucket = mate if seat == partner else opp
            for r in f.known.values():
                bucket[r] = bucket.get(r, 0) + 1
        self._others_known = (self.facts_gen, (opp, mate))
        return opp, mate

    def partner_signalled(self) -> bool:
        """The partner emitted our sign since the last deal (R18): by our convention, a carré."""
        sign = self.you.get("sign")
        if not sign:
            return False
        f = self.facts.get(self.partner())
        return bool(f and any(t >= self.deal_at and e == sign for t, e in f.emitted))

    def holds_fresh(self, seat: int) -> str | None:
        """The emoji ``seat`` shows on its held channel, if it could be its team's sign (R10 rules out last
        round's sign, public since the reveal), else ``None``."""
        channel = self.channel_of(seat)
        emoji = channel.get("emoji")
        if not channel.get("held") or emoji is None or emoji == self.last_signs.get(self.team_of(seat)):
            return None
        return emoji

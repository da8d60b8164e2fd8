"""The three bot levels. Each one's swap rule of thumb fits in one sentence (its docstring says it).

Shared policy (:class:`PlayingBot`), in the order a careful player thinks:

1. **Calls.** "Quatro!" when the partner shows the team sign (R22); normal and hard also "Contre!" an
   opposing team whose carré looks likely enough (R24). A call ends the round (R26), so it comes first.
2. **Channel.** Holding a carré, show the true sign at once (take the channel and choose it in one go,
   R17–R18); the partner answers with "Quatro!". Emissions are public, so the opponents see it too: the
   carré team wins a *race* between the partner's Quatro and an opponent's Contre. Decoys (R20), shown
   while *not* holding a carré, bait opponents who read every fresh emoji as a sign into false Contres.
3. **Swaps.** Collect one rank (R14–R16), one exchange per cooldown (R15), with a level-dependent hesitation.

Never: vote or ask for a reshuffle (R30), pick the sign before a human partner (R13).

Why this play (game theory, checked with ``python -m quatro_party.simulate``):

* Emissions are public, so showing the true sign starts a race: the partner's Quatro against *two*
  opponents' Contres. Between hard bots that never bluff, 3 rounds in 4 end with the Contre.
* What saves the sign is doubt. A decoy right after an exchange that *could* have completed a carré, with the
  bot standing still afterwards as a carré holder must, looks exactly like the real thing: opponents who Contre
  on it hand us the point (R24). Hard bots that bluff this way win 92 % of games against otherwise identical
  hard bots that never bluff (200 games, duplicate deals), and their true signs are then trusted less.
* Contre early: a round left running usually ends with the other team's Quatro, so calling at a belief of
  0.4 pays (0.3 and 0.5 are within noise in the simulator; hard bots waiting for 0.7 win 15 % of games).
* Readers must learn: hard scores every seat's fresh emojis at each reveal (R26) as sign or decoy and trusts
  that seat's next emoji accordingly; an emoji shown earlier this deal and left unanswered by the partner is
  a known decoy.
"""

from __future__ import annotations

import math
from typing import Any

from ..engine.rules import SIGNS
from .core import Bot, fresh_sign


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


class PlayingBot(Bot):
    """The common policy; levels tune the knobs and override the judgement hooks."""

    #: Contre when an opposing team's carré looks at least this likely (``None``: never Contre).
    contre_threshold: float | None = None
    #: Track public swaps to avoid ranks other seats are hoarding.
    tracks_cards = False
    #: Seconds without a useful exchange before collecting something else (unblocks the table).
    stuck_after = 8.0
    #: Ranges for decoys: (probability per round, first at (lo, hi) s after the deal, gap (lo, hi) s).
    decoy_chance = 0.0
    decoy_first = (8.0, 30.0)
    decoy_gap = (12.0, 25.0)
    decoy_hold = (2.5, 4.0)
    #: Stop exchanging while a decoy is shown (as a carré holder must).
    still_while_decoying = False

    def setup(self) -> None:
        self.target: str | None = None
        self.swap_at = float("-inf")
        self.deal_at = float("-inf")
        self.last_my_swap = float("-inf")
        self.public_known: dict[int, str] = {}  # what the table knows of my hand: cards I took and kept
        self.decoy_at: float | None = None
        self.release_at: float | None = None
        self.picked_in = -1
        self._others_known: tuple[int, tuple[dict[str, int], dict[str, int]]] = (-1, ({}, {}))
        self._waiting: tuple[float, tuple] | None = None  # (until, what was in sight): see swap()

    def on_new_round(self) -> None:
        self.target = None
        self._waiting = None
        self.decoy_at = None
        self.release_at = None

    # perception hooks: our own swaps, the deal, refusals
    def _event(self, e: dict[str, Any], at: float) -> None:
        super()._event(e, at)
        kind = e.get("type")
        if kind in ("dealt", "reshuffled"):
            self.deal_at = at
            self.public_known = {}
            self.target = None
            self._waiting = None
            self.swap_at = float("-inf")
            self.last_my_swap = at
            if kind == "dealt":
                self._schedule_decoy(at)
        elif kind == "swapped" and e["seat"] == self.seat:
            self.public_known.pop(e["put"]["id"], None)
            self.public_known[e["took"]["id"]] = e["took"]["rank"]
            self.last_my_swap = at
            self._waiting = None
            self.on_own_swap(e["took"]["rank"], at)

    def on_own_swap(self, took: str, at: float) -> None:
        """Hook for levels: we just saw our own exchange go through (a carré is completed at such moments)."""

    def _reply(self, msg: dict[str, Any], at: float) -> None:
        super()._reply(msg, at)
        if msg.get("type") == "refused" and msg.get("reason") in ("card_taken", "not_your_card", "no_such_place"):
            self.swap_at = min(self.swap_at, at)  # R16: costs nothing, look again

    def _schedule_decoy(self, dealt_at: float) -> None:
        if self.decoy_chance and self.rng.random() < self.decoy_chance:
            self.decoy_at = dealt_at + self.rng.uniform(*self.decoy_first) * self.time_scale
        else:
            self.decoy_at = None

    # --- the policy -------------------------------------------------------------------

    def decide(self, now: float) -> list[dict[str, Any]]:
        view = self.view
        if view is None:
            return []
        phase = view["phase"]
        if phase == "sign":
            return self.sign_phase(now)
        if phase != "play" or not view["you"].get("hand"):
            return []
        # a plan coming due (the swap cooldown is over) is carried out: the calls were weighed at the last look
        call = self.calls(now) if self.rethink else None
        if call is not None:
            self.decided_call = True
            return [call]
        return self.channel(now) + self.swap(now)

    def sign_phase(self, now: float) -> list[dict[str, Any]]:
        """R13: pick only when the partner is a bot too (the lower seat of the team picks, to avoid a clash)."""
        you = self.you
        partner = self.partner()
        if you.get("sign") is not None or self.is_human(partner) or self.seat > partner or self.picked_in == self.round:
            return []
        self.picked_in = self.round  # once a round: a refusal means the partner (or R12) settled it
        return [self.send("pick_sign", now, sign=fresh_sign(self.rng, you.get("last_sign")))]

    # calls ---------------------------------------------------------------------------

    def partner_signalled(self) -> bool:
        """The partner emitted our sign since the last deal (R18): by our convention, a carré."""
        sign = self.you.get("sign")
        if not sign:
            return False
        f = self.facts.get((self.seat + self.n // 2) % self.n)
        return bool(sign and f and any(t >= self.deal_at and e == sign for t, e in f.emitted))

    def wants_quatro(self, now: float) -> bool:
        return self.partner_signalled()

    def seat_belief(self, seat: int, now: float) -> float:
        """How likely ``seat`` holds a carré, from public facts. Levels override."""
        return self.carre_odds(seat)[0]

    def team_belief(self, team: int, now: float) -> float:
        p_none = 1.0
        for seat in self.team_seats(team):
            p_none *= 1.0 - self.seat_belief(seat, now)
        return 1.0 - p_none

    def calls(self, now: float) -> dict[str, Any] | None:
        if self.decided_call or (self._pending and (self.pending("call_quatro") or self.pending("call_contre"))):
            return None
        mine = bool(self.you.get("has_carre"))
        if self.wants_quatro(now):
            return self.send("call_quatro", now, confirmed=mine)  # R23: confirmed only when we hold one too
        if self.contre_threshold is None:
            return None
        half = self.n // 2
        my_team = self.seat % half
        best, accused = 0.0, None
        belief = self.seat_belief
        facts = self.facts
        for team in range(half):
            if team != my_team:
                # team_belief, inlined (the hottest loop of a bot): the same arithmetic in the same order.
                # A seat seen nothing of, or keeping two ranks, has belief 0 at every level that Contres.
                fa, fb = facts.get(team), facts.get(team + half)
                pa = 0.0 if fa is None or fa.mixed else belief(team, now)
                pb = 0.0 if fb is None or fb.mixed else belief(team + half, now)
                p = 1.0 - (1.0 * (1.0 - pa)) * (1.0 - pb)
                if p > best:
                    best, accused = p, team
        threshold = self.contre_threshold + (0.25 if mine else 0.0)  # our Quatro is coming: be surer
        if accused is not None and best >= threshold:
            return self.send("call_contre", now, team=accused)
        return None

    # channel ---------------------------------------------------------------------------

    def channel(self, now: float) -> list[dict[str, Any]]:
        you = self.you
        sign = you.get("sign")
        held = self.channel_of(self.seat)["held"]
        choice = you.get("channel_choice")
        if self._pending and (
            self.pending("take_channel") or self.pending("release_channel") or self.pending("choose_emoji")
        ):
            return []
        if you.get("has_carre") and sign:
            self.decoy_at = self.release_at = None
            if held and choice == sign:
                return []
            if not self.perceived["seats"][self.partner()]["connected"]:
                # R33: nobody can answer the sign, but the opponents would read it: keep the carré quiet
                # (and keep it: the partner may come back, then we show it)
                return []
            if held:
                self.my_fresh.append(sign)
                return [self.send("choose_emoji", now, emoji=sign)]
            if now < self.channel_block_until:
                self.plan(self.channel_block_until)
                return []
            self.my_fresh.append(sign)
            return [self.send("take_channel", now), self.send("choose_emoji", now, emoji=sign)]
        if held and (
            choice == sign
            or (self.release_at is not None and now >= self.release_at)
            or (self.release_at is None and self.decoy_at is None)
        ):
            # no carré (any more, e.g. after a reshuffle): stop showing the sign or the decoy
            if now < self.channel_block_until:
                self.plan(self.channel_block_until)
                return []
            self.release_at = None
            return [self.send("release_channel", now)]
        if held and self.release_at is not None:
            self.plan(self.release_at)
            return []
        if self.decoy_at is not None and not held:
            if now < self.decoy_at or now < self.channel_block_until:
                self.plan(max(self.decoy_at, self.channel_block_until))
                return []
            if not self.decoy_credible():
                self.decoy_at = now + self.rng.uniform(2.0, 5.0) * self.time_scale
                self.plan(self.decoy_at)
                return []
            decoy = self.pick_decoy()
            self.my_fresh.append(decoy)
            self.release_at = now + self.rng.uniform(*self.decoy_hold) * self.time_scale
            again = self.rng.uniform(*self.decoy_gap) * self.time_scale
            self.decoy_at = now + again if self.decoy_repeats() else None
            self.plan(self.release_at)
            return [self.send("take_channel", now), self.send("choose_emoji", now, emoji=decoy)]
        return []

    def decoy_credible(self) -> bool:
        """A decoy fools only if the table could believe we hold a carré: what we are seen keeping is one rank."""
        return len(set(self.public_known.values())) <= 1

    def decoy_repeats(self) -> bool:
        return False

    def pick_decoy(self) -> str:
        """R20: any emoji but our sign (the partner would call!) and but last round's sign (public, R10)."""
        banned = {self.you.get("sign"), self.you.get("last_sign"), *self.my_fresh}
        return self.rng.choice([s for s in SIGNS if s not in banned])

    # swaps -----------------------------------------------------------------------------

    def others_known(self) -> tuple[dict[str, int], dict[str, int]]:
        """Copies of each rank other seats are seen keeping: (opponents, partner). Counted again only when
        what other seats keep changed (see ``Bot._facts_gen``)."""
        cached = self._others_known
        if cached[0] == self._facts_gen:
            return cached[1]
        opp: dict[str, int] = {}
        mate: dict[str, int] = {}
        partner = self.partner()
        for seat, f in self.facts.items():
            bucket = mate if seat == partner else opp
            for r in f.known.values():
                bucket[r] = bucket.get(r, 0) + 1
        self._others_known = (self._facts_gen, (opp, mate))
        return opp, mate

    def rank_score(
        self, rank: str, mine: dict[str, int], centre: dict[str, int], opp: dict[str, int], mate: dict[str, int]
    ) -> float:
        """How promising collecting ``rank`` is. Levels override."""
        return mine.get(rank, 0) + 0.5 * centre.get(rank, 0)

    def give_score(self, rank: str, mine: dict[str, int], opp: dict[str, int], mate: dict[str, int]) -> float:
        """How much we would rather keep a card of ``rank`` (lowest is given away)."""
        return float(mine.get(rank, 0))

    def swap(self, now: float) -> list[dict[str, Any]]:
        if self.you.get("has_carre") or self.pending("swap"):
            return []
        if self.release_at is not None and self.still_while_decoying:
            self.plan(self.release_at)  # a carré holder never swaps: neither does a convincing bluff
            return []
        ready = max(self.swap_at, self.swap_block_until)
        if now < ready:
            self.plan(ready)
            return []
        view = self.perceived
        hand, centre = view["you"].get("hand"), view.get("centre")
        if not hand or not centre:
            return []
        waiting = self._waiting
        if waiting is not None and now < waiting[0]:
            # Nothing for us in the centre last time: with the same cards in sight and the same facts, the same
            # target wins again (it holds the 0.3 bonus now), so the same wait follows, without rolling dice.
            key = (tuple(c["id"] for c in hand), tuple(c["id"] for c in centre), self._facts_gen)
            if key == waiting[1]:
                self.plan(waiting[0])
                return []
        self._waiting = None
        mine, in_centre = self.counts(hand), self.counts(centre)
        opp, mate = self.others_known() if self.tracks_cards else ({}, {})
        ranks = sorted(set(mine) | set(in_centre))
        self.rng.shuffle(ranks)  # ties broken by our own dice, not by rank order
        rank_score = self.rank_score
        base = {r: rank_score(r, mine, in_centre, opp, mate) for r in ranks}

        def score(r: str) -> float:
            return base[r] + (0.3 if r == self.target else 0.0)  # the target of the moment is favoured

        self.target = max(ranks, key=score)
        want = self.target
        if not in_centre.get(want):
            # nothing for us in the centre: after a while collect what the centre offers (no dead tables)
            stuck = self.stuck_after * self.time_scale
            if now - self.last_my_swap < stuck:
                until = self.last_my_swap + stuck
                self._waiting = (until, (tuple(c["id"] for c in hand), tuple(c["id"] for c in centre), self._facts_gen))
                self.plan(until)
                return []
            offered = [r for r in ranks if in_centre.get(r)]
            if not offered:
                return []
            want = max(offered, key=score)
        givable = [c for c in hand if c["rank"] != want]
        if not givable:
            return []
        self.rng.shuffle(givable)
        give = min(givable, key=lambda c: self.give_score(c["rank"], mine, opp, mate))
        places = [i for i, c in enumerate(centre) if c["rank"] == want]
        place = self.rng.choice(places)
        cooldown = float(self.perceived["timing"]["swap_cooldown"])
        self.swap_at = now + cooldown + self.rng.uniform(*self.swap_hesitation) * self.time_scale
        self.plan(self.swap_at)
        return [self.send("swap", now, card=give["id"], place=place, expected=centre[place]["id"])]


class EasyBot(PlayingBot):
    """Easy: slow and honest. Swap rule: collect the rank you hold most of, taking any copy the centre shows.

    Emits the true sign only when holding a carré, calls Quatro when the partner shows the team sign,
    never calls Contre and never plays decoys.
    """

    level = "easy"
    reaction_mean = 1.9
    reaction_spread = 0.45
    swap_hesitation = (0.6, 2.0)
    look_gap = (1.2, 2.2)
    idle_look = 2.5
    stuck_after = 12.0


class NormalBot(PlayingBot):
    """Normal: human pace. Swap rule: collect the rank you hold most of, unless other seats are seen hoarding it.

    Tracks what every seat takes and gives; emits a decoy in some rounds; calls Contre when an opponent shows
    a fresh emoji that could be its sign while what it keeps allows a carré (it reads emojis at face value
    until a reveal shows that seat bluffs).
    Reads a human partner's emissions too, but not when the cards the partner keeps make a carré impossible.
    """

    level = "normal"
    reaction_mean = 1.2
    reaction_spread = 0.22
    swap_hesitation = (0.2, 0.9)
    look_gap = (0.9, 1.5)
    idle_look = 1.5
    tracks_cards = True
    contre_threshold = 0.6
    decoy_chance = 0.3

    def rank_score(self, rank, mine, centre, opp, mate) -> float:
        return mine.get(rank, 0) + 0.5 * centre.get(rank, 0) - 0.6 * (opp.get(rank, 0) + mate.get(rank, 0))

    def wants_quatro(self, now: float) -> bool:
        if not self.partner_signalled():
            return False
        partner = self.partner()
        return not self.is_human(partner) or self.carre_odds(partner)[0] > 0.0

    def fresh_candidates(self, seat: int) -> list[tuple[float, str]]:
        """The seat's emissions since the deal that could be its team's sign (R10 rules out last round's)."""
        f = self.facts.get(seat)
        if not f or not f.emitted:
            return []
        last = self.last_signs.get(self.team_of(seat))
        return [(t, e) for t, e in f.emitted if t >= self.deal_at and e != last]

    def seat_belief(self, seat: int, now: float) -> float:
        f = self.facts.get(seat)
        if f is None or f.mixed or (not f.emitted and len(f.known) < 3):
            return 0.0  # keeps two ranks, or too little seen to act on without a sign (saves work)
        fresh = self.fresh_candidates(seat)
        if not fresh and len(f.known) < 3:
            return 0.0  # two hidden cards or more: too unlikely to act on without a sign (saves work)
        p0, _ = self.carre_odds(seat)
        if p0 <= 0.0:
            return 0.0
        if not fresh:
            return p0
        style = self.style.get(seat)
        # face value, until the reveals show this seat bluffs: then only as often as its emojis were signs
        return 0.8 if style is None or not style.decoy_emissions else 0.8 * style.trust(0.8)


class HardBot(NormalBot):
    """Hard: quick and cunning. Swap rule: collect the rank with the most copies within reach (yours plus the
    centre's) that no opponent is hoarding, and never hand an opponent the rank it collects.

    Infers carrés from the evidence a careful human uses — which cards each seat keeps, how long it has stopped
    swapping, which fresh emojis it shows and whether its partner answered them, and how each seat used its
    channel in past rounds (learnt at every reveal) — and calls Contre on a confidence threshold. Plays decoys
    to bait false Contres, and calls Quatro without a sign when the partner's kept cards prove a carré.
    """

    level = "hard"
    reaction_mean = 0.85
    reaction_spread = 0.1
    swap_hesitation = (0.05, 0.4)
    look_gap = (0.7, 1.1)
    idle_look = 1.0
    stuck_after = 3.0  # simulator: 57–59 % of games against 6.0 (500 games, two seed ranges)
    contre_threshold = 0.4
    #: A fresh emoji that the emitter's partner did not answer within this long was a decoy.
    answered_within = 3.5
    #: Prior probability that a fresh emoji is a sign, before any reveal taught us a seat's style.
    sign_prior = 0.6

    #: Chance of a bluff each time our own exchange leaves us looking like a fresh carré, and the most per deal.
    bluff_chance = 0.9
    bluffs_per_deal = 3
    still_while_decoying = True

    def setup(self) -> None:
        super().setup()
        self.bluffs = 0
        self.own_swap: tuple[str, float] | None = None
        self.team_first: dict[tuple[int, str], float] = {}  # (team, emoji) -> first shown this deal
        self.fresh_at: dict[int, float] = {}  # seat -> when it last showed an emoji that may be its sign

    def _schedule_decoy(self, dealt_at: float) -> None:
        self.decoy_at = None  # hard bluffs at the right moments instead of on a timer
        self.bluffs = 0

    def on_own_swap(self, took: str, at: float) -> None:
        self.own_swap = (took, at)  # judged in decide(), once the view after the exchange is read

    def decide(self, now: float) -> list[dict[str, Any]]:
        if self.own_swap is not None and self.view and self.view["phase"] == "play":
            took, at = self.own_swap
            self.own_swap = None
            self.consider_bluff(took, at)
        return super().decide(now)

    def consider_bluff(self, took: str, at: float) -> None:
        """The bluff: the exchange that completes a carré looks like this one, and the sign would follow it
        after one reaction delay. Show a decoy then, and stay still like a carré holder: an opponent who reads
        every fresh emoji as a sign calls a false Contre (R24: the point is ours)."""
        kept = list(self.public_known.values())
        mine = sum(1 for c in self.hand() if c["rank"] == took)
        if (
            kept
            and set(kept) == {took}
            and mine >= 2
            and not self.you.get("has_carre")
            and self.bluffs < self.bluffs_per_deal
            and self.rng.random() < self.bluff_chance
        ):
            self.bluffs += 1
            self.decoy_at = at

    def decoy_credible(self) -> bool:
        return True  # checked when the bluff was decided

    def rank_score(self, rank, mine, centre, opp, mate) -> float:
        return mine.get(rank, 0) + 0.6 * centre.get(rank, 0) - 0.9 * opp.get(rank, 0) - 0.6 * mate.get(rank, 0)

    def give_score(self, rank, mine, opp, mate) -> float:
        return mine.get(rank, 0) + 0.8 * min(opp.get(rank, 0), 2) - 0.3 * min(mate.get(rank, 0), 2)

    def wants_quatro(self, now: float) -> bool:
        # every card of the partner's carré is accounted for: only possible once it is seen keeping one rank
        # (checked first: both tests are pure, and this one is cheaper)
        partner = self.partner()
        f = self.facts.get(partner)
        if f is not None and f.known and not f.mixed and self.carre_odds(partner)[0] >= 0.999:
            return True
        return super().wants_quatro(now)

    #: Remember each team's unanswered emojis as decoys: their later emissions are no evidence.
    burns_decoys = True

    def window(self, seat: int) -> float:
        """How long an emoji from ``seat`` stays a possible sign: until its partner should have answered."""
        partner = (seat + self.n // 2) % self.n
        return self.answered_within * (2.5 if self.is_human(partner) else 1.0) * self.time_scale

    def _event(self, e: dict[str, Any], at: float) -> None:
        super()._event(e, at)
        kind = e.get("type")
        if kind in ("dealt", "reshuffled", "sign_phase_opened", "round_ended"):
            self.team_first = {}
            self.fresh_at = {}
        elif kind == "emitted" and e["seat"] != self.seat:
            # Sign evidence, kept up to date as emojis come (cheaper than rereading every emission at each look):
            # a fresh emoji may be the team's sign unless it was last round's (R10) or the team showed it
            # earlier this deal and its partner did not answer (then it was a decoy).
            seat, emoji = e["seat"], e["emoji"]
            team = seat % (self.n // 2)
            first = self.team_first.setdefault((team, emoji), at)
            if emoji != self.last_signs.get(team) and (not self.burns_decoys or at - first <= self.window(seat)):
                self.fresh_at[seat] = at

    def seat_belief(self, seat: int, now: float) -> float:
        f = self.facts.get(seat)
        if f is None or f.mixed:
            return 0.0  # keeps two ranks: no carré now
        if len(f.known) < 2:
            if not f.emitted:
                return 0.0  # three hidden cards and no sign: nothing to act on (saves work)
            fresh_at = self.fresh_at.get(seat)
            if fresh_at is None:
                return 0.0  # three hidden cards: far too unlikely to act on without a sign (saves work)
        else:
            fresh_at = self.fresh_at.get(seat)
        # What depends only on the cards (the odds, the kept copies) is computed once per card move: cached on
        # the seat's facts, valid while the seat's own cards (f.version) and the hidden copies of its rank and
        # in all (which the odds are a ratio of) stay the same; for a seat seen keeping nothing, once per pool.
        static = f.belief
        if f.known:
            rank = next(iter(f.known.values()))
            key: tuple = (f.version, self.unknown_pool().get(rank, 0), self._pool_total)
        else:
            key = (f.version, -1, self._version)
        if static is None or static[0] != key:
            p0, of = self.carre_odds(seat)
            if p0 <= 0.0 or of is None:
                static = f.belief = (key, None, p0, 0.0, 0, False, 0.0)
            else:
                kept = sum(1 for r in f.known.values() if r == of)
                lo = _logit(p0)
                static = f.belief = (key, of, p0, lo, kept, kept >= 2 and not f.put.get(of), _sigmoid(lo))
        _, rank, p0, lo, kept, collector, p_cards = static
        if rank is None:
            return 0.0
        if collector:
            # a collector of `rank`: it gave away everything else; it stops swapping once complete
            idle = now - (f.last_swap if f.last_swap is not None else self.deal_at)
            centre_has = rank in self.centre_ranks()
            lo += 0.6 * kept + min(4.0, max(0.0, idle / self.time_scale - 4.0) * (0.8 if centre_has else 0.3))
            p_cards = 1.0 / (1.0 + math.exp(-lo))  # _sigmoid
        if fresh_at is not None and now - fresh_at <= self.window(seat):  # not yet answered: could be the sign
            style = self.style.get(seat)
            trust = style.trust(self.sign_prior) if style else self.sign_prior
            p_emit = trust * min(1.0, 0.3 + 20 * p0)
            return 1.0 - (1.0 - p_cards) * (1.0 - p_emit)
        return 1.0 - (1.0 - p_cards) * (1.0 - 0.0)

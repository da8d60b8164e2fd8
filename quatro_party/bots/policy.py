"""The policy every bot level shares (:class:`PlayingBot`); the levels (:mod:`.levels`) tune its knobs and
override its judgement hooks.

In the order a careful player thinks:

1. **Calls.** "Quatro!" when the partner shows the team sign (R22); "Contre!" on an opposing team by the
   level's rule (R24). A call ends the round (R26), so it comes first. Every call pays the phone's motor costs:
   the button is held :data:`~.core.CALL_HOLD` before it fires, at 6 and 8 seats a Contre then names its team in
   a picker, and a Quatro from a player who holds a carré too is confirmed in the phone's R23 question. A
   Quatro the server refused for that reason (the bot's own exchange completed a carré after the glance it
   called on) is confirmed and sent again, as a player answers the question.
2. **Channel.** Holding a carré, show the true sign (take the channel, then choose the emoji a beat later,
   R17–R18); the partner answers with "Quatro!". Decoys (R20) are shown only at moments a carré could have
   been completed: right after an exchange that leaves the bot seen keeping two or more copies of one rank
   (R6: no hand can hold a carré with fewer), with the same delay a true sign would have, standing still as a
   carré holder must, then released.
3. **Swaps.** Collect one rank (R14–R16), one exchange per cooldown (R15) plus the level's pace.

Readers know R6 too: a sign from a seat seen keeping fewer than two cards of one rank (or two ranks) is
impossible, so it is never answered with a Contre.

Never: vote or ask for a reshuffle (R30), pick the sign before a human partner (R13). Two bot partners pick
their sign themselves (both try at once: the first pick fixes it, R8), whenever the sign phase leaves them the time.
"""

from __future__ import annotations

from typing import Any

from ..engine.rules import SIGNS
from .core import CALL_HOLD, MIN_EMOJI_BEAT, Bot, fresh_sign

INF = float("inf")


class PlayingBot(Bot):
    """The common policy; levels tune the knobs and override the judgement hooks."""

    #: Seconds after the swap cooldown before the next exchange (uniform range): the level's pace.
    swap_pace = (0.5, 1.5)
    #: Seconds without a useful exchange before collecting something else (unblocks the table).
    stuck_after = 8.0
    #: Track public swaps to avoid ranks other seats are hoarding.
    tracks_cards = False
    #: Motor costs (uniform ranges, seconds): the second tap that chooses the emoji after taking the channel,
    #: the team picker of a Contre at 6 and 8 seats, the R23 confirmation.
    emoji_beat = (0.5, 1.0)
    picker_beat = (0.5, 1.0)
    confirm_beat = (0.5, 1.0)
    #: Hesitation between seeing one's own carré and taking the channel for the sign (uniform range, seconds).
    sign_hesitation = (0.1, 0.5)
    #: Contre a team once it has looked guilty this long (uniform range, seconds), at a belief of at least
    #: ``contre_threshold`` (``None``: never Contre).
    contre_threshold: float | None = None
    guilt_wait = (0.0, 0.0)
    #: The level's reader knows R6 (no carré without two copies taken and kept, nor with two ranks kept).
    r6_aware = False
    #: Decoys: chance at each credible moment, at most so many per deal, held this long (uniform, seconds).
    decoy_chance = 0.0
    decoy_chance_big = 0.0  # at 6 and 8 seats
    decoys_per_deal = 1
    decoy_hold = (2.5, 4.0)
    #: Stand still while a decoy is shown, as a carré holder must (a naive bluffer keeps swapping).
    still_while_decoying = True

    def setup(self) -> None:
        self.target: str | None = None
        self.swap_at = -INF
        self.deal_at = -INF
        self.last_my_swap = -INF
        self.public_known: dict[int, str] = {}  # what the table knows of my hand: cards I took and kept
        self.decoy_at: float | None = None
        self.decoy_emoji: str | None = None
        self.release_at: float | None = None
        self.decoys = 0
        self.sign_at: float | None = None  # when the true sign will be shown (after the hesitation)
        self.emoji_plan: tuple[float, str] | None = None  # the emoji to choose once the tray is open
        self.call_plan: tuple[float, str, dict[str, Any]] | None = None  # a call whose button is held
        self.guilty: dict[int, float] = {}  # team -> when its Contre is due (it looks guilty since a while)
        self._weighed = -1  # the evidence the calls were last weighed on
        self._recheck = INF  # when time alone may change that weighing
        # our exchanges sent and not refused, by id: (sent at, card given, card taken, place). A player knows
        # the cards they just swapped before the table shows it: decisions read the hand and centre as these
        # exchanges left them (see own_hand), not only as last perceived.
        self.my_moves: dict[str, tuple[float, int, dict[str, Any], int]] = {}
        self.picked_in = -1
        self._others_known: tuple[int, tuple[dict[str, int], dict[str, int]]] = (-1, ({}, {}))
        self._waiting: tuple[float, tuple] | None = None  # (until, what was in sight): see swap()

    def on_new_round(self) -> None:
        self.target = None
        self._waiting = None
        self.decoy_at = self.release_at = self.sign_at = None
        self.emoji_plan = self.call_plan = None
        self.guilty = {}

    def _draw(self, span: tuple[float, float]) -> float:
        """A duration drawn uniformly from ``span``, scaled with the table's timing."""
        return self.rng.uniform(*span) * self.time_scale

    # perception hooks: our own swaps, the deal, refusals
    def on_own_swap_event(self, put: dict[str, Any], took: dict[str, Any], at: float) -> None:
        self.public_known.pop(put["id"], None)
        self.public_known[took["id"]] = took["rank"]
        self.last_my_swap = at
        self._waiting = None
        self.on_own_swap(took["rank"], at)

    def on_deal(self, at: float) -> None:
        self.deal_at = at
        self.public_known = {}
        self.my_moves = {}
        self.target = None
        self._waiting = None
        self.swap_at = -INF
        self.last_my_swap = at
        self.decoys = 0
        self.decoy_at = None
        self.sign_at = None
        self.guilty = {}

    def swap_matters(self, seat: int, f: Any, was_candidate: bool) -> bool:
        # a reader of R6 weighs calls again only while some seat could hold a carré (its odds follow the pool)
        return not self.r6_aware or was_candidate or bool(self.candidates) or seat == self.partner()

    def on_own_swap(self, took: str, at: float) -> None:
        """We saw our own exchange go through: a carré is completed at such moments, so a decoy is credible
        then (R6: only once the table has seen us keep two or more copies of one rank)."""
        kept = set(self.public_known.values())
        if (
            self.decoy_chance
            and self.decoys < self.decoys_per_deal
            and self.release_at is None
            and kept == {took}
            and len(self.public_known) >= 2
            and self.rng.random() < (self.decoy_chance if self.n == 4 else self.decoy_chance_big)
        ):
            self.decoys += 1
            self.decoy_at = at + self._draw(self.sign_hesitation)  # when a true sign would come

    def on_refused(self, sent: dict[str, Any], reason: str, at: float) -> None:
        kind = sent.get("type")
        self.my_moves.pop(str(sent.get("id")), None)  # a refused exchange never happened
        if kind == "swap" and reason in ("card_taken", "not_your_card", "no_such_place"):
            self.swap_at = min(self.swap_at, at)  # R16: costs nothing, look again
        elif kind == "call_quatro" and reason == "confirm_own_carre":
            # R23: our own exchange completed a carré after the glance we called on. The phone asks; we confirm.
            self.decided_call = False
            seen = max(at, self.perceived_at)
            self.call_plan = (seen + self._draw(self.confirm_beat), "call_quatro", {"confirmed": True})
            self.plan(self.call_plan[0])

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
        plan = self.call_plan
        if plan is not None:  # the thumb is on the button: nothing else until the call leaves
            if now < plan[0]:
                self.plan(plan[0])
                return []
            self.call_plan = None
            self.decided_call = True
            return [self.send(plan[1], now, **plan[2])]
        if not self.decided_call and (self.evidence != self._weighed or now >= self._recheck):
            call = self.weigh_calls(now)
            if call is not None:
                kind, fields, beat = call
                self.call_plan = (now + CALL_HOLD * self.time_scale + beat, kind, fields)
                self.plan(self.call_plan[0])
                return []
            if self._recheck < INF:
                self.plan(self._recheck)
        out = self.channel(now)
        ready = self.swap_at if self.swap_at > self.swap_block_until else self.swap_block_until
        if now < ready and self.emoji_plan is None and self.release_at is None:
            if not self.you.get("has_carre") and not self.pending("swap"):
                self.plan(ready)  # what swap() would do: wait for the cooldown and our pace
            return out
        return out + self.swap(now)

    def sign_phase(self, now: float) -> list[dict[str, Any]]:
        """R13: pick only when the partner is a bot too. Both partners pick as soon as they see the sign phase
        (a human at the table may be ready quickly): the first pick fixes the sign (R8), the other is refused."""
        you = self.you
        partner = self.partner()
        if you.get("sign") is not None or self.is_human(partner) or self.picked_in == self.round:
            return []
        self.picked_in = self.round  # once a round: a refusal means the partner (or R12) settled it
        return [self.send("pick_sign", now, sign=fresh_sign(self.rng, you.get("last_sign")))]

    # calls ---------------------------------------------------------------------------

    def partner_signalled(self) -> bool:
        """The partner emitted our sign since the last deal (R18): by our convention, a carré."""
        sign = self.you.get("sign")
        if not sign:
            return False
        f = self.facts.get(self.partner())
        return bool(f and any(t >= self.deal_at and e == sign for t, e in f.emitted))

    def wants_quatro(self, now: float) -> bool:
        return self.partner_signalled()

    def team_guilt(self, team: int, now: float) -> tuple[float, float]:
        """How guilty ``team`` looks (its carré's likelihood, 0..1) and until when that holds if no evidence
        comes (time alone may change it then). Levels that Contre override :meth:`seat_guilt`."""
        p_none, until = 1.0, INF
        for seat in self.team_seats(team):
            p, u = self.seat_guilt(seat, now)
            p_none *= 1.0 - p
            until = min(until, u)
        return 1.0 - p_none, until

    def seat_guilt(self, seat: int, now: float) -> tuple[float, float]:
        return 0.0, INF

    def holds_fresh(self, seat: int) -> str | None:
        """The emoji ``seat`` shows on its held channel, if it could be its team's sign (R10 rules out last
        round's sign, public since the reveal), else ``None``."""
        channel = self.channel_of(seat)
        emoji = channel.get("emoji")
        if not channel.get("held") or emoji is None or emoji == self.last_signs.get(self.team_of(seat)):
            return None
        return emoji

    def weigh_calls(self, now: float) -> tuple[str, dict[str, Any], float] | None:
        """The call to make now, as (kind, fields, extra motor time), or ``None``. Weighed only when the evidence
        changed or time alone changes it (``_recheck``)."""
        self._weighed = self.evidence
        self._recheck = INF
        if self._pending and (self.pending("call_quatro") or self.pending("call_contre")):
            return None
        if self.wants_quatro(now):
            # R23: confirmed only when we hold one too, after the phone's question
            mine = self.holds_carre()
            return "call_quatro", {"confirmed": mine}, self._draw(self.confirm_beat) if mine else 0.0
        if self.contre_threshold is None:
            return None
        if self.r6_aware and not self.candidates:
            self.guilty.clear()  # R6: nobody is seen keeping two copies of one rank: no carré anywhere
            return None
        least = self.contre_threshold
        # our Quatro is coming: be surer. Asked only of a team guilty enough for the least threshold (seldom):
        # -1 ms of 57 per 8-hard-bot game (bench/bots.py)
        threshold: float | None = None
        half = self.n // 2
        my_team = self.seat % half
        best, accused, recheck = 0.0, None, INF
        facts = self.facts
        guilt = self.seat_guilt
        # a reader of R6 weighs only the seats that could hold a carré (Bot.candidates: seen keeping two copies
        # or more of one rank, and no other rank)
        able = self.candidates if self.r6_aware else facts
        guilty = self.guilty
        for team in range(half):
            if team == my_team:
                continue
            if team not in able and team + half not in able:
                if guilty:
                    guilty.pop(team, None)
                continue
            # team_guilt, inlined (the hottest loop of a bot: 21 % of an 8-hard-bot game's CPU is in weigh_calls)
            p_none, until = 1.0, INF
            for seat in (team, team + half):
                if seat not in able:
                    continue
                p, u = guilt(seat, now)
                p_none *= 1.0 - p
                if u < until:
                    until = u
            p = 1.0 - p_none
            if until < recheck:
                recheck = until
            if p >= least and threshold is None:
                threshold = least + (0.25 if self.holds_carre() else 0.0)
            if threshold is not None and p >= threshold:
                due = self.guilty.get(team)
                if due is None:
                    due = self.guilty[team] = now + self._draw(self.guilt_wait)
                if now >= due:
                    if p > best:
                        best, accused = p, team
                elif due < recheck:
                    recheck = due
            else:
                self.guilty.pop(team, None)
        self._recheck = recheck
        if accused is None:
            return None
        beat = self._draw(self.picker_beat) if half > 2 else 0.0  # 6 and 8 seats: the phone asks which team
        return "call_contre", {"team": accused}, beat

    # channel ---------------------------------------------------------------------------

    def channel(self, now: float) -> list[dict[str, Any]]:
        you = self.you
        sign = you.get("sign")
        held = self.channel_of(self.seat)["held"]
        choice = you.get("channel_choice")
        if self.emoji_plan is not None:
            at, emoji = self.emoji_plan
            if now < at:
                self.plan(at)
                return []
            self.emoji_plan = None
            self.my_fresh.append(emoji)
            return [self.send("choose_emoji", now, emoji=emoji)]
        if self._pending and (self.pending("take_channel") or self.pending("release_channel")):
            return []
        if you.get("has_carre") and sign:
            self.decoy_at = self.release_at = None
            if held and choice == sign:
                return []
            if not self.perceived["seats"][self.partner()]["connected"]:
                # R33: nobody can answer the sign, but the opponents would read it: keep the carré quiet
                # (and keep it: the partner may come back, then we show it)
                return []
            if self.sign_at is None:
                self.sign_at = now + self._draw(self.sign_hesitation)
            ready = max(self.sign_at, self.channel_block_until if not held else now)
            if now < ready:
                self.plan(ready)
                return []
            return self._show(sign, now, held)
        self.sign_at = None
        if held and (
            choice == sign
            or (self.release_at is not None and now >= self.release_at)
            or (self.release_at is None and self.decoy_at is None)
        ):
            # no carré (any more, e.g. after a reshuffle), or the decoy has been shown long enough
            if now < self.channel_block_until:
                self.plan(self.channel_block_until)
                return []
            self.release_at = None
            return [self.send("release_channel", now)]
        if held and self.release_at is not None:
            self.plan(self.release_at)
            return []
        if self.decoy_at is not None and not held:
            ready = max(self.decoy_at, self.channel_block_until)
            if now < ready:
                self.plan(ready)
                return []
            self.decoy_at = None
            self.release_at = now + self._draw(self.decoy_hold)
            self.plan(self.release_at)
            return self._show(self.pick_decoy(), now, False)
        return []

    def _show(self, emoji: str, now: float, held: bool) -> list[dict[str, Any]]:
        """Take the channel (unless held) and choose ``emoji`` once the tray is open (the phone's second tap)."""
        beat = max(MIN_EMOJI_BEAT, self.rng.uniform(*self.emoji_beat)) * self.time_scale
        self.emoji_plan = (now + beat, emoji)
        self.plan(now + beat)
        return [] if held else [self.send("take_channel", now)]

    def pick_decoy(self) -> str:
        """R20: any emoji but our sign (the partner would call!) and but last round's sign (public, R10)."""
        banned = {self.you.get("sign"), self.you.get("last_sign"), *self.my_fresh}
        return self.rng.choice([s for s in SIGNS if s not in banned])

    # swaps -----------------------------------------------------------------------------

    def swap_sight(self, now: float) -> tuple[list[dict[str, Any]], list[dict[str, Any]]] | None:
        """Our hand and the centre (:meth:`own_table`) once the cooldown and our pace allow an exchange, else
        ``None`` (a wake is planned for the moment they will)."""
        ready = max(self.swap_at, self.swap_block_until)
        if now < ready:
            self.plan(ready)
            return None
        hand, centre = self.own_table()
        if not hand or not centre:
            return None
        return hand, centre

    def own_table(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Our hand and the centre as our own exchanges since the perceived view left them."""
        view = self.perceived
        hand, centre = view["you"].get("hand") or [], view.get("centre") or []
        moves = self.my_moves
        if not moves:
            return hand, centre
        seen_at = self.view_at
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
        return bool(self.you.get("has_carre")) or (bool(self.my_moves) and self.own_carre())

    def own_carre(self) -> bool:
        """Do the cards we know we hold make a carré (R7)?"""
        hand, _ = self.own_table()
        if len(hand) != 4:
            return False
        rank = hand[0]["rank"]
        return hand[1]["rank"] == rank and hand[2]["rank"] == rank and hand[3]["rank"] == rank

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
        if self.emoji_plan is not None:
            return []  # the thumb is on the emoji tray
        if self.release_at is not None and self.still_while_decoying:
            self.plan(self.release_at)  # a carré holder never swaps: neither does a convincing bluff
            return []
        table = self.swap_sight(now)
        if table is None:
            return []
        hand, centre = table
        sight = None  # what is in sight: the card ids of hand and centre, with the facts seen
        waiting = self._waiting
        if waiting is not None and now < waiting[0]:
            sight = ([c["id"] for c in hand], [c["id"] for c in centre], self._facts_gen)
            if sight == waiting[1]:
                # Nothing for us in the centre last time: with the same cards in sight and the same facts, the
                # same target wins again (it holds the 0.3 bonus now), so the same wait follows, without dice.
                self.plan(waiting[0])
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
        opp, mate = self.others_known() if self.tracks_cards else ({}, {})
        ranks = sorted(mine.keys() | in_centre.keys())
        self.rng.shuffle(ranks)  # ties broken by our own dice, not by rank order
        rank_score = self.rank_score
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
            stuck = self.stuck_after * self.time_scale
            if now - self.last_my_swap < stuck:
                until = self.last_my_swap + stuck
                if sight is None:
                    sight = ([c["id"] for c in hand], [c["id"] for c in centre], self._facts_gen)
                self._waiting = (until, sight)
                self.plan(until)
                return []
            offered = [r for r in ranks if in_centre.get(r)]
            if not offered:
                return []
            want = max(offered, key=base.__getitem__)  # the target is not offered: no bonus to add
        givable = [c for c in hand if c["rank"] != want]
        if not givable:
            return []
        self.rng.shuffle(givable)
        give = min(givable, key=lambda c: self.give_score(c["rank"], mine, opp, mate))
        places = [i for i, c in enumerate(centre) if c["rank"] == want]
        place = self.rng.choice(places)
        cooldown = float(self.perceived["timing"]["swap_cooldown"])
        self.swap_at = now + cooldown + self._draw(self.swap_pace)
        self.plan(self.swap_at)
        return [self.send_swap(now, give, place, centre[place])]

    def send_swap(self, now: float, give: dict[str, Any], place: int, took: dict[str, Any]) -> dict[str, Any]:
        """The exchange message, remembered as ours until the view shows it (or it is refused)."""
        msg = self.send("swap", now, card=give["id"], place=place, expected=took["id"])
        self.my_moves[msg["id"]] = (now, give["id"], took, place)
        return msg

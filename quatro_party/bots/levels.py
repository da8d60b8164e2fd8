"""The three bot levels a host may seat: easy, normal and hard.

The levels are cut on the knobs a person at the table can see and understand: **pace** (how soon it reacts,
how often it swaps), **hesitation** (how long it waits before acting on what it saw) and **memory** (how many
of each opponent's exchanges it remembers). Each level's swap rule and call rule fit in one sentence each: its
docstring says them (the rules page repeats them).

The policy they share, and its hooks, are in :mod:`.policy`.
"""

from __future__ import annotations

import math

from .policy import INF, PlayingBot

#: (copies seen kept, hidden copies of their rank, hidden cards in all) -> HardBot's carre_odds and the logit of
#: its belief from the cards (see HardBot.seat_guilt): the same for every seat and bot, a few hundred entries.
_CARD_ODDS: dict[tuple[int, int, int], tuple[float, float]] = {}


class EasyBot(PlayingBot):
    """Easy: a first-timer's pace, slower to show its sign, and not an open book.

    Swap rule: every 2.1 to 3 seconds, collect the rank you hold most of, taking any copy the centre shows.
    Call rule: call Quatro when your partner shows your sign, and Contre only on a team whose player has shown
    the same emoji twice in a row (kept it on its channel for five seconds).

    It reacts in about 1.8 s, shows its sign after a visible hesitation (0.45–2.3 s), and in about half of
    the deals (a tenth at 6 and 8 seats) bluffs naively: a decoy held for two emissions right after its first
    kept card, before any carré is possible (R6). A careful reader ignores it; a first-timer may fall for it.
    """

    level = "easy"
    reaction_median = 1.8
    reaction_sigma = 0.25
    look_gap = (1.0, 1.8)
    # its slow eyes and its bluffs' stillness keep it slower than a newcomer (exchanges 4.5-5 s apart in median,
    # a newcomer's 3.8-3.9 s, in the ladder's easy cells); at 0.6-1.8 s a newcomer with an easy partner won 77 %
    # against two easy bots (400 games, target 65-75 %), now 71.5 %
    swap_pace = (0.1, 1.0)
    stuck_after = 7.0
    emoji_beat = (0.7, 1.4)
    picker_beat = (0.8, 1.5)
    confirm_beat = (0.8, 1.5)
    sign_hesitation = (0.45, 2.3)
    contre_threshold = 1.0
    guilt_wait = (0.0, 0.3)
    decoy_chance = 0.5
    decoy_chance_big = 0.1
    decoy_hold = (6.0, 9.0)
    #: Contre once an emoji was emitted this many times in a row (R18: every 5 s while the channel is held).
    repeats = 2

    def on_own_swap(self, took: str, at: float) -> None:
        """Easy bluffs naively: early in a deal, when its first kept card makes it look like a collector, though
        no carré is possible yet (R6). A careful reader ignores it; a first-timer may fall for it."""
        if (
            self.decoys < self.decoys_per_deal
            and self.release_at is None
            and len(self.public_known) == 1
            and self.rng.random() < (self.decoy_chance if self.n == 4 else self.decoy_chance_big)
        ):
            self.decoys += 1
            self.decoy_at = at + self._draw(self.sign_hesitation)

    def seat_guilt(self, seat: int, now: float) -> tuple[float, float]:
        emoji = self.holds_fresh(seat)
        f = self.facts.get(seat)
        if emoji is None or f is None:
            return 0.0, INF
        run = 0  # the same emoji, emitted again and again (R18: every 5 s while held)
        for t, e in reversed(f.emitted):
            if t < self.deal_at or e != emoji:
                break
            run += 1
        return (1.0 if run >= self.repeats else 0.0), INF


class NormalBot(PlayingBot):
    """Normal: human pace, and it leaves a partner the race.

    Swap rule: every 3.2 to 4.2 seconds, collect the rank you hold most of, unless other seats are seen
    keeping it.
    Call rule: call Quatro when your partner shows your sign, and Contre on a team that holds its channel on a
    fresh emoji while one of its players is seen keeping two or more cards of one rank, once it has looked
    so for 2.8 to 4 seconds.

    It reacts in about 1.45 s, reads emojis at face value (no memory of who bluffed), remembers each
    opponent's last three exchanges, and bluffs in most deals, at a credible moment (R6). A human partner's
    sign is not answered when the cards that partner keeps make a carré impossible (R6, R14).
    """

    level = "normal"
    reaction_median = 1.45
    reaction_sigma = 0.22
    look_gap = (0.8, 1.3)
    swap_pace = (1.2, 2.2)
    stuck_after = 10.0
    tracks_cards = True
    memory = 3
    emoji_beat = (0.5, 1.1)
    picker_beat = (0.6, 1.2)
    confirm_beat = (0.6, 1.1)
    sign_hesitation = (0.2, 0.8)
    contre_threshold = 0.6
    guilt_wait = (2.8, 4.0)
    r6_aware = True
    decoy_chance = 0.6
    decoy_chance_big = 0.6
    decoy_hold = (2.5, 4.5)

    def rank_score(self, rank, mine, centre, opp, mate) -> float:
        return mine.get(rank, 0) + 0.5 * centre.get(rank, 0) - 0.6 * (opp.get(rank, 0) + mate.get(rank, 0))

    def wants_quatro(self, now: float) -> bool:
        if not self.partner_signalled():
            return False
        partner = self.partner()
        return not self.is_human(partner) or self.carre_odds(partner)[0] > 0.0

    def seat_guilt(self, seat: int, now: float) -> tuple[float, float]:
        f = self.facts.get(seat)
        if f is None or f.mixed or len(f.known) < 2:
            return 0.0, INF  # R6: no carré possible, whatever it shows
        if len(f.known) == 4:
            return 1.0, INF  # every card of it was seen taken
        return (0.8 if self.holds_fresh(seat) is not None else 0.0), INF


class HardBot(NormalBot):
    """Hard: full inference at a human pace, with a bounded memory.

    Swap rule: every 3.7 to 4.5 seconds, collect the rank with the most copies within reach (yours plus the
    centre's) that no opponent is keeping, and rather not hand an opponent the rank it keeps.
    Call rule: call Quatro on your partner's sign or when the cards your partner keeps prove a carré, and
    Contre on a team once the evidence (cards kept, a stop in swapping, a fresh emoji on a held channel, how
    each player bluffed in past rounds) has made its carré at least 60 % likely for 2.8 to 3.8 seconds.

    It reacts in about 1.25 s, remembers each opponent's last four exchanges, learns every seat's bluffing at
    each reveal (R26), burns an emoji a team showed and released unanswered (a known decoy), and bluffs at
    credible moments (R6), standing still while it does, as a carré holder must (less often at 6 and 8 seats,
    where more opponents watch).
    """

    level = "hard"
    reaction_median = 1.25
    reaction_sigma = 0.18
    look_gap = (0.6, 1.0)
    # its pace is what a newcomer can match: at 1.3-2.1 s a newcomer with a hard partner won 22.8 % of games
    # against two hard bots (400 games, bench/ladder.py), at 1.7-2.5 s 29.2 % (target 25-35 %)
    swap_pace = (1.7, 2.5)
    stuck_after = 8.0
    memory = 4
    emoji_beat = (0.4, 0.8)
    picker_beat = (0.5, 0.9)
    confirm_beat = (0.5, 0.9)
    sign_hesitation = (0.1, 0.4)
    contre_threshold = 0.6
    guilt_wait = (2.8, 3.8)
    decoy_chance = 0.8
    decoy_chance_big = 0.4  # more opponents watch, and each bluff costs the exchanges it stands still for
    decoys_per_deal = 2
    decoy_hold = (2.5, 4.0)
    #: How much it would rather keep a card of a rank an opponent is seen keeping (per copy kept, up to two).
    deny = 0.4
    #: Prior probability that a fresh emoji is a sign, before any reveal taught us a seat's style.
    sign_prior = 0.6
    #: Seconds a collector has stood still before its stop counts as evidence, and the steps after that.
    idle_steps = (4.0, 6.0, 8.0)

    def setup(self) -> None:
        super().setup()
        self.burnt: set[tuple[int, str]] = set()  # (team, emoji): shown, released unanswered: a decoy

    def on_release(self, seat: int, at: float) -> None:
        f = self.facts.get(seat)
        if f is not None and self.view is not None:
            team = self.team_of(seat)
            for t, emoji in f.emitted:
                if t >= self.deal_at:
                    self.burnt.add((team, emoji))

    def on_deal(self, at: float) -> None:
        self.burnt = set()
        super().on_deal(at)

    def on_round_change(self) -> None:
        self.burnt = set()

    def rank_score(self, rank, mine, centre, opp, mate) -> float:
        return mine.get(rank, 0) + 0.6 * centre.get(rank, 0) - 0.9 * opp.get(rank, 0) - 0.6 * mate.get(rank, 0)

    def give_score(self, rank, mine, opp, mate) -> float:
        return mine.get(rank, 0) + self.deny * min(opp.get(rank, 0), 2) - 0.3 * min(mate.get(rank, 0), 2)

    def wants_quatro(self, now: float) -> bool:
        partner = self.partner()
        f = self.facts.get(partner)
        if f is None:
            return False  # nothing seen of the partner this deal: no odds, no sign
        # carre_odds is 0 unless the partner is seen keeping two copies of one rank (R6): asked only then
        if not f.mixed and len(f.known) >= 2 and self.carre_odds(partner)[0] >= 0.999:
            return True  # every card of the partner's carré was seen taken
        return bool(f.emitted) and super().wants_quatro(now)  # no emission: no sign (partner_signalled)

    def seat_guilt(self, seat: int, now: float) -> tuple[float, float]:
        f = self.facts.get(seat)
        if f is None or f.mixed or len(f.known) < 2:
            return 0.0, INF  # R6: no carré possible, whatever it shows
        # what depends on the cards only (carre_odds and its logit) is a function of three small counts: worked
        # out once for every seat and bot (-1.7 ms of 55 per 8-hard-bot game, bench/bots.py: the pool changes with
        # nearly every exchange, so a cache per seat missed half the time)
        rank = next(iter(f.known.values()))
        pool = self._pool_cache  # unknown_pool(), its cache read inline
        hidden = pool[1] if pool is not None and pool[0] == self._deal_version else self.unknown_pool()
        key = (len(f.known), hidden.get(rank, 0), self._pool_total)
        odds = _CARD_ODDS.get(key)
        if odds is None:
            p0, _ = self.carre_odds(seat)
            odds = _CARD_ODDS[key] = (p0, math.log(max(p0, 1e-6) / max(1.0 - p0, 1e-6)) + 0.5 * len(f.known))
        p0, logit = odds
        if p0 >= 0.999:
            return 1.0, INF
        until = INF
        if not f.put.get(rank):
            # a collector of `rank`: it gave none away; once complete, it stops swapping
            idle = (now - (f.last_swap if f.last_swap is not None else self.deal_at)) / self.time_scale
            steps = 0
            for step in self.idle_steps:
                if idle < step:
                    until = now + (step - idle) * self.time_scale
                    break
                steps += 1
            if steps:  # adding 0.0 changes nothing: the centre is only looked at for a stop long enough
                logit += 1.2 * steps * (1.0 if rank in self.centre_ranks() else 0.4)
        p_cards = 1.0 / (1.0 + math.exp(-logit))
        # holds_fresh and team_of, inlined: a hard bot weighs its calls at nearly every look
        channel = self.perceived["seats"][seat]["channel"]
        emoji = channel.get("emoji")
        if emoji is None or not channel.get("held"):
            return p_cards, until
        team = seat % (self.n // 2)
        if emoji == self.last_signs.get(team) or (team, emoji) in self.burnt:
            return p_cards, until
        style = self.style.get(seat)
        trust = style.trust(self.sign_prior) if style else self.sign_prior
        p_emit = trust * min(1.0, 0.4 + 10 * p0)
        return 1.0 - (1.0 - p_cards) * (1.0 - p_emit), until

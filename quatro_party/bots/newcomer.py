"""A stand-in for a first-time player, for the simulator only: the yardstick the bot levels are calibrated on.

It is not a level a host can seat: the simulator puts it on a *human* seat (``--teams newcomer+easy,easy``), so
it plays under a human's rules (it says "ready", may ask for a reshuffle and answers votes) and the bots
around it treat it as a human. Like the bots it sees only its seat's messages and acts through the phone's
parse path, paying the phone's motor costs (the hold before a call, the second tap that chooses an emoji, the
team picker at 6 and 8 seats, the R23 question).
"""

from __future__ import annotations

from typing import Any

from .core import fresh_sign
from .policy import INF, PlayingBot


class Newcomer(PlayingBot):
    """A first-time player, scripted. Its rules, all of them:

    - it reacts in 1.2–2.5 s and swaps greedily toward its most common rank every 2.5–4 s;
    - with a carré it emits its true sign;
    - it calls Quatro when its partner emits the team sign;
    - it calls Contre on an opposing team when one of that team's seats emitted the same emoji twice while it
      seemed to be collecting;
    - it asks for a reshuffle when nobody has swapped for ~10 s.

    Details that keep it simple and stable: "most common rank" breaks ties toward a rank the centre shows, and
    it swaps only when the centre shows that rank (giving a card of its least common rank); "seemed to be
    collecting" means every card it was seen taking and keeping is of one rank; "~10 s" is drawn in 9–11 s. In
    the sign phase it picks a sign (unless its partner did) and says ready; it accepts every reshuffle vote.
    """

    level = "newcomer"
    look_gap = (0.5, 1.0)
    emoji_beat = (0.6, 1.2)
    picker_beat = (0.7, 1.4)
    confirm_beat = (0.8, 1.5)
    sign_hesitation = (0.0, 0.0)
    contre_threshold = 1.0
    guilt_wait = (0.0, 0.0)
    #: From picking the sign to pressing "ready" (uniform range, seconds).
    ready_beat = (0.6, 1.5)
    #: Seconds between two of its exchanges (uniform range).
    swap_every = (2.5, 4.0)
    #: Nobody swapped for this long (uniform range, seconds): it asks for a reshuffle.
    stuck_for = (9.0, 11.0)

    def setup(self) -> None:
        super().setup()
        self.readied_in = -1
        self.ready_at = -INF
        self.asked_in = -1
        self.voted: set[Any] = set()
        self.patience = self._draw(self.stuck_for)

    def reaction_delay(self) -> float:
        return self.rng.uniform(1.2, 2.5)

    def on_deal(self, at: float) -> None:
        super().on_deal(at)
        self.patience = self._draw(self.stuck_for)

    def sign_phase(self, now: float) -> list[dict[str, Any]]:
        you = self.you
        if you.get("sign") is None and self.picked_in != self.round:
            self.picked_in = self.round
            self.ready_at = now + self._draw(self.ready_beat)  # then the "ready" button: another tap
            self.plan(self.ready_at)
            return [self.send("pick_sign", now, sign=fresh_sign(self.rng, you.get("last_sign")))]
        if self.readied_in != self.round and not self.perceived["seats"][self.seat]["ready"]:
            if self.picked_in == self.round and now < self.ready_at:
                self.plan(self.ready_at)
                return []
            self.readied_in = self.round
            return [self.send("ready", now)]
        return []

    def seat_guilt(self, seat: int, now: float) -> tuple[float, float]:
        f = self.facts.get(seat)
        if f is None or not f.known or f.mixed:
            return 0.0, INF  # not collecting one rank, as far as it saw
        counts: dict[str, int] = {}
        for t, e in f.emitted:
            if t >= self.deal_at:
                counts[e] = counts.get(e, 0) + 1
        return (1.0 if counts and max(counts.values()) >= 2 else 0.0), INF

    def decide(self, now: float) -> list[dict[str, Any]]:
        out = super().decide(now)
        view = self.view
        if view is None or view["phase"] != "play" or self.call_plan is not None or self.decided_call:
            return out
        return out + self.reshuffle(now)

    def reshuffle(self, now: float) -> list[dict[str, Any]]:
        """R27–R28: ask when the table is stuck; accept every vote it is asked in."""
        assert self.view is not None
        state = self.view.get("reshuffle") or {}
        vote = state.get("vote")
        if vote is not None:
            key = (self.round, vote.get("requester"), self.last_swap_seen)
            if self.you.get("voter") and key not in self.voted:
                self.voted.add(key)
                return [self.send("answer_vote", now, accept=True)]
            return []
        if state.get("done") or self.asked_in == self.round or state.get("next_vote_in"):
            return []
        quiet_until = self.last_swap_seen + self.patience
        if now < quiet_until:
            self.plan(quiet_until)
            return []
        self.asked_in = self.round
        return [self.send("request_reshuffle", now)]

    def swap(self, now: float) -> list[dict[str, Any]]:
        if self.you.get("has_carre") or self.pending("swap") or self.emoji_plan is not None:
            return []
        table = self.swap_sight(now)
        if table is None:
            return []
        hand, centre = table
        mine, offered = self.counts(hand), self.counts(centre)
        top = max(mine.values())
        best = [r for r in mine if mine[r] == top]
        shown = [r for r in best if offered.get(r)]
        if not shown:
            return []  # waits for the centre to show its rank (a new look comes with every change)
        want = self.rng.choice(sorted(shown))
        give = min((c for c in hand if c["rank"] != want), key=lambda c: (mine[c["rank"]], self.rng.random()))
        place = self.rng.choice([i for i, c in enumerate(centre) if c["rank"] == want])
        self.swap_at = now + self._draw(self.swap_every)
        self.plan(self.swap_at)
        return [self.send_swap(now, give, place, centre[place])]

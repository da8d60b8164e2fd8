"""Bots see only their seat's view (R36–R39), and the simulator builds exactly that view.

Bots are fed real views built by the engine's view functions, exactly what a phone in that seat gets.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quatro_party.bots import LEVELS, make_bot
from quatro_party.engine import Game, Phase, seat_view
from quatro_party.engine.rules import SIGNS
from quatro_party.simulate import play_game, seat_views

from .helpers import bot_table, feed, run_bot

# --- only the seat's view ------------------------------------------------------------------


def _hidden_variant(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game as ``seat`` sees it, with the hidden parts changed: other seats' hands reshuffled
    among themselves, and the other teams' signs replaced."""
    other = copy.deepcopy(game)
    others = [s for s in range(other.seat_count) if s != seat]
    pool = [c for s in others for c in other.seats[s].hand]
    rng.shuffle(pool)
    for s in others:
        other.seats[s].hand, pool = pool[:4], pool[4:]
    mine = other.team(seat)
    for t, team in enumerate(other.teams):
        if t != mine:
            team.sign = rng.choice([x for x in SIGNS if x != team.last_sign])
    return other


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    seat=st.integers(0, 3),
    level=st.sampled_from(sorted(LEVELS)),
    variant=st.integers(0, 10_000),
)
def test_decisions_identical_when_hidden_state_differs(seed, seat, level, variant):
    """R37–R39: two games that differ only in what ``seat`` cannot see give the same seat view,
    hence the same decisions, wake for wake."""
    game = bot_table(4, seed)
    assert game.phase is Phase.PLAY
    twin = _hidden_variant(game, seat, random.Random(variant))
    assert seat_view(game, seat, 0.0) == seat_view(twin, seat, 0.0)
    outputs = []
    for world in (game, twin):
        bot = make_bot(seat, level, random.Random(seed))
        feed(bot, world, seat, 0.0, [{"type": "round_opened", "round": 1, "length": 180.0}])
        outputs.append(run_bot(bot, 30.0))
    assert outputs[0] == outputs[1]
    assert outputs[0], "the bot should at least try an exchange"


def test_simulator_views_equal_engine_seat_views():
    """The simulator's shared-table-view shortcut builds exactly seat_view, field for field,
    and a whole game plays out identically with the engine's own seat_view."""
    game = bot_table(6, seed=9)
    for now in (0.0, 1.5, 7.25):
        fast = seat_views(game, now)
        assert fast == [seat_view(game, s, now) for s in range(6)]
    a = play_game(11, ["hard", "normal"], 4, exact_views=True)
    b = play_game(11, ["hard", "normal"], 4)
    assert (a.scores, a.endings, a.sim_time) == (b.scores, b.endings, b.sim_time)


def test_view_builder_equals_seat_view_at_every_change_of_whole_games(monkeypatch):
    """The simulator builds a view only for a bot that looks (``_seat_view``, on the ViewBuilder's shared
    table part): every view it builds in whole games (8 and 6 seats, all levels, a reshuffle and a
    disconnection) equals the engine's seat_view and serialises to the same bytes; each event's JSON equals
    its to_json."""
    import quatro_party.simulate.runner as sim
    from quatro_party.engine import RequestReshuffle, SetConnected

    real = sim._seat_view
    checked = Counter()

    def checking(builder: Any, table: dict[str, Any], seat: int, now: float) -> dict[str, Any]:
        view = real(builder, table, seat, now)
        exact = seat_view(builder.game, seat, now)
        assert view == exact
        assert json.dumps(view, sort_keys=False) == json.dumps(exact, sort_keys=False)
        checked[builder.game.seat_count] += 1
        return view

    real_event_json = sim.event_json

    def checking_events(e: Any) -> dict[str, Any]:
        out = real_event_json(e)
        assert out == e.to_json() and list(out) == list(e.to_json())
        checked["events"] += 1
        return out

    monkeypatch.setattr(sim, "_seat_view", checking)
    monkeypatch.setattr(sim, "event_json", checking_events)
    play_game(3, ["hard", "normal", "easy", "hard"], 8)
    script = [
        (40.0, lambda g, now: g.apply(RequestReshuffle(5), now)),
        (60.0, lambda g, now: g.apply(SetConnected(5, False), now)),
        (90.0, lambda g, now: g.apply(SetConnected(5, True), now)),
    ]
    play_game(4, ["hard", "normal", "easy"], 6, humans=(5,), script=script, max_rounds=3)
    assert checked[8] > 300 and checked[6] > 50 and checked["events"] > 300


def test_simulator_feeds_each_bot_its_own_seat_view_only(monkeypatch):
    """R37–R39 in the simulator: every state a bot gets is its own seat's view; during play no hand but its
    own is in it (the reveal's hands arrive only once the round is over, R26)."""
    import quatro_party.simulate.runner as sim

    real = sim.make_bot
    seen = Counter()

    class Spy:
        def __init__(self, seat: int, level: str, rng: random.Random, **options: Any) -> None:
            self.seat, self.bot = seat, real(seat, level, rng, **options)

        def observe(self, message: dict[str, Any], now: float) -> None:
            if message["type"] == "state":
                view = message["view"]
                assert view["you"]["seat"] == self.seat
                if view["phase"] == "play":
                    assert view["result"] is None and "hands" not in json.dumps(view)
                    # a reveal in the events is an earlier round's (the bot did not look during the pause)
                    ended = [e["result"]["round"] for e in message["events"] if e["type"] == "round_ended"]
                    assert all(r < view["round"] for r in ended)
                seen[self.seat] += 1
            self.bot.observe(message, now)

        def notice(self, now: float) -> float:
            return self.bot.notice(now)

        def wants_view(self, now: float) -> bool:
            return self.bot.wants_view(now)

        def next_wake(self) -> float | None:
            return self.bot.next_wake()

        def wake(self, now: float) -> list[dict[str, Any]]:
            return self.bot.wake(now)

    monkeypatch.setattr(sim, "make_bot", Spy)
    sim.play_game(41, ["hard", "easy"], 4)
    assert len(seen) == 4 and min(seen.values()) > 20

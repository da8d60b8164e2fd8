"""Snapshots: the whole state as JSON, restored into a game that continues exactly as the original."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st

from quatro_party.engine import Game, Pause, Phase, seat_view, table_view
from quatro_party.engine.randomplay import RandomPlay

from .scenario import fingerprint, ok, position


def _twin(play: RandomPlay) -> RandomPlay:
    """The same table restored from a JSON snapshot, with a driver in the same state."""
    data = json.loads(json.dumps(play.game.snapshot(), allow_nan=False))  # strict JSON: no infinities
    twin = copy.copy(play)
    twin.rnd = random.Random()
    twin.rnd.setstate(play.rnd.getstate())
    twin.game = Game.from_snapshot(data)
    return twin


def _same(a: RandomPlay, b: RandomPlay) -> None:
    assert fingerprint(a.game) == fingerprint(b.game)
    assert table_view(a.game, a.now) == table_view(b.game, b.now)
    for seat in range(a.game.seat_count):
        assert seat_view(a.game, seat, a.now) == seat_view(b.game, seat, b.now)


@settings(
    max_examples=12,
    deadline=None,
    phases=(Stage.explicit, Stage.reuse, Stage.generate),
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32 - 1), seat_count=st.sampled_from([4, 6, 8]), ends=st.integers(1, 4))
def test_snapshot_at_a_round_end_restores_identical_views_and_an_identical_continuation(seed, seat_count, ends):
    play = RandomPlay(seed, seat_count, record=False)
    play.setup()
    seen = 0
    while play.game.phase is not Phase.OVER and seen < ends:
        _, out = play.step()
        seen += sum(1 for e in out.events if e.to_json()["type"] == "round_ended")
    twin = _twin(play)
    _same(play, twin)
    for _ in range(300):  # the same commands at the same times: the same events, the same views
        if play.game.phase is Phase.OVER:
            break
        command, out = play.step()
        command2, out2 = twin.step()
        assert command == command2
        assert [e.to_json() for e in out.events] == [e.to_json() for e in out2.events]
        assert out.refusal == out2.refusal
        _same(play, twin)


def test_a_snapshot_at_any_moment_paused_mid_round_restores_too():
    game = position("AAKT QQJJ KKTT JJAQ | KQTA", now=0.0)
    ok(game.apply(Pause(), 12.0))
    again = Game.from_snapshot(json.loads(json.dumps(game.snapshot())))
    assert fingerprint(again) == fingerprint(game)
    assert seat_view(again, 2, 99.0) == seat_view(game, 2, 99.0)


def _damaged(change):
    data = position("AAKT QQJJ KKTT JJAQ | KQTA").snapshot()
    change(data)
    return data


@pytest.mark.parametrize(
    "damage",
    [
        {},
        [],
        {"format": 99},
        {"format": 1, "seat_count": 4},
        _damaged(lambda d: d.update(seat_count=5)),
        _damaged(lambda d: d["seats"][0].update(hand=[99])),
        _damaged(lambda d: d.update(phase="nap")),
        _damaged(lambda d: d.update(seats=d["seats"][:3])),
        _damaged(lambda d: d.update(rng="not a state")),
    ],
    ids=range(9),
)
def test_what_is_not_a_snapshot_is_refused_with_a_value_error(damage):
    with pytest.raises(ValueError):
        Game.from_snapshot(damage)

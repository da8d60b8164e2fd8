"""The sample views and events in ``docs/samples`` have the keys the engine's views and events really have."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quatro_party.engine import CallContre, EndGame, TakeChannel, seat_view, table_view
from quatro_party.engine import events as ev

from .scenario import lobby, ok, position

SAMPLES = Path(__file__).resolve().parents[2] / "docs" / "samples"


def _keys(view: dict) -> dict[str, object]:
    """The view's keys, and those of its nested parts that the samples must keep up with."""
    result = view.get("result")
    return {
        "view": sorted(view),
        "you": sorted(view["you"]) if "you" in view else None,
        "result": sorted(result) if result else None,
        "story": sorted(result["story"]["events"][0]) if result and result["story"]["events"] else None,
        "recap": sorted(view["recap"][0]) if view.get("recap") else None,
    }


def _real() -> dict[str, dict]:
    """A real view of each kind: lobby, sign, play, pause (with a story) and over (with recap and awards)."""
    game = position("KQJT KQJT AAAA KQJT | KQJT")
    views = {"table_play": table_view(game, 1.0), "seat_play": seat_view(game, 0, 1.0)}
    ok(game.apply(TakeChannel(0), 1.0))
    ok(game.apply(CallContre(1, 0), 2.0))
    views |= {"table_pause": table_view(game, 2.0), "seat_pause": seat_view(game, 0, 2.0)}
    game.tick(32.0)
    views |= {"table_sign": table_view(game, 32.0), "seat_sign": seat_view(game, 0, 32.0)}
    ok(game.apply(EndGame(), 33.0))
    views["table_over"] = table_view(game, 33.0)
    views["table_lobby"] = table_view(lobby(), 0.0)
    return views


@pytest.mark.parametrize("name", sorted(p.stem for p in SAMPLES.glob("*.json") if not p.stem.startswith("events")))
def test_a_sample_view_has_the_keys_of_a_real_one(name):
    sample = json.loads((SAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    real = _real()[name]
    mine, theirs = _keys(sample), _keys(real)
    for part in mine:  # a part the sample leaves empty (no reveal in the lobby) is not compared
        if mine[part] is not None and theirs[part] is not None:
            assert mine[part] == theirs[part], (name, part)
    assert mine["view"] == theirs["view"]


def test_sample_events_name_real_events_with_their_fields():
    names = {ev._layout(cls)[0]: ev._layout(cls)[1] for cls in ev.Event.__subclasses__()}
    for path in SAMPLES.glob("events_*.json"):
        for event in json.loads(path.read_text(encoding="utf-8")):
            assert tuple(k for k in event if k != "type") == names[event["type"]], (path.name, event["type"])

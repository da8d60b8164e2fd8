"""``docs/protocol.md`` is the contract outside clients are written from alone: it names everything the server
sends and accepts. Every error code, every engine reason, every message type both ways, every event with its
fields, every key of a view (found in the real views of whole games) and of the ``table`` block (read from the
frames of a live server) appears in it, in backquotes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from quatro_party import protocol as p
from quatro_party.engine import events as ev
from quatro_party.engine import seat_view, table_view
from quatro_party.engine.randomplay import play_random_game
from quatro_party.engine.refusals import Reason
from quatro_party.engine.story import awards, recap

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
#: The events as the doc lists them: ``name {field, field}`` (or ``name`` alone, for an event without fields).
EVENTS = {m.group(1): m.group(2) for m in re.finditer(r"`(\w+)(?: \{([\w, ]*)\})?`", DOC) if m.group(2) is not None}
NAMED = (
    {n.removesuffix("[]") for n in re.findall(r"`([^`\s]+)`", DOC)}
    | set(re.findall(r'"(\w+)"', DOC))
    | {f.strip() for fields in EVENTS.values() for f in fields.split(",")}
)


def _missing(names: set[str]) -> list[str]:
    return sorted(n for n in names if n not in NAMED)


def _keys(value: Any) -> set[str]:
    """Every key of a JSON value, at any depth (seat numbers used as keys left out)."""
    if isinstance(value, dict):
        return {k for k in value if not k.isdigit()} | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def test_every_error_code_and_every_engine_reason_is_documented():
    assert _missing({code.value for code in p.ErrorCode}) == []
    assert _missing({reason.value for reason in Reason}) == []


def test_every_message_type_both_ways_is_documented():
    incoming = set(p.PHONE_ACTION_TYPES) | set(p.HOST_ACTION_TYPES) | {"hello", "join", "leave", "watch", "host"}
    source = (ROOT / "quatro_party" / "protocol" / "outgoing.py").read_text(encoding="utf-8")
    outgoing = set(re.findall(r'"type":\s*"(\w+)"', source)) | set(re.findall(r'\{"type":"(\w+)"', source))
    assert {"state", "joined", "seat_link", "vip_link", "ok", "refused", "error"} <= outgoing
    assert _missing(incoming | outgoing) == []


def test_every_event_and_its_fields_are_documented():
    layouts = [ev._layout(cls) for cls in ev.Event.__subclasses__()]
    assert len(layouts) > 20
    missing = []
    for name, fields in layouts:
        if fields and name not in EVENTS or not fields and name not in NAMED:
            missing.append(name)
        elif fields and set(fields) != {f.strip() for f in EVENTS[name].split(",")}:
            missing.append(f"{name} {{{', '.join(fields)}}} (documented: {{{EVENTS[name]}}})")
    assert missing == []


def _views_of_whole_games() -> list[dict[str, Any]]:
    """Table and seat views at every step of a few random games, with the recap and awards of each."""
    views: list[dict[str, Any]] = []
    seen: set[tuple[str, ...]] = set()

    def observe(play: Any, command: Any, outcome: Any) -> None:
        game = play.game
        for view in (table_view(game, play.now), seat_view(game, 0, play.now)):
            shape = tuple(sorted(_keys(view)))
            if shape not in seen:
                seen.add(shape)
                views.append(view)

    for seed in (1, 2, 3):
        play = play_random_game(seed, 4 + 2 * (seed % 3), observer=observe)
        views.append({"recap": recap(play.game.results), "awards": awards(play.game.results)})
    return views


def test_every_key_of_every_view_is_documented():
    found: set[str] = set()
    for view in _views_of_whole_games():
        found |= _keys(view)
    for sample in (ROOT / "docs" / "samples").glob("*.json"):
        found |= _keys(json.loads(sample.read_text(encoding="utf-8")))
    assert {"you", "result", "story", "correct", "recap", "award", "house_rules", "channel_wait"} <= found
    assert _missing(found) == []


@pytest.fixture
def frames(live_server) -> list[dict[str, Any]]:
    """The last state frame of a host screen, a watching screen, a seated phone, a spectator and a visitor."""
    screen, watcher = live_server.screen(), live_server.screen(host=False)
    player, spectator, visitor = live_server.phone(), live_server.phone(), live_server.phone()
    player.join(0, "Ana")
    spectator.send({"type": "watch"})
    out = []
    for client in (screen, watcher, player, spectator, visitor):
        client.drain()
        states = [json.loads(t) for t in client.frames if t.startswith('{"type":"state"')]
        out.append(states[-1])
    return out


def test_every_key_of_the_table_block_and_of_a_frame_is_documented(frames):
    found: set[str] = set()
    for frame in frames:
        found |= set(frame) | set(frame["table"])
    assert {"role", "host", "offered", "freed", "locked", "watching", "warning", "journal_error"} <= found
    assert _missing(found) == []

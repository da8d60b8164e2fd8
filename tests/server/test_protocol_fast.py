"""The fast phone parse path answers exactly as the plain one did.

``_reference_parse_phone`` below is the parser as it was before the fast paths (plain checks, no
shortcuts), kept here as the specification: for any message, ``parse_phone`` (text) and
``parse_phone_message`` (decoded dict) must return an equal message or raise the same error (code,
English message, echoed id), and ``to_command`` must build the same engine command.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quatro_party.engine import commands as c
from quatro_party.protocol import (
    BOT_LEVELS,
    HOST_ACTION_TYPES,
    MAX_ID_LENGTH,
    PHONE_ACTION_TYPES,
    Action,
    Hello,
    Join,
    Leave,
    ProtocolError,
    incoming,
    parse_phone,
    parse_phone_message,
    to_command,
)

from .fuzz_messages import FIELDS, TYPES, json_values

# --- the reference: the parser before the fast paths --------------------------------


def _int(msg: dict[str, Any], key: str, lo: int = 0, hi: int = 1000) -> int:
    v = msg.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ProtocolError("bad_field", f"'{key}' must be a whole number from {lo} to {hi}", msg.get("id"))
    return v


def _opt_int(msg: dict[str, Any], key: str, lo: int = 0, hi: int = 1000) -> int | None:
    return None if msg.get(key) is None else _int(msg, key, lo, hi)


def _bool(msg: dict[str, Any], key: str, default: bool | None = None) -> bool:
    v = msg.get(key, default)
    if not isinstance(v, bool):
        raise ProtocolError("bad_field", f"'{key}' must be true or false", msg.get("id"))
    return v


def _str(msg: dict[str, Any], key: str, max_len: int = 64, optional: bool = False) -> str | None:
    v = msg.get(key)
    if v is None and optional:
        return None
    if not isinstance(v, str) or len(v) > max_len:
        raise ProtocolError("bad_field", f"'{key}' must be a text of at most {max_len} characters", msg.get("id"))
    return v


_ACTIONS = {
    "pick_sign": (lambda m: {"sign": _str(m, "sign", 16)}, c.PickSign),
    "ready": (lambda m: {}, c.Ready),
    "swap": (
        lambda m: {"card": _int(m, "card"), "place": _int(m, "place", 0, 3), "expected": _int(m, "expected")},
        c.Swap,
    ),
    "take_channel": (lambda m: {}, c.TakeChannel),
    "release_channel": (lambda m: {}, c.ReleaseChannel),
    "choose_emoji": (lambda m: {"emoji": _str(m, "emoji", 16)}, c.ChooseEmoji),
    "call_quatro": (lambda m: {"confirmed": _bool(m, "confirmed", False)}, c.CallQuatro),
    "call_contre": (lambda m: {"team": _opt_int(m, "team", 0, 3)}, c.CallContre),
    "request_reshuffle": (lambda m: {}, c.RequestReshuffle),
    "answer_vote": (lambda m: {"accept": _bool(m, "accept")}, c.AnswerVote),
}


def _reference_check(msg: Any) -> dict[str, Any]:
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", "a message is a JSON object")
    ref = msg.get("id")
    if ref is not None and not (
        isinstance(ref, (int, str)) and not isinstance(ref, bool) and len(str(ref)) <= MAX_ID_LENGTH
    ):
        raise ProtocolError("bad_field", f"'id' must be a number or a text of at most {MAX_ID_LENGTH} characters")
    if not isinstance(msg.get("type"), str):
        raise ProtocolError("bad_message", "a message needs a string 'type'", ref)
    return msg


def _reference_parse_phone(msg: Any) -> Any:
    msg = _reference_check(msg)
    kind, ref = msg["type"], msg.get("id")
    if kind == "hello":
        return Hello(ref, _str(msg, "token", 128, optional=True))
    if kind == "join":
        return Join(ref, _int(msg, "seat", 0, 7), _str(msg, "name", 40) or "")
    if kind == "leave":
        return Leave(ref)
    if kind in _ACTIONS:
        return Action(ref, kind, _ACTIONS[kind][0](msg))
    if kind in HOST_ACTION_TYPES:
        raise ProtocolError("not_host", "only the host's big screen can do that", ref)
    raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r}", ref)


# --- comparing ----------------------------------------------------------------------


def _answer(parse: Any, msg: Any) -> tuple[Any, ...]:
    """What a parse gives: ``("ok", type, message)`` or ``("error", code, text, id)``."""
    try:
        out = parse(msg)
    except ProtocolError as e:
        return ("error", e.code, e.message, e.ref)
    return ("ok", type(out), out)


def _same_everywhere(msg: dict[str, Any]) -> None:
    expected = _answer(_reference_parse_phone, msg)
    assert _answer(parse_phone_message, msg) == expected, msg
    assert _answer(parse_phone, json.dumps(msg)) == _answer(_reference_parse_phone, json.loads(json.dumps(msg)))
    if expected[0] == "ok" and isinstance(expected[2], Action):
        action = expected[2]
        command = _ACTIONS[action.kind][1](3, **action.fields)
        assert to_command(parse_phone_message(msg), 3) == command
        assert type(to_command(parse_phone_message(msg), 3)) is type(command)


CASES: list[Any] = [
    {"type": "swap", "card": 3, "place": 1, "expected": 9},
    {"type": "swap", "card": 3, "place": 1, "expected": 9, "id": 7},
    {"type": "swap", "card": 1000, "place": 3, "expected": 0, "id": "x" * 40},
    {"type": "swap", "card": 1001, "place": 1, "expected": 9},
    {"type": "swap", "card": -1, "place": 1, "expected": 9},
    {"type": "swap", "card": 3, "place": 4, "expected": 9},
    {"type": "swap", "card": 3, "place": 1, "expected": 9.0},
    {"type": "swap", "card": True, "place": 1, "expected": 9},
    {"type": "swap", "card": "3", "place": "x", "expected": None},
    {"type": "swap", "card": 3, "place": True, "expected": 1},
    {"type": "swap", "card": 3, "place": 1},
    {"type": "swap"},
    {"type": "ready"},
    {"type": "ready", "junk": [1, 2]},
    {"type": "take_channel"},
    {"type": "release_channel"},
    {"type": "request_reshuffle", "id": 0},
    {"type": "pick_sign", "sign": "🍍"},
    {"type": "pick_sign", "sign": "x" * 17},
    {"type": "pick_sign"},
    {"type": "pick_sign", "sign": 5},
    {"type": "choose_emoji", "emoji": "🐳"},
    {"type": "choose_emoji", "emoji": None},
    {"type": "call_quatro"},
    {"type": "call_quatro", "confirmed": True},
    {"type": "call_quatro", "confirmed": 1},
    {"type": "call_quatro", "confirmed": None},
    {"type": "call_contre"},
    {"type": "call_contre", "team": 2},
    {"type": "call_contre", "team": 4},
    {"type": "call_contre", "team": False},
    {"type": "call_contre", "team": None},
    {"type": "answer_vote", "accept": True},
    {"type": "answer_vote", "accept": "yes"},
    {"type": "answer_vote"},
    {"type": "hello"},
    {"type": "hello", "token": "t" * 128},
    {"type": "hello", "token": "t" * 129},
    {"type": "hello", "token": 12},
    {"type": "join", "seat": 7, "name": "Ana"},
    {"type": "join", "seat": 8},
    {"type": "join", "seat": 0},
    {"type": "join", "seat": 0, "name": None},
    {"type": "join", "seat": 0, "name": ""},
    {"type": "leave", "id": "bye"},
    {"type": "start_game"},
    {"type": "set_seats", "count": 8},
    {"type": "dance" * 20, "id": 3},
    {"type": 5},
    {"type": None},
    {},
    {"kind": "swap"},
    {"type": "ready", "id": {"a": 1}},
    {"type": "ready", "id": True},
    {"type": "ready", "id": 10**40},
    {"type": "ready", "id": 10**40 - 1},
    {"type": "ready", "id": -(10**39)},
    {"type": "ready", "id": 1.5},
    {"type": "swap", "id": [1], "card": "bad"},
]


@pytest.mark.parametrize("msg", CASES, ids=[json.dumps(m)[:60] for m in CASES])
def test_the_fast_parse_answers_as_the_reference(msg):
    _same_everywhere(msg)


@pytest.mark.parametrize("value", [[1, 2, 3], "text", 5, None, True])
def test_a_message_that_is_not_an_object(value):
    assert _answer(parse_phone_message, value) == _answer(_reference_parse_phone, value)
    assert _answer(parse_phone, json.dumps(value)) == ("error", "bad_message", "a message is a JSON object", None)


def test_int_and_str_subclasses_are_accepted_as_before():
    """Only a decoded dict built in Python can hold these (JSON cannot): still the reference's answer."""
    import enum

    class Place(enum.IntEnum):
        TWO = 2

    class Text(str):
        pass

    for msg in (
        {"type": "swap", "card": 3, "place": Place.TWO, "expected": 9},
        {"type": Text("choose_emoji"), "emoji": Text("🐙")},
        {"type": "pick_sign", "sign": Text("x" * 17)},
    ):
        assert _answer(parse_phone_message, msg) == _answer(_reference_parse_phone, msg)


def test_every_phone_action_is_covered():
    assert set(PHONE_ACTION_TYPES) == set(_ACTIONS)
    assert set(incoming._PHONE_COMMANDS) == set(_ACTIONS)


_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 1005),
    st.text(max_size=8),
    st.sampled_from(["🍍", "🐳", "x" * 200, 10**40]),
    st.floats(allow_nan=False),
)
_values = json_values(_scalars, max_leaves=4)
_types = st.sampled_from([*TYPES, ""])
_keys = st.sampled_from([*FIELDS, "type", *BOT_LEVELS])


@pytest.mark.slow
@pytest.mark.timeout(360)  # 1,500 examples: 66 s in a full run, over 120 s beside two `yes`
@settings(max_examples=1500, deadline=None)
@given(kind=st.one_of(_types, _values), fields=st.dictionaries(_keys, _values, max_size=5))
def test_fuzzed_messages_get_the_reference_answer(kind, fields):
    _same_everywhere({"type": kind, **fields})

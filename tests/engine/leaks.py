"""Structural leak checks for views and events (R36–R39), shared by the view tests and the property tests.

Emojis legitimately appear in a view (the list of the 24 ``signs``, what a channel has
emitted, one's own team's sign, the last round's reveal), and so do card ids (the centre,
one's own hand). So each check first takes out, *after checking it*, every place where
such a value is allowed, then demands that no card and no emoji is left anywhere else
in the JSON text.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from quatro_party.engine import SIGNS, Game, Phase

_SECRET_PHASES = (Phase.SIGN, Phase.PLAY)  # the running round's hands and signs are secret (R26)


def card_ids(obj: Any) -> set[int]:
    """Ids of every card-shaped object (``id``, ``rank``, ``suit``) anywhere in some JSON."""
    found: set[int] = set()
    if isinstance(obj, dict):
        if {"id", "rank", "suit"} <= obj.keys():
            found.add(obj["id"])
        for value in obj.values():
            found |= card_ids(value)
    elif isinstance(obj, list):
        for value in obj:
            found |= card_ids(value)
    return found


def keys_in(obj: Any) -> set[str]:
    """Every key of every object anywhere in some JSON."""
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in keys_in(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in keys_in(v)}
    return set()


def emojis_in(obj: Any) -> set[str]:
    text = json.dumps(obj, ensure_ascii=False)
    return {s for s in SIGNS if s in text}


def check_view(game: Game, view: dict[str, Any], seat: int | None = None) -> None:
    """Assert a table view (``seat=None``) or a seat's view shows nothing it must not (R36–R39)."""
    assert json.loads(json.dumps(view)) == view  # plain JSON, nothing hidden in objects
    rest = copy.deepcopy(view)
    assert rest.pop("signs") == list(SIGNS)
    for i, s in enumerate(rest["seats"]):
        emoji = s["channel"].pop("emoji")
        assert emoji is None or emoji == game.seats[i].last_emitted  # only what was emitted (R18, R37)
    result = rest.pop("result")
    recap, awards, ended_by = rest.pop("recap"), rest.pop("awards"), rest.pop("ended_by")
    assert (recap is not None) is (awards is not None) is (game.phase is Phase.OVER)  # at game over only
    assert ended_by in (("score", "host") if game.phase is Phase.OVER else (None,))
    if result is not None:  # who played that round: public names and kinds, one per seat, nothing more
        assert len(result["names"]) == len(result["kinds"]) == len(result["hands"])
        assert all(isinstance(n, str) for n in result["names"]) and set(result["kinds"]) <= {"human", "bot", "empty"}
    if game.phase in _SECRET_PHASES:
        assert result is None or result["round"] < game.round  # only a past round's reveal
        # R39: the running round's record (its story) is in no view until the round has ended
        assert not {"story", "events", "t"} & keys_in(rest), f"a story leaks: {keys_in(rest)}"
    hand_ids: set[int] = set()
    if seat is not None:
        you = rest["you"]
        team = game.teams[game.team(seat)]
        assert you.pop("sign") == team.sign  # one's own team's sign only (R38)
        assert you.pop("last_sign") == team.last_sign  # revealed at the end of the last round
        assert you.pop("channel_choice") == game.seats[seat].channel_choice  # one's own choice (R37)
        hand_ids = {c["id"] for c in you["hand"]}
        if game.phase is Phase.PLAY:
            assert hand_ids == {c.id for c in game.seats[seat].hand}
    if game.phase in _SECRET_PHASES:
        assert emojis_in(rest) == set(), f"a sign leaks: {emojis_in(rest)}"
        allowed = {c.id for c in game.centre} | hand_ids
        assert card_ids(rest) <= allowed, f"hidden cards leak: {card_ids(rest) - allowed}"
    else:
        # a reveal once a round has ended (a game the host ended before any did has none)
        assert result is not None or game.phase is Phase.LOBBY or (game.phase is Phase.OVER and not game.results)


#: Where a public event may carry cards or an emoji before the reveal.
_EVENT_CARDS = {"dealt": ("centre",), "reshuffled": ("centre",), "swapped": ("put", "took")}
_EVENT_EMOJI = {"emitted": ("emoji",)}


def check_event(event: Any) -> None:
    """Assert a public event carries no hand and no sign, except the reveal itself (R26, R39)."""
    data = event.to_json()
    assert json.loads(json.dumps(data)) == data
    kind = data["type"]
    if kind == "round_ended":
        return  # the reveal: everything, on purpose
    rest = dict(data)
    assert not {"story", "events", "t"} & keys_in(rest), data  # R39: a round's story only in its reveal
    for key in _EVENT_CARDS.get(kind, ()):
        rest.pop(key)
    for key in _EVENT_EMOJI.get(kind, ()):
        assert rest.pop(key) in SIGNS
    assert card_ids(rest) == set(), data
    assert emojis_in(rest) == set(), data

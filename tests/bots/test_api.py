"""Bots: a phone's hands only — the API, the phone's parse path, R13 and R30."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from quatro_party.bots import MIN_REACTION, make_bot
from quatro_party.engine import Phase
from quatro_party.engine.rules import SIGNS
from quatro_party.protocol import Action, parse_phone, to_command
from quatro_party.simulate import play_game

from .helpers import bot_table, feed, run_bot

# --- the API -------------------------------------------------------------------------


def test_make_bot_levels_and_refusals():
    for level in ("easy", "normal", "hard"):
        bot = make_bot(2, level, random.Random(1))
        assert bot.level == level and bot.next_wake() is None and bot.wake(0.0) == []
    with pytest.raises(ValueError):
        make_bot(0, "godlike", random.Random(1))
    with pytest.raises(TypeError):
        make_bot(0, "easy", 42)  # type: ignore[arg-type]


def test_bot_api_accepts_only_protocol_messages_not_engine_objects():
    """Cheating impossible by construction: observe takes message dicts, never a Game or its state."""
    bot = make_bot(0, "hard", random.Random(1))
    game = bot_table()
    for wrong in (game, game.seats, "{}", None):
        with pytest.raises(TypeError):
            bot.observe(wrong, 0.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_bot_messages_go_through_the_phone_parse_path(level):
    """Whatever a bot sends is a phone message: it parses with parse_phone and becomes a command for its seat."""
    kinds = set()

    def spy(kind: str, now: float, data: Any) -> None:
        if kind == "sent":
            seat, msg, _ = data
            action = parse_phone(json.dumps(msg))
            assert isinstance(action, Action)
            assert to_command(action, seat).seat == seat
            kinds.add(msg["type"])

    play_game(5, [level, level], 4, observer=spy)
    assert "swap" in kinds and "call_quatro" in kinds


# --- R13, R30 ------------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_r13_bot_never_picks_before_a_human_partner(level):
    game = bot_table(4, seed=2, humans=(0,))
    assert game.phase is Phase.SIGN  # the human is not ready: the sign phase waits (R11)
    bot = make_bot(2, level, random.Random(1))  # partner of seat 2 is seat 0, a human
    for t in (0.0, 5.0, 10.0, 20.0):
        feed(bot, game, 2, t)
    assert all(m["type"] != "pick_sign" for _, m in run_bot(bot, 29.0))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_r13_bot_with_a_bot_partner_may_pick_and_respects_r10(level):
    game = bot_table(4, seed=2, humans=(0,))
    bot = make_bot(1, level, random.Random(1))  # seats 1 and 3 are bots: seat 1 picks for the team
    feed(bot, game, 1, 0.0)
    sent = run_bot(bot, 10.0)
    picks = [m for _, m in sent if m["type"] == "pick_sign"]
    assert len(picks) == 1 and picks[0]["sign"] in SIGNS
    assert sent[0][0] >= MIN_REACTION
    outcome = game.apply(to_command(parse_phone(json.dumps(picks[0])), 1), sent[0][0])
    assert outcome.ok
    assert game.teams[1].sign == picks[0]["sign"] != game.teams[1].last_sign


def test_r30_bots_never_vote_nor_ask_for_a_reshuffle():
    """Whole games at every level and table size: no reshuffle request, no vote answer."""
    kinds: set[str] = set()

    def spy(kind: str, now: float, data: Any) -> None:
        if kind == "sent":
            kinds.add(data[1]["type"])

    play_game(3, ["hard", "normal"], 4, observer=spy)
    play_game(4, ["easy", "hard", "normal"], 6, observer=spy)
    assert not kinds & {"request_reshuffle", "answer_vote", "ready"}


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_r30_bot_ignores_a_running_vote(level):
    """A vote opened by a human (the bot is not a voter anyway): the bot keeps playing, never answers."""
    game = bot_table(4, seed=4, humans=(0,))
    from quatro_party.engine import Ready, RequestReshuffle

    game.apply(Ready(0), 0.0)
    assert game.phase is Phase.PLAY
    outcome = game.apply(RequestReshuffle(0), 1.0)
    assert outcome.ok
    bot = make_bot(1, level, random.Random(2))
    feed(bot, game, 1, 1.0, [e.to_json() for e in outcome.events])
    sent = [m["type"] for _, m in run_bot(bot, 20.0)]
    assert "answer_vote" not in sent and "request_reshuffle" not in sent

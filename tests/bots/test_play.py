"""Bots play sensibly: R7 signs, reshuffles (R31), disconnections (R33), human partners (R22), calls (R23, R24)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from quatro_party.bots import CALL_HOLD, MIN_REACTION, make_bot
from quatro_party.engine import Game, Phase, seat_view
from quatro_party.protocol import parse_phone, state_message, to_command
from quatro_party.simulate import play_game

from .helpers import bot_table, feed, run_bot

# --- sensible play -----------------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_r7_bot_holding_a_carre_shows_the_true_sign_and_stops_swapping(level):
    """R7, R18: with a carré, take the channel and show the team sign; no exchange would keep it."""
    game = bot_table(4, seed=12)
    # give seat 1 a carré by hand (test set-up only: the bot only ever sees its view)
    s1 = game.seats[1]
    rank = s1.hand[0].rank
    pool = [c for s in game.seats for c in s.hand] + game.centre
    same = [c for c in pool if c.rank == rank]
    rest = [c for c in pool if c.rank != rank]
    s1.hand = same
    for s in (0, 2, 3):
        game.seats[s].hand, rest = rest[:4], rest[4:]
    game.centre = rest
    assert game.has_carre(1)
    bot = make_bot(1, level, random.Random(4))
    feed(bot, game, 1, 0.0)
    sent = [m for _, m in run_bot(bot, 15.0)]
    kinds = [m["type"] for m in sent]
    assert "swap" not in kinds
    assert kinds[:2] == ["take_channel", "choose_emoji"]
    assert sent[1]["emoji"] == game.teams[1].sign


# --- reshuffles, disconnections, human partners ----------------------------------------------


def test_r31_bots_play_on_through_a_reshuffle():
    """A human asks for a reshuffle (no other human: it happens at once, R28); the bots forget what they
    knew of the old hands and keep exchanging with their new ones."""
    from quatro_party.engine import Ready, RequestReshuffle

    log: list[tuple[str, float, Any]] = []
    reshuffled_at: list[float] = []

    def spy(kind: str, now: float, data: Any) -> None:
        log.append((kind, now, data))
        if kind == "events" and any(e["type"] == "reshuffled" for e in data):
            reshuffled_at.append(now)

    script = [(0.5, lambda g, t: g.apply(Ready(0), t)), (1.5, lambda g, t: g.apply(RequestReshuffle(0), t))]
    rec = play_game(21, ["hard", "normal"], 4, humans=(0,), script=script, observer=spy)
    assert reshuffled_at == [1.5]
    after = [(now, d) for kind, now, d in log if kind == "sent" and 1.5 < now < 1.5 + 30 and d[1]["type"] == "swap"]
    accepted = [d for _, d in after if d[2] is None]
    stale = [d for _, d in after if d[2] is not None and d[2].reason.value == "not_your_card"]
    assert accepted, "bots must keep exchanging after a reshuffle"
    assert len(stale) <= 3  # only exchanges already on their way when the cards were dealt anew
    assert rec.winners, "the game still ends"


def test_r33_bots_play_on_when_a_human_disconnects():
    """The human leaves for good after the first round opens; the bots finish the game (R33: nobody plays
    for the absent seat; its partner shows its carré in vain, the opponents may still Contre)."""
    from quatro_party.engine import Ready, SetConnected

    script = [(0.5, lambda g, t: g.apply(Ready(0), t)), (4.0, lambda g, t: g.apply(SetConnected(0, False), t))]
    rec = play_game(22, ["normal", "hard"], 4, humans=(0,), script=script)
    assert rec.winners == (1,)  # the team with an absent player cannot score by Quatro


def _human_partner_table() -> Game:
    from quatro_party.engine import Ready

    game = bot_table(4, seed=30, humans=(2,))
    assert game.apply(Ready(2), 0.0).ok and game.phase is Phase.PLAY
    return game


@pytest.mark.parametrize("level,calls", [("easy", True), ("normal", False), ("hard", False)])
def test_r22_human_partner_sign_is_read_against_the_cards_it_keeps(level, calls):
    """The human partner keeps two ranks (public swaps) and then shows our sign: easy calls Quatro at once;
    normal and hard see that the partner cannot hold a carré, and wait."""
    from quatro_party.engine import Swap

    game = _human_partner_table()
    bot = make_bot(0, level, random.Random(7))
    feed(bot, game, 0, 0.0)
    taken = []
    for t in (1.0, 3.5):
        hand, centre = game.seats[2].hand, game.centre
        place = next(p for p, c in enumerate(centre) if c.rank not in taken and c.rank != hand[0].rank)
        give = next(c for c in hand if c.rank != centre[place].rank)
        out = game.apply(Swap(2, give.id, place, centre[place].id), t)
        assert out.ok
        taken.append(out.events[-1].took.rank)
        feed(bot, game, 0, t, [e.to_json() for e in out.events])
    assert len(set(taken)) == 2 and not game.has_carre(2)
    sign = game.teams[0].sign
    view = seat_view(game, 0, 6.0)
    view["seats"][2]["channel"] = {"held": True, "emoji": sign}
    bot.observe(
        state_message(view, [{"type": "channel_taken", "seat": 2}, {"type": "emitted", "seat": 2, "emoji": sign}]), 6.0
    )
    sent = [m["type"] for _, m in run_bot(bot, 12.0)]
    assert ("call_quatro" in sent) is calls


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_r22_human_partner_sign_answered_when_a_carre_is_possible(level):
    """The human partner takes two cards of one rank and keeps them (R6: a carré is possible now), then shows
    our sign: every level calls Quatro, after its reaction."""
    from quatro_party.engine import Swap

    game = _human_partner_table()
    # test set-up: two copies of one rank in the partner's hand, the other two in the centre
    pool = [c for s in game.seats for c in s.hand] + game.centre
    rank = pool[0].rank
    same = [c for c in pool if c.rank == rank]
    rest = [c for c in pool if c.rank != rank]
    others = sorted(rest, key=lambda c: c.rank)
    game.seats[2].hand = same[:2] + [others[0], others[-1]]
    rest = [c for c in rest if c not in game.seats[2].hand]
    game.centre = same[2:] + rest[:2]
    rest = rest[2:]
    for s in (0, 1, 3):
        game.seats[s].hand, rest = rest[:4], rest[4:]
    bot = make_bot(0, level, random.Random(8))
    feed(bot, game, 0, 0.0)
    for t in (1.0, 3.5):
        place = next(p for p, c in enumerate(game.centre) if c.rank == rank)
        give = next(c for c in game.seats[2].hand if c.rank != rank)
        out = game.apply(Swap(2, give.id, place, game.centre[place].id), t)
        assert out.ok
        feed(bot, game, 0, t, [e.to_json() for e in out.events])
    assert game.has_carre(2)
    sign = game.teams[0].sign
    view = seat_view(game, 0, 6.0)
    view["seats"][2]["channel"] = {"held": True, "emoji": sign}
    bot.observe(
        state_message(view, [{"type": "channel_taken", "seat": 2}, {"type": "emitted", "seat": 2, "emoji": sign}]), 6.0
    )
    calls = [(t, m) for t, m in run_bot(bot, 14.0) if m["type"] == "call_quatro"]
    assert calls and calls[0][0] >= 6.0 + MIN_REACTION + CALL_HOLD


def test_r24_contre_names_an_opposing_team_at_6_and_8_seats():
    calls: list[tuple[int, dict[str, Any], Any]] = []

    def spy(kind: str, now: float, data: Any) -> None:
        if kind == "sent" and data[1]["type"] == "call_contre":
            calls.append(data)

    for seats, levels in ((6, ["hard", "normal", "hard"]), (8, ["hard", "normal", "hard", "normal"])):
        calls.clear()
        for seed in (31, 32, 33):  # Contres are rarer than Quatros: a few games
            play_game(seed, levels, seats, observer=spy)
        assert any(refusal is None for _, _, refusal in calls)
        for seat, msg, refusal in calls:
            assert refusal is None or refusal.reason.value == "wrong_phase"  # another call was first (R25)
            assert isinstance(msg["team"], int) and msg["team"] != seat % (seats // 2)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_r23_quatro_confirmed_when_the_caller_holds_a_carre_too(level):
    """Both partners hold a carré (R23): the partner's sign is answered with a confirmed Quatro."""
    game = bot_table(4, seed=12)
    pool = [c for s in game.seats for c in s.hand] + game.centre
    ranks = sorted({c.rank for c in pool})
    a = [c for c in pool if c.rank == ranks[0]]
    b = [c for c in pool if c.rank == ranks[1]]
    rest = [c for c in pool if c.rank not in ranks[:2]]
    game.seats[0].hand, game.seats[2].hand = a, b
    game.seats[1].hand, game.seats[3].hand, game.centre = rest[:4], rest[4:8], rest[8:]
    assert game.has_carre(0) and game.has_carre(2)
    bot = make_bot(0, level, random.Random(9))
    feed(bot, game, 0, 0.0)
    sign = game.teams[0].sign
    view = seat_view(game, 0, 1.0)
    view["seats"][2]["channel"] = {"held": True, "emoji": sign}
    bot.observe(
        state_message(view, [{"type": "channel_taken", "seat": 2}, {"type": "emitted", "seat": 2, "emoji": sign}]), 1.0
    )
    calls = [m for _, m in run_bot(bot, 8.0) if m["type"] == "call_quatro"]
    assert calls and calls[0]["confirmed"] is True
    assert game.apply(to_command(parse_phone(json.dumps(calls[0])), 0), 8.0).ok


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_r33_carre_kept_quiet_while_the_human_partner_is_away(level):
    """R33: the human partner is disconnected: showing the sign would only tell the opponents. The bot keeps
    its carré (no exchange) and shows the sign once the partner is back."""
    from quatro_party.engine import Ready, SetConnected

    game = bot_table(4, seed=12, humans=(3,))
    game.apply(Ready(3), 0.0)
    assert game.phase is Phase.PLAY
    s1 = game.seats[1]
    rank = s1.hand[0].rank
    pool = [c for s in game.seats for c in s.hand] + game.centre
    rest = [c for c in pool if c.rank != rank]
    s1.hand = [c for c in pool if c.rank == rank]
    for s in (0, 2, 3):
        game.seats[s].hand, rest = rest[:4], rest[4:]
    game.centre = rest
    out = game.apply(SetConnected(3, False), 0.0)
    bot = make_bot(1, level, random.Random(4))
    feed(bot, game, 1, 0.0, [e.to_json() for e in out.events])
    assert [m for _, m in run_bot(bot, 20.0)] == []
    out = game.apply(SetConnected(3, True), 20.0)
    feed(bot, game, 1, 20.0, [e.to_json() for e in out.events])
    sent = [m for _, m in run_bot(bot, 30.0)]
    assert [m["type"] for m in sent[:2]] == ["take_channel", "choose_emoji"]
    assert sent[1]["emoji"] == game.teams[1].sign

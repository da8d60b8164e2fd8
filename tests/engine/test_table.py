"""R1–R3: the table, its teams, who holds a seat."""

import random

import pytest

from quatro_party.engine import (
    AnswerVote,
    Game,
    NewGame,
    Phase,
    Reason,
    RequestReshuffle,
    SeatKind,
    SetConnected,
    SetSeatCount,
    Sit,
    StartGame,
    Swap,
    partner_of,
    seat_view,
    seats_of,
    table_view,
    team_of,
)

from .scenario import lobby, ok, playing, refused


@pytest.mark.parametrize("bad", [0, 2, 3, 5, 7, 10])
def test_r1_a_table_has_4_6_or_8_seats(bad):
    with pytest.raises(ValueError):
        Game(bad, rng=random.Random(0))
    game = Game(4, rng=random.Random(0))
    refused(game.apply(SetSeatCount(bad), 0.0), Reason.BAD_SEAT_COUNT)
    for n in (4, 6, 8):
        ok(game.apply(SetSeatCount(n), 0.0))
        assert game.seat_count == n and len(game.seats) == n and len(game.teams) == n // 2
        assert [s["seat"] for s in table_view(game, 0.0)["seats"]] == list(range(n))


def test_r1_table_size_is_fixed_once_the_game_started():
    game = playing(4)
    refused(game.apply(SetSeatCount(6), 1.0), Reason.WRONG_PHASE)
    assert game.seat_count == 4


def test_r1_shrinking_the_table_drops_the_seats_beyond():
    game = lobby(8, "HHHHBBBB")
    ok(game.apply(SetSeatCount(4), 0.0))
    assert [s.kind for s in game.seats] == [SeatKind.HUMAN] * 4


@pytest.mark.parametrize("n", [4, 6, 8])
def test_r2_partner_sits_opposite_and_teams_are_opposite_pairs(n):
    for s in range(n):
        assert partner_of(s, n) == (s + n // 2) % n
        assert partner_of(partner_of(s, n), n) == s
        assert team_of(s, n) == team_of(partner_of(s, n), n)
        assert s in seats_of(team_of(s, n), n)
    assert [seats_of(t, n) for t in range(n // 2)] == [(t, t + n // 2) for t in range(n // 2)]
    game = playing(n)
    view = seat_view(game, 1, 0.0)
    assert view["you"]["partner"] == 1 + n // 2 and view["you"]["team"] == 1
    assert [t["seats"] for t in view["teams"]] == [[t, t + n // 2] for t in range(n // 2)]


def test_r3_a_seat_is_held_by_a_human_or_a_bot_and_every_seat_must_be_held():
    game = Game(4, rng=random.Random(0))
    refused(game.apply(StartGame(), 0.0), Reason.SEATS_NOT_FILLED)
    ok(game.apply(Sit(0, SeatKind.HUMAN, "Ann"), 0.0))
    ok(game.apply(Sit(1, SeatKind.BOT, "Robo"), 0.0))
    out = refused(game.apply(StartGame(), 0.0), Reason.SEATS_NOT_FILLED)
    assert out.refusal.details["seats"] == [2, 3]
    view = table_view(game, 0.0)
    assert [s["kind"] for s in view["seats"]] == ["human", "bot", "empty", "empty"]
    assert view["seats"][0]["name"] == "Ann"


def test_r3_a_seat_kind_that_is_not_one_is_the_callers_bug_and_raises_before_any_game_sees_it():
    """Only human, bot or empty hold a seat; a wrong kind fails where the command is made, so no game
    ever lets time move for it (every other mistake is a refusal that changes nothing)."""
    assert Sit(0, "bot", "Robo").kind is SeatKind.BOT  # the wire's words are accepted
    with pytest.raises(ValueError):
        Sit(0, "robot", "X")  # type: ignore[arg-type]


def test_r3_bots_never_ask_for_a_reshuffle():
    game = playing(4, "HBHB")
    refused(game.apply(RequestReshuffle(1), 1.0), Reason.SEAT_NOT_HUMAN)
    assert game.vote is None


def test_r3_a_seat_cannot_be_emptied_once_the_game_started_but_may_change_hands():
    game = playing(4, "HBHB")
    refused(game.apply(Sit(1, SeatKind.EMPTY), 1.0), Reason.WRONG_PHASE)
    hand = list(game.seats[1].hand)
    ok(game.apply(Sit(1, SeatKind.HUMAN, "Zoe"), 1.0))  # a phone takes the bot's seat, hand and all
    assert game.seats[1].kind is SeatKind.HUMAN and game.seats[1].hand == hand


@pytest.mark.parametrize("name", ["", "   ", "x" * 21, "tab\there"])
def test_r3_a_player_needs_a_printable_name(name):
    game = Game(4, rng=random.Random(0))
    out = refused(game.apply(Sit(0, SeatKind.HUMAN, name), 0.0), Reason.BAD_NAME)
    assert "name" in out.refusal.message
    assert game.seats[0].kind is SeatKind.EMPTY


def test_r3_a_bot_is_always_connected_and_ready():
    game = lobby(4, "HBBB")
    ok(game.apply(SetConnected(1, False), 0.0))  # shrugged off: a bot has no device
    ok(game.apply(StartGame(), 0.0))
    view = table_view(game, 0.0)
    assert all(s["connected"] and s["ready"] for s in view["seats"][1:])
    assert not view["seats"][0]["ready"]


def test_new_game_goes_back_to_the_lobby_with_same_seats_and_scores_at_zero():
    game = playing(4, "HBHB")
    game.teams[0].score = 3
    ok(game.apply(RequestReshuffle(0), 0.5))  # reshuffled at once (the other human is seat 2: a voter)…
    ok(game.apply(AnswerVote(2, True), 0.5))
    ok(game.apply(Swap(0, game.seats[0].hand[0].id, 0, game.centre[0].id), 0.5))
    assert game.reshuffled and seat_view(game, 0, 1.0)["you"]["swap_wait"] == 1.5
    ok(game.apply(NewGame(), 1.0))
    view = seat_view(game, 0, 1.0)  # …and nothing of the old round shows in the lobby
    assert view["reshuffle"]["done"] is False and view["you"]["swap_wait"] == 0.0 and view["result"] is None
    assert game.phase is Phase.LOBBY and game.scores() == (0, 0)
    assert [s.kind for s in game.seats] == [SeatKind.HUMAN, SeatKind.BOT] * 2
    assert all(not s.hand for s in game.seats) and game.centre == []
    refused(game.apply(NewGame(), 1.0), Reason.WRONG_PHASE)


def test_r33_renaming_an_absent_player_does_not_reconnect_them():
    game = playing(4)
    ok(game.apply(SetConnected(1, False), 1.0))
    out = ok(game.apply(Sit(1, SeatKind.HUMAN, "Bobby"), 2.0))
    assert [e.to_json()["type"] for e in out.events] == ["seat_changed"]
    assert game.seats[1].connected is False and table_view(game, 2.0)["seats"][1]["name"] == "Bobby"
    out = ok(game.apply(SetConnected(1, True), 3.0))  # the device coming back is its own, public event
    assert [e.to_json() for e in out.events] == [{"type": "connection_changed", "seat": 1, "connected": True}]


def test_r3_a_phone_taking_a_bots_seat_is_connected():
    game = playing(4, "HBHB")
    ok(game.apply(Sit(1, SeatKind.HUMAN, "Zoe"), 1.0))
    assert game.seats[1].connected and table_view(game, 1.0)["seats"][1]["connected"]

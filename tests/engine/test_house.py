"""Between games and around them: ending a game now, house rules (R34's points, relaxed timers), the seat
count after a game, and the practice round that scores nothing."""

import pytest

from quatro_party.engine import (
    CallContre,
    CallQuatro,
    EndGame,
    NewGame,
    Pause,
    Phase,
    Ready,
    Reason,
    SetSeatCount,
    Settings,
    StartGame,
    StartNextRound,
    StartPractice,
    Timing,
    seat_view,
    table_view,
)
from quatro_party.engine.views import ViewBuilder

from .scenario import kinds_of, lobby, ok, position, refused, sign_phase

CARRE_AT_2 = "KQJT KQJT AAAA KQJT | KQJT"  # seat 2 holds a carré: seat 0 (its partner) calls right


def test_end_game_now_keeps_the_scores_as_they_stand():
    game = position(CARRE_AT_2)
    ok(game.apply(CallQuatro(0), 1.0))  # team 0 scores
    ok(game.apply(StartNextRound(), 2.0))
    out = ok(game.apply(EndGame(), 3.0))
    assert kinds_of(out.events) == ["game_over"] and game.phase is Phase.OVER
    assert game.scores() == (1, 0) and game.winners == (0,)
    view = table_view(game, 3.0)
    assert view["phase"] == "over" and view["winners"] == [0] and view["clock"] is None
    assert [r["how"] for r in view["recap"]] == ["quatro_right"]
    ok(game.apply(NewGame(), 4.0))
    assert game.phase is Phase.LOBBY and game.scores() == (0, 0)


def test_end_game_mid_round_drops_the_round_unrevealed_and_works_while_paused():
    game = position(CARRE_AT_2)
    ok(game.apply(Pause(), 1.0))
    ok(game.apply(EndGame(), 2.0))
    assert game.phase is Phase.OVER and game.paused is None and game.winners == ()  # 0–0: nobody won
    view = seat_view(game, 0, 2.0)
    assert view["result"] is None and view["you"]["hand"] == [] and view["centre"] == []
    assert game.next_deadline() is None


def test_end_game_is_refused_outside_a_game():
    game = lobby()
    refused(game.apply(EndGame(), 0.0), Reason.WRONG_PHASE)


def test_r34_house_rule_points_to_win():
    game = lobby()
    ok(game.apply(Settings(winning_score=3), 0.0))
    assert table_view(game, 0.0)["winning_score"] == 3
    assert table_view(game, 0.0)["house_rules"] == {
        "winning_score": 3,
        "timer_factor": 1.0,
        "changed": ["winning_score"],
    }
    ok(game.apply(StartGame(), 0.0))
    for round_ in range(3):
        for seat in range(4):
            if game.phase is Phase.SIGN:
                game.apply(Ready(seat), float(round_ * 100))
        game.set_position(CARRE_AT_2)
        ok(game.apply(CallQuatro(0), round_ * 100 + 1.0))
        if round_ < 2:
            ok(game.apply(StartNextRound(), round_ * 100 + 2.0))
    assert game.phase is Phase.OVER and game.scores() == (3, 0)


def test_relaxed_timers_scale_every_duration():
    game = lobby()
    out = ok(game.apply(Settings(timer_factor=2), 0.0))
    assert [e.to_json() for e in out.events] == [
        {"type": "house_rules_changed", "winning_score": 5, "timer_factor": 2.0}
    ]
    view = table_view(game, 0.0)
    assert view["timing"]["round_length"] == 360.0 and view["timing"]["swap_cooldown"] == 4.0
    assert view["house_rules"]["changed"] == ["timer_factor"]
    ok(game.apply(StartGame(), 0.0))
    assert table_view(game, 0.0)["clock"] == 120.0  # a game's first sign phase: 60 s × 2
    ok(game.apply(EndGame(), 1.0))
    ok(game.apply(Settings(timer_factor=1.5, winning_score=5), 2.0))  # also after a game
    assert game.timing == Timing().scaled(1.5) and table_view(game, 2.0)["house_rules"]["changed"] == ["timer_factor"]
    ok(game.apply(Settings(timer_factor=1), 3.0))
    assert game.timing == Timing() and table_view(game, 3.0)["house_rules"]["changed"] == []


def test_relaxed_timers_scale_the_hosts_own_time_scale():
    game = lobby(timing=Timing().scaled(0.1))
    ok(game.apply(Settings(timer_factor=2), 0.0))
    assert game.timing.round_length == 36.0


@pytest.mark.parametrize(
    "settings",
    [
        Settings(winning_score=2),
        Settings(winning_score=11),
        Settings(winning_score=True),
        Settings(winning_score=4.0),
        Settings(timer_factor=3),
        Settings(timer_factor=0),
        Settings(timer_factor=True),
        Settings(winning_score=5, timer_factor=1.25),
    ],
    ids=repr,
)
def test_house_rules_outside_their_values_are_refused_and_change_nothing(settings):
    game = lobby()
    refused(game.apply(settings, 0.0), Reason.BAD_SETTING)
    assert game.winning_score == 5 and game.timer_factor == 1.0 and game.timing == Timing()


def test_house_rules_are_refused_during_a_game():
    game = sign_phase()
    refused(game.apply(Settings(winning_score=3), 0.0), Reason.WRONG_PHASE)


def test_r1_the_seat_count_changes_after_a_game_too():
    game = position(CARRE_AT_2)
    refused(game.apply(SetSeatCount(6), 1.0), Reason.WRONG_PHASE)
    ok(game.apply(EndGame(), 1.0))
    out = ok(game.apply(SetSeatCount(6), 2.0))
    assert kinds_of(out.events) == ["back_to_lobby", "seat_count_changed"]
    assert game.phase is Phase.LOBBY and game.seat_count == 6 and len(game.teams) == 3
    assert [s.name for s in game.seats][:4] == ["Ann", "Bob", "Cat", "Dan"] and game.seats[5].name == ""
    refused(game.apply(StartGame(), 3.0), Reason.SEATS_NOT_FILLED)


def test_a_practice_round_scores_nothing_then_the_lobby_and_a_game_from_0_0():
    game = lobby(4, "HHBB")
    out = ok(game.apply(StartPractice(), 0.0))
    assert kinds_of(out.events)[:2] == ["practice_started", "sign_phase_opened"]
    view = table_view(game, 0.0)
    assert view["practice"] is True and view["clock"] == 90.0  # the first sign phase at × 1.5
    assert view["timing"]["round_length"] == 270.0
    for seat in (0, 1):
        ok(game.apply(Ready(seat), 1.0))
    game.set_position(CARRE_AT_2)
    out = ok(game.apply(CallContre(1), 2.0))  # right: team 0 holds a carré; a point in a real game
    result = out.events[0].result
    assert result.practice and result.scorers == () and game.scores() == (0, 0)
    assert table_view(game, 2.0)["result"]["practice"] is True
    assert game.phase is Phase.PAUSE and table_view(game, 2.0)["clock"] == 45.0
    out = game.tick(47.0)  # the practice's pause ends: back to the lobby
    assert kinds_of(out.events) == ["back_to_lobby"]
    view = table_view(game, 47.0)
    assert game.phase is Phase.LOBBY and view["practice"] is False and view["timing"]["round_length"] == 180.0
    ok(game.apply(StartGame(), 50.0))
    assert game.round == 1 and game.scores() == (0, 0) and table_view(game, 50.0)["clock"] == 60.0
    assert all(t.last_sign is None for t in game.teams)  # the practice's signs are not "last round's" (R10)


def test_a_practice_round_can_be_cut_short_and_ended():
    game = lobby(4, "HHBB")
    ok(game.apply(StartPractice(), 0.0))
    refused(game.apply(StartPractice(), 0.0), Reason.WRONG_PHASE)
    out = ok(game.apply(EndGame(), 1.0))
    assert kinds_of(out.events) == ["back_to_lobby"] and game.phase is Phase.LOBBY and not game.practice
    assert ViewBuilder(game).table_view(1.0) == table_view(game, 1.0)

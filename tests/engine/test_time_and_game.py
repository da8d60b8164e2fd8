"""R32–R35: the void round, the pause, absence, first to 5, shared wins — and the deadlines the host waits for."""

import random

import pytest

from quatro_party.engine import (
    CallContre,
    CallQuatro,
    ChooseEmoji,
    Game,
    NewGame,
    Phase,
    Ready,
    Reason,
    RoundEnd,
    SeatKind,
    SetConnected,
    Sit,
    StartGame,
    StartNextRound,
    Swap,
    TakeChannel,
    seat_view,
    table_view,
)
from quatro_party.engine import events as ev

from .scenario import kinds_of, ok, playing, position, refused


def test_r32_a_round_without_a_call_is_void_after_3_minutes_and_nobody_scores():
    game = position("KQJT KQJT AAAA KQJT | KQJT", now=50.0)  # a carré nobody called
    assert game.next_deadline() == 230.0
    assert game.tick(229.9).events == ()
    out = game.tick(230.0)
    assert kinds_of(out.events) == ["round_ended", "pause_opened"]
    assert out.events[0].result.end is RoundEnd.VOID and out.events[0].result.scorers == ()
    assert game.scores() == (0, 0) and game.phase is Phase.PAUSE
    refused(game.apply(CallQuatro(0), 230.0), Reason.WRONG_PHASE)  # too late


def test_r32_a_thirty_second_pause_then_the_next_sign_phase():
    game = playing(4)
    ok(game.apply(CallQuatro(0, confirmed=True), 10.0))
    assert game.phase is Phase.PAUSE and game.next_deadline() == 40.0
    assert table_view(game, 25.0)["clock"] == 15.0 and table_view(game, 25.0)["result"] is not None
    assert game.tick(39.9).events == ()
    out = game.tick(40.0)
    assert kinds_of(out.events) == ["sign_phase_opened"] and game.phase is Phase.SIGN and game.round == 2
    assert game.next_deadline() == 70.0
    # The last round's result stays public during the sign phase; hands and centre are gone.
    view = table_view(game, 40.0)
    assert view["result"]["round"] == 1 and view["centre"] == [] and seat_view(game, 0, 40.0)["you"]["hand"] == []


def test_r32_the_host_may_start_the_next_round_earlier():
    game = playing(4)
    refused(game.apply(StartNextRound(), 5.0), Reason.WRONG_PHASE)  # not while playing
    ok(game.apply(CallQuatro(0, confirmed=True), 10.0))
    out = ok(game.apply(StartNextRound(), 12.0))
    assert kinds_of(out.events) == ["sign_phase_opened"] and game.next_deadline() == 42.0


def test_r32_every_deadline_in_order_a_host_can_sleep_until_next_deadline():
    game = playing(4, "HHBB")
    ok(game.apply(TakeChannel(0), 0.0))
    ok(game.apply(ChooseEmoji(0, "🍍"), 0.0))
    seen, now = [], 0.0
    while game.phase is not Phase.SIGN:
        now = game.next_deadline()
        seen += kinds_of(game.tick(now).events)
    assert now == 210.0  # 180 s of play, then the 30 s pause
    assert seen.count("emitted") == 36 and seen[-3:] == ["round_ended", "pause_opened", "sign_phase_opened"]


def test_r33_a_disconnected_player_keeps_seat_hand_and_channel_and_can_be_called_on():
    game = position("KQJT KQJT AAAA KQJT | KQJT", "HHHH")
    ok(game.apply(TakeChannel(2), 0.0))
    ok(game.apply(ChooseEmoji(2, "🍍"), 0.0))
    hand = list(game.seats[2].hand)
    out = ok(game.apply(SetConnected(2, False), 1.0))
    assert [e.to_json() for e in out.events] == [{"type": "connection_changed", "seat": 2, "connected": False}]
    assert table_view(game, 1.0)["seats"][2]["connected"] is False
    assert game.seats[2].hand == hand and game.seats[2].kind.value == "human"  # no bot takes over
    emitted = [e for e in game.tick(10.0).events if isinstance(e, ev.Emitted)]
    assert [(e.seat, e.emoji) for e in emitted] == [(2, "🍍"), (2, "🍍")]  # the channel stays as it was
    ok(game.apply(SetConnected(2, True), 11.0))  # back on the same seat, any time
    assert seat_view(game, 2, 11.0)["you"]["hand"] == [c.to_json() for c in hand]
    ok(game.apply(SetConnected(2, False), 12.0))
    res = ok(game.apply(CallQuatro(0), 12.0)).events[0].result  # the partner calls on the absent player
    assert res.correct


def test_r33_opponents_can_call_contre_on_a_team_with_an_absent_player():
    game = position("KQJT KQJT AAAA KQJT | KQJT", "HHHH")
    ok(game.apply(SetConnected(2, False), 1.0))
    ok(game.apply(SetConnected(0, False), 1.0))
    res = ok(game.apply(CallContre(1), 2.0)).events[0].result
    assert res.correct and game.scores() == (0, 1)


def _play_rounds(game: Game, calls, now: float = 0.0) -> list:
    """Play one round per call (a false Quatro from a seat with no carré), cutting every pause short."""
    ends = []
    for caller in calls:
        if game.phase is Phase.PAUSE:
            ok(game.apply(StartNextRound(), now))
        for seat, s in enumerate(game.seats):
            if game.phase is Phase.SIGN and s.kind.value == "human":
                ok(game.apply(Ready(seat), now))
        out = ok(game.apply(CallQuatro(caller, confirmed=True), now))
        ends += out.events
        now += 1.0
    return ends


def test_r34_the_first_team_to_5_points_wins_and_points_are_never_taken_back():
    game = playing(4)
    scores = [game.scores()]
    events = []
    for _ in range(4):  # team 0 calls falsely: team 1 scores each time
        events += _play_rounds(game, [0])
        scores.append(game.scores())
    assert game.scores() == (0, 4) and game.phase is Phase.PAUSE
    events += _play_rounds(game, [1])  # team 1 calls falsely: team 0 scores, team 1 keeps its 4
    assert game.scores() == (1, 4)
    events += _play_rounds(game, [0])
    assert game.phase is Phase.OVER and game.winners == (1,) and game.scores() == (1, 5)
    [over] = [e for e in events if isinstance(e, ev.GameOver)]
    assert over.to_json() == {"type": "game_over", "winners": [1], "scores": [1, 5]}
    assert table_view(game, 99.0)["winners"] == [1] and game.next_deadline() is None
    for command in (StartNextRound(), CallQuatro(0), Swap(0, 0, 0, 0)):
        refused(game.apply(command, 100.0), Reason.WRONG_PHASE)
    ok(game.apply(NewGame(), 100.0))


@pytest.mark.parametrize("n", [6, 8])
def test_r35_a_false_quatro_scores_for_several_teams_who_may_win_together(n):
    game = playing(n)
    _play_rounds(game, [0] * 5)  # every team but team 0 scores five times
    assert game.phase is Phase.OVER
    assert game.winners == tuple(range(1, n // 2)) and game.scores() == (0,) + (5,) * (n // 2 - 1)


def test_r35_only_the_best_score_wins():
    game = playing(6)
    _play_rounds(game, [0] * 4 + [1])  # teams 1, 2 reach 4; then team 1 calls falsely: 0 and 2 score
    assert game.phase is Phase.OVER and game.winners == (2,) and game.scores() == (1, 4, 5)


def test_r34_the_winning_score_is_a_setting_of_the_game():
    game = Game(4, rng=random.Random(0), winning_score=1)
    for seat in range(4):
        ok(game.apply(Sit(seat, SeatKind.BOT, "B"), 0.0))
    ok(game.apply(StartGame(), 0.0))
    ok(game.apply(CallQuatro(0, confirmed=True), 1.0))
    assert game.phase is Phase.OVER and game.winners == (1,)

"""The host's pause: every clock stands still, and resumes from the remaining time it had (R32 counts play only).

Every test drives the injected clock: nothing sleeps.
"""

import pytest

from quatro_party.engine import (
    AnswerVote,
    CallQuatro,
    ChooseEmoji,
    NewGame,
    Pause,
    Phase,
    PickSign,
    Ready,
    Reason,
    ReleaseChannel,
    RequestReshuffle,
    Resume,
    SetConnected,
    StartNextRound,
    Swap,
    TakeChannel,
    seat_view,
    table_view,
)
from quatro_party.engine import events as ev
from quatro_party.engine.views import ViewBuilder

from .scenario import fingerprint, kinds_of, ok, position, refused, sign_phase, swap_args

STUCK = "AAKT QQJJ KKTT JJAQ | KQTA"


def test_r32_a_paused_round_still_ends_exactly_180_s_of_play_after_it_opened():
    game = position(STUCK, now=0.0)
    ok(game.apply(Pause(), 50.0))
    assert game.next_deadline() is None  # nothing falls due while paused
    assert game.tick(10_000.0).events == () and game.phase is Phase.PLAY
    assert table_view(game, 10_000.0)["clock"] == 130.0  # frozen as it stood
    out = ok(game.apply(Resume(), 80.0))
    assert kinds_of(out.events) == ["game_resumed"]
    assert game.next_deadline() == 210.0  # 50 s of play, 30 s paused, 130 s of play left
    assert table_view(game, 100.0)["clock"] == 110.0
    assert game.tick(209.999).events == ()
    out = game.tick(210.0)
    assert kinds_of(out.events) == ["round_ended", "pause_opened"]
    assert out.events[0].result.length == 180.0


def test_r32_two_pauses_add_up_and_time_never_counts_twice():
    game = position(STUCK, now=0.0)
    ok(game.apply(Pause(), 10.0))
    ok(game.apply(Resume(), 20.0))
    ok(game.apply(Pause(by="host"), 30.0))
    ok(game.apply(Resume(), 45.0))
    assert game.lag == 25.0 and game.next_deadline() == 205.0


def test_r18_the_emission_cadence_stops_and_goes_on_from_where_it_stood():
    game = position(STUCK, now=0.0)
    ok(game.apply(TakeChannel(0), 0.0))
    out = ok(game.apply(ChooseEmoji(0, "🐙"), 0.0))
    assert kinds_of(out.events) == ["emitted"]
    ok(game.apply(Pause(), 3.0))
    assert game.tick(60.0).events == ()
    ok(game.apply(Resume(), 60.0))
    assert game.next_deadline() == 62.0  # 2 s were left of the 5 s period
    out = game.tick(62.0)
    assert kinds_of(out.events) == ["emitted"]


def test_r15_r21_cooldowns_are_frozen_and_shown_frozen():
    game = position(STUCK, now=0.0)
    ok(game.apply(Swap(*swap_args(game, 0, "T", "K")), 1.0))  # swap cooldown to 3.0
    ok(game.apply(TakeChannel(1), 1.5))  # channel cooldown to 3.5
    ok(game.apply(Pause(), 2.0))
    you0, you1 = seat_view(game, 0, 500.0)["you"], seat_view(game, 1, 500.0)["you"]
    assert you0["swap_wait"] == 1.0 and you1["channel_wait"] == 1.5
    ok(game.apply(Resume(), 100.0))
    out = refused(game.apply(Swap(*swap_args(game, 0, "A", "Q")), 100.5), Reason.SWAP_COOLDOWN)
    assert out.refusal.details == {"wait": 0.5}
    refused(game.apply(ReleaseChannel(1), 101.0), Reason.CHANNEL_COOLDOWN)
    ok(game.apply(Swap(*swap_args(game, 0, "A", "Q")), 101.0))
    ok(game.apply(ReleaseChannel(1), 101.5))


def test_r28_the_vote_window_is_frozen():
    game = position(STUCK, "HHBB", now=0.0)
    ok(game.apply(RequestReshuffle(0), 1.0))  # ends at 21
    ok(game.apply(Pause(), 5.0))
    assert table_view(game, 99.0)["reshuffle"]["vote"]["left"] == 16.0
    refused(game.apply(AnswerVote(1, True), 6.0), Reason.PAUSED)
    ok(game.apply(Resume(), 105.0))
    assert game.next_deadline() == 121.0
    out = game.tick(121.0)
    assert [(e.passed, e.why) for e in out.events if isinstance(e, ev.VoteEnded)] == [(False, "silence")]


def test_r29_the_gap_between_votes_is_counted_in_play_time():
    game = position(STUCK, "HHBB", now=0.0)
    ok(game.apply(RequestReshuffle(0), 1.0))
    ok(game.apply(AnswerVote(1, False), 2.0))  # next vote from 32.0
    ok(game.apply(Pause(), 10.0))
    ok(game.apply(Resume(), 40.0))
    assert table_view(game, 40.0)["reshuffle"]["next_vote_in"] == 22.0
    refused(game.apply(RequestReshuffle(0), 61.0), Reason.VOTE_TOO_SOON)
    ok(game.apply(RequestReshuffle(0), 62.0))


def test_r11_the_sign_phase_is_frozen_and_never_times_out_into_random_signs_while_paused():
    game = sign_phase(4, "HHBB", now=0.0)
    ok(game.apply(PickSign(0, "🍍"), 1.0))
    ok(game.apply(Pause(), 10.0))
    assert game.tick(1_000.0).events == () and game.phase is Phase.SIGN
    assert table_view(game, 1_000.0)["clock"] == 50.0  # a game's first sign phase lasts 60 s
    refused(game.apply(Ready(0), 11.0), Reason.PAUSED)
    refused(game.apply(PickSign(1, "🚀"), 11.0), Reason.PAUSED)
    ok(game.apply(Resume(), 1_000.0))
    assert game.next_deadline() == 1_050.0
    out = game.tick(1_050.0)
    assert "round_opened" in kinds_of(out.events) and [
        e.team for e in out.events if e.to_json()["type"] == "random_sign_given"
    ] == [1]


def test_the_pause_between_rounds_is_frozen():
    game = position("AAAA QQJJ KKTT KQJT | QJKT", now=0.0)
    ok(game.apply(CallQuatro(2), 5.0))  # wrong: the pause runs to 35
    ok(game.apply(Pause(), 10.0))
    refused(game.apply(StartNextRound(), 11.0), Reason.PAUSED)
    assert table_view(game, 500.0)["clock"] == 25.0
    ok(game.apply(Resume(), 50.0))
    assert game.next_deadline() == 75.0
    assert "sign_phase_opened" in kinds_of(game.tick(75.0).events)


def test_views_say_who_paused_and_the_lazy_views_agree():
    game = position(STUCK, now=0.0)
    assert table_view(game, 1.0)["paused"] is None
    out = ok(game.apply(Pause(), 2.0))
    assert [e.to_json() for e in out.events] == [{"type": "game_paused", "by": "host"}]
    builder = ViewBuilder(game)
    for seat in range(4):
        assert builder.seat_views(40.0)[seat] == seat_view(game, seat, 40.0)
    assert seat_view(game, 1, 40.0)["paused"] == {"by": "host"}
    ok(game.apply(Resume(), 50.0))
    assert table_view(game, 50.0)["paused"] is None and ViewBuilder(game).table_view(50.0) == table_view(game, 50.0)


@pytest.mark.parametrize(
    "command",
    [
        Swap(0, 0, 0, 0),
        TakeChannel(0),
        ReleaseChannel(0),
        ChooseEmoji(0, "🐙"),
        CallQuatro(0, confirmed=True),
        RequestReshuffle(0),
        AnswerVote(1, True),
        Pause(),
        Pause(by="restart"),
    ],
    ids=lambda c: type(c).__name__,
)
def test_commands_that_need_running_time_are_refused_paused_and_change_nothing(command):
    game = position(STUCK, now=0.0)
    ok(game.apply(TakeChannel(0), 0.0))
    ok(game.apply(Pause(), 1.0))
    before = fingerprint(game)
    out = refused(game.apply(command, 2.0), Reason.PAUSED)
    assert out.refusal.details == {"by": "host"} and "paused" in out.refusal.message
    assert fingerprint(game) == before


def test_pause_and_resume_refusals():
    game = sign_phase(4, "HHBB")
    refused(game.apply(Resume(), 1.0), Reason.NOT_PAUSED)
    ok(game.apply(NewGame(), 1.0))
    refused(game.apply(Pause(), 1.0), Reason.WRONG_PHASE)  # nothing runs in the lobby
    with pytest.raises(ValueError):
        Pause(by="a phone")  # who paused is the server's word: anything else is a caller's bug


def test_r28_a_voter_leaving_during_a_pause_drops_out_only_when_it_lifts():
    game = position(STUCK, "HHHB", now=0.0)
    ok(game.apply(RequestReshuffle(0), 1.0))
    ok(game.apply(AnswerVote(1, True), 2.0))
    ok(game.apply(Pause(), 3.0))
    out = ok(game.apply(SetConnected(2, False), 4.0))
    assert kinds_of(out.events) == ["connection_changed"] and game.vote.voters == [1, 2]
    out = ok(game.apply(Resume(), 10.0))
    assert kinds_of(out.events) == ["game_resumed", "vote_ended", "reshuffled"]  # R28: seat 2 is still away


def test_r11_a_player_leaving_during_a_pause_is_waited_for_until_it_lifts():
    game = sign_phase(4, "HHBB")
    ok(game.apply(Ready(0), 1.0))
    ok(game.apply(Pause(), 2.0))
    ok(game.apply(SetConnected(1, False), 3.0))
    assert game.phase is Phase.SIGN
    out = ok(game.apply(Resume(), 9.0))
    assert kinds_of(out.events)[0] == "game_resumed" and "round_opened" in kinds_of(out.events)
    assert game.phase is Phase.PLAY

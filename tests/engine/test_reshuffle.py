"""R27–R31: the reshuffle ("rebattage") and its vote."""

from collections import Counter

from quatro_party.engine import (
    AnswerVote,
    CallQuatro,
    Phase,
    Ready,
    Reason,
    RequestReshuffle,
    SeatKind,
    SetConnected,
    Sit,
    StartNextRound,
    Swap,
    seat_view,
    table_view,
)
from quatro_party.engine import events as ev

from .scenario import fingerprint, kinds_of, ok, position, refused, swap_args

STUCK = "AAKT QQJJ KKTT JJAQ | KQTA"


def _ended(out):
    return [(e.passed, e.why) for e in out.events if isinstance(e, ev.VoteEnded)]


def test_r27_a_reshuffle_deals_hands_and_centre_anew_with_r6():
    redeals = 0
    for seed in range(30):
        game = position(STUCK, "HBBB", seed=seed)
        before = sorted(game.all_cards())
        out = ok(game.apply(RequestReshuffle(0), 3.0))  # no other human: it happens at once (R28)
        assert kinds_of(out.events) == ["vote_opened", "vote_ended", "reshuffled"]
        [reshuffled] = [e for e in out.events if isinstance(e, ev.Reshuffled)]
        assert list(reshuffled.centre) == game.centre and reshuffled.redeals == game.redeals
        redeals += game.redeals
        assert sorted(game.all_cards()) == before  # the same cards, only moved
        assert all(max(Counter(c.rank for c in s.hand).values()) < 3 for s in game.seats)
        assert game.reshuffled and table_view(game, 3.0)["reshuffle"]["done"] is True
    assert redeals > 0


def test_r28_every_other_connected_human_must_accept():
    game = position(STUCK, "HHHB")
    ok(game.apply(SetConnected(2, False), 0.0))  # not connected when the vote opens: not a voter
    out = ok(game.apply(RequestReshuffle(0), 1.0))
    [opened] = [e for e in out.events if isinstance(e, ev.VoteOpened)]
    assert opened.to_json() == {"type": "vote_opened", "requester": 0, "voters": [1], "length": 20.0}
    assert seat_view(game, 1, 1.0)["you"]["voter"] and not seat_view(game, 0, 1.0)["you"]["voter"]
    refused(game.apply(AnswerVote(0, True), 2.0), Reason.NOT_A_VOTER)  # the requester does not vote
    ok(game.apply(SetConnected(2, True), 2.0))
    refused(game.apply(AnswerVote(2, True), 2.0), Reason.NOT_A_VOTER)  # came back too late
    out = ok(game.apply(AnswerVote(1, True), 3.0))
    assert _ended(out) == [(True, "accepted")] and "reshuffled" in kinds_of(out.events)


def test_r28_all_voters_must_accept_and_a_second_answer_is_refused():
    game = position(STUCK, "HHHH")
    ok(game.apply(RequestReshuffle(0), 1.0))
    out = ok(game.apply(AnswerVote(1, True), 2.0))
    assert _ended(out) == [] and game.vote is not None
    refused(game.apply(AnswerVote(1, False), 2.0), Reason.ALREADY_ANSWERED)
    ok(game.apply(AnswerVote(3, True), 2.0))
    assert table_view(game, 2.0)["reshuffle"]["vote"]["accepted"] == [1, 3]
    out = ok(game.apply(AnswerVote(2, True), 4.0))
    assert _ended(out) == [(True, "accepted")]


def test_r28_one_refusal_ends_the_vote():
    game = position(STUCK, "HHHH")
    ok(game.apply(RequestReshuffle(0), 1.0))
    ok(game.apply(AnswerVote(1, True), 2.0))
    position_before = game.position()
    out = ok(game.apply(AnswerVote(2, False), 3.0))
    assert _ended(out) == [(False, "refused")] and game.vote is None
    assert game.position() == position_before and not game.reshuffled
    refused(game.apply(AnswerVote(3, True), 3.0), Reason.NO_VOTE)


def test_r28_silence_is_a_refusal_after_20_seconds():
    game = position(STUCK, "HHHH")
    ok(game.apply(RequestReshuffle(0), 10.0))
    ok(game.apply(AnswerVote(1, True), 11.0))
    ok(game.apply(AnswerVote(2, True), 12.0))
    assert game.next_deadline() == 30.0
    assert table_view(game, 25.0)["reshuffle"]["vote"]["left"] == 5.0
    assert _ended(game.tick(29.99)) == []
    assert _ended(game.tick(30.0)) == [(False, "silence")]
    assert not game.reshuffled


def test_r28_a_voter_who_disconnects_drops_out_of_the_vote():
    game = position(STUCK, "HHHH")
    ok(game.apply(RequestReshuffle(0), 1.0))
    ok(game.apply(AnswerVote(1, True), 2.0))
    ok(game.apply(AnswerVote(3, True), 2.0))
    out = ok(game.apply(SetConnected(2, False), 3.0))  # the last one missing leaves: everyone left accepted
    assert kinds_of(out.events) == ["connection_changed", "vote_ended", "reshuffled"]
    assert _ended(out) == [(True, "accepted")]


def test_r29_at_most_one_reshuffle_per_round():
    game = position(STUCK, "HBBB")
    ok(game.apply(RequestReshuffle(0), 1.0))
    out = refused(game.apply(RequestReshuffle(0), 100.0), Reason.RESHUFFLE_ALREADY_DONE)
    assert out.refusal.message == "this round was already reshuffled"
    ok(game.apply(CallQuatro(0, confirmed=True), 100.0))
    ok(game.apply(StartNextRound(), 100.0))
    ok(game.apply(Ready(0), 100.0))
    assert game.phase is Phase.PLAY and not game.reshuffled
    ok(game.apply(RequestReshuffle(0), 101.0))  # a new round, a new chance


def test_r29_thirty_seconds_from_the_end_of_a_vote_to_the_start_of_the_next():
    game = position(STUCK, "HHHH")
    ok(game.apply(RequestReshuffle(0), 1.0))
    refused(game.apply(RequestReshuffle(1), 2.0), Reason.VOTE_RUNNING)
    ok(game.apply(AnswerVote(1, False), 10.0))  # the vote ends at 10
    game.tick(39.0)
    before = fingerprint(game)
    out = refused(game.apply(RequestReshuffle(2), 39.0), Reason.VOTE_TOO_SOON)
    assert out.refusal.message == "too soon after the last vote, 1.0 s left"
    assert fingerprint(game) == before
    assert table_view(game, 39.0)["reshuffle"]["next_vote_in"] == 1.0
    ok(game.apply(RequestReshuffle(2), 40.0))


def test_r30_bots_do_not_ask_and_do_not_vote():
    game = position(STUCK, "HBHB")
    refused(game.apply(RequestReshuffle(1), 1.0), Reason.SEAT_NOT_HUMAN)
    out = ok(game.apply(RequestReshuffle(0), 1.0))
    assert [e.voters for e in out.events if isinstance(e, ev.VoteOpened)] == [(2,)]
    refused(game.apply(AnswerVote(3, True), 2.0), Reason.NOT_A_VOTER)


def test_r30_a_voter_replaced_by_a_bot_drops_out():
    game = position(STUCK, "HHHH")
    ok(game.apply(RequestReshuffle(0), 1.0))
    ok(game.apply(AnswerVote(1, True), 2.0))
    ok(game.apply(AnswerVote(2, True), 2.0))
    out = ok(game.apply(Sit(3, SeatKind.BOT, "Robo"), 3.0))
    assert _ended(out) == [(True, "accepted")]


def test_r31_play_goes_on_during_the_vote_and_after_the_reshuffle_same_signs_clock_and_scores():
    game = position(STUCK, "HHHH", signs={0: "🍉", 1: "🎸"})
    ok(game.apply(RequestReshuffle(0), 1.0))
    ok(game.apply(Swap(*swap_args(game, 3, "J", "K")), 2.0))  # play does not stop during a vote
    for seat in (1, 2, 3):
        ok(game.apply(AnswerVote(seat, True), 5.0))
    assert game.reshuffled and game.phase is Phase.PLAY
    assert [t.sign for t in game.teams] == ["🍉", "🎸"] and game.scores() == (0, 0)
    assert game.round_opened_at == 0.0 and game.next_deadline() == 180.0  # same clock
    assert table_view(game, 5.0)["clock"] == 175.0


def test_r31_a_call_during_the_vote_ends_the_vote_with_the_round():
    game = position(STUCK, "HHHH")
    ok(game.apply(RequestReshuffle(0), 1.0))
    out = ok(game.apply(CallQuatro(1), 2.0))
    assert _ended(out) == [(False, "round_over")] and kinds_of(out.events)[1] == "round_ended"
    assert game.vote is None

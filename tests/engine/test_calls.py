"""R22–R26: Quatro and Contre, their exact scoring, the server's order, the end of the round and the reveal."""

import pytest

from quatro_party.engine import (
    CallContre,
    CallQuatro,
    ChooseEmoji,
    Phase,
    Reason,
    RoundEnd,
    Swap,
    TakeChannel,
    reveal_view,
    seat_view,
    table_view,
)
from quatro_party.engine import events as ev

from .scenario import fingerprint, kinds_of, ok, position, refused, swap_args


def _result(out):
    [ended] = [e for e in out.events if isinstance(e, ev.RoundEnded)]
    return ended.result


def test_r22_quatro_with_a_carre_in_the_partners_hand_scores_for_the_callers_team():
    game = position("KQJT KQJT AAAA KQJT | KQJT")  # seat 2 (partner of 0) holds four aces
    res = _result(ok(game.apply(CallQuatro(0), 5.0)))
    assert (res.end, res.caller, res.target, res.correct, res.scorers) == (RoundEnd.QUATRO, 0, 2, True, (0,))
    assert game.scores() == (1, 0)


@pytest.mark.parametrize(
    "n, text, expected",
    [
        (4, "AKQJ QQJJ AAKT KKTT | AJQT", (0, 1)),
        (6, "AKQJ QQJJ AA98 KKTT 9988 KTQ8 | AJ9T", (0, 1, 1)),
        (8, "AKQJ QQJJ AA98 KKTT 9988 KTQ8 7766 7766 | AJ9T", (0, 1, 1, 1)),
    ],
)
def test_r22_a_false_quatro_scores_for_every_other_team(n, text, expected):
    game = position(text)
    res = _result(ok(game.apply(CallQuatro(0), 5.0)))
    assert not res.correct and res.target == n // 2
    assert game.scores() == expected


def test_r22_quatro_never_looks_at_the_callers_own_hand():
    game = position("AAAA QQJJ KKTT KQJT | QJKT")  # seat 0 holds the carré, its partner (2) does not
    res = _result(ok(game.apply(CallQuatro(0, confirmed=True), 5.0)))
    assert not res.correct and res.scorers == (1,) and game.scores() == (0, 1)


def test_r23_calling_quatro_on_a_carre_of_your_own_asks_for_confirmation_first():
    game = position("AAAA QQJJ KKTT KQJT | QJKT")
    game.tick(5.0)
    before = fingerprint(game)
    out = refused(game.apply(CallQuatro(0), 5.0), Reason.CONFIRM_OWN_CARRE)
    assert "partner" in out.refusal.message and "confirm" in out.refusal.message
    assert fingerprint(game) == before and game.phase is Phase.PLAY  # the round goes on
    assert seat_view(game, 0, 5.0)["you"]["has_carre"] is True  # the phone can warn before asking
    ok(game.apply(CallQuatro(0, confirmed=True), 5.0))


def test_r23_both_partners_may_hold_a_carre():
    game = position("AAAA QQJJ KKKK QJTT | QJTT")
    refused(game.apply(CallQuatro(2), 5.0), Reason.CONFIRM_OWN_CARRE)
    res = _result(ok(game.apply(CallQuatro(2, confirmed=True), 5.0)))
    assert res.correct and set(res.carres) == {0, 2} and game.scores() == (1, 0)


@pytest.mark.parametrize("text", ["AAKQ JJJJ AKQT KQTT | AKQT", "AAKQ KQTT AKQT JJJJ | AKQT"])
def test_r24_contre_scores_for_the_caller_when_either_accused_player_holds_a_carre(text):
    game = position(text)  # seat 1, then seat 3, holds the carré of team 1
    res = _result(ok(game.apply(CallContre(0), 5.0)))  # at 4 seats the team may be left out
    assert (res.end, res.target, res.correct, res.scorers) == (RoundEnd.CONTRE, 1, True, (0,))
    assert game.scores() == (1, 0)


def test_r24_a_false_contre_scores_for_the_accused_team_even_if_another_team_held_a_carre():
    game = position("AAAA QQJJ KKTT 9988 KQJT 9988 | QJKT")  # team 0 (seats 0, 3) has a carré; team 1 none
    res = _result(ok(game.apply(CallContre(2, team=1), 5.0)))
    assert not res.correct and res.scorers == (1,) and game.scores() == (0, 1, 0)
    assert res.carres == (0,)


def test_r24_at_6_and_8_seats_the_caller_names_an_opposing_team():
    game = position("AAAA QQJJ KKTT 9988 KQJT 9988 | QJKT")
    game.tick(5.0)
    before = fingerprint(game)
    for team in (None, 2, -1, 3, True):  # none named, own team (seat 2 is team 2), out of range, not an int
        out = refused(game.apply(CallContre(2, team=team), 5.0), Reason.BAD_TEAM)
        assert out.refusal.message == "name an opposing team"
    assert fingerprint(game) == before
    res = _result(ok(game.apply(CallContre(2, team=0), 5.0)))
    assert res.correct and game.scores() == (0, 0, 1)


def test_r24_at_4_seats_contre_on_the_own_team_is_refused():
    game = position("AAAA QQJJ KKTT JJQT | QKKT")
    refused(game.apply(CallContre(0, team=0), 5.0), Reason.BAD_TEAM)
    ok(game.apply(CallContre(1, team=0), 5.0))
    assert game.scores() == (0, 1)


def test_r25_a_call_is_judged_after_every_action_that_arrived_before_it():
    game = position("KQJT QQJJ AAAK KTTJ | KQTA")
    ok(game.apply(Swap(*swap_args(game, 2, "K", "A")), 5.0))  # seat 2 completes four aces…
    res = _result(ok(game.apply(CallQuatro(0), 5.0)))  # …and the call, same instant, arrives after it
    assert res.correct


def test_r25_a_carre_broken_just_before_the_call_is_no_longer_there():
    game = position("KQJT QQJJ AAAA KTTK | KQTJ")
    ok(game.apply(Swap(*swap_args(game, 2, "A", "K")), 5.0))  # seat 2 breaks its carré first
    res = _result(ok(game.apply(CallQuatro(0), 5.0)))
    assert not res.correct and game.scores() == (0, 1)


def test_r25_deadlines_due_before_a_call_happen_first():
    game = position("KQJT QQJJ AAAA KTTK | KQTJ")
    ok(game.apply(TakeChannel(2), 0.0))
    ok(game.apply(ChooseEmoji(2, "🍍"), 0.0))
    out = ok(game.apply(CallQuatro(0), 5.0))  # the 5 s emission is due at 5.0: it is seen before the call
    assert kinds_of(out.events)[:2] == ["emitted", "round_ended"]


def test_r26_the_first_call_ends_the_round_and_every_hand_carre_and_sign_is_revealed():
    game = position("KQJT QQJJ AAAA KTTK | KQTJ", signs={0: "🦄", 1: "🐝"})
    out = ok(game.apply(CallContre(1), 7.0))  # right: seat 2 holds a carré
    assert kinds_of(out.events) == ["round_ended", "pause_opened"]
    res = _result(out)
    assert game.phase is Phase.PAUSE and game.scores() == (0, 1)
    reveal = reveal_view(game)
    assert reveal == res.to_json() == table_view(game, 7.0)["result"] == seat_view(game, 3, 7.0)["result"]
    assert [[c["id"] for c in hand] for hand in reveal["hands"]] == [[c.id for c in s.hand] for s in game.seats]
    assert res.hands[2][0].rank == "A" and [c["id"] for c in reveal["centre"]] == [c.id for c in game.centre]
    assert reveal["carres"] == [2] and reveal["signs"] == ["🦄", "🐝"]
    assert reveal["centre"] and reveal["caller"] == 1 and reveal["target"] == 0 and reveal["correct"] is True
    for second in (CallQuatro(3, confirmed=True), CallContre(0), Swap(0, 0, 0, 0)):
        refused(game.apply(second, 7.0), Reason.WRONG_PHASE)  # the round is over: right or wrong
    assert game.scores() == (0, 1)


def test_r26_the_reveal_happens_on_a_void_round_too():
    game = position("KQJT QQJJ AAAA KTTK | KQTJ", signs={0: "🦄", 1: "🐝"})
    out = game.tick(180.0)
    res = _result(out)
    assert res.end is RoundEnd.VOID and res.signs == ("🦄", "🐝") and res.carres == (2,)

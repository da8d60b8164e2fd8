"""R8–R13: the sign phase — picking, secrecy, no repeat, readiness, random signs, dealing at the open."""

import json

import pytest

from quatro_party.engine import (
    SIGNS,
    CallQuatro,
    ChooseEmoji,
    EndGame,
    NewGame,
    Phase,
    PickSign,
    Ready,
    Reason,
    SeatKind,
    SetConnected,
    Sit,
    StartGame,
    StartNextRound,
    StartPractice,
    Swap,
    TakeChannel,
    seat_view,
    table_view,
)
from quatro_party.engine import events as ev
from quatro_party.engine.rules import PRACTICE_TIMER_FACTOR

from .scenario import fingerprint, kinds_of, lobby, ok, playing, refused, sign_phase


def _text(view) -> str:
    return json.dumps(view, ensure_ascii=False)


def _next_sign_phase(game, now):
    """End the running round with a (false) call and cut the pause short."""
    ok(game.apply(CallQuatro(0, confirmed=True), now))
    ok(game.apply(StartNextRound(), now))
    assert game.phase is Phase.SIGN


def test_r8_the_24_signs_in_their_order():
    assert SIGNS == tuple("🍍 🚀 🐢 🦊 🐙 🌵 🍉 🎸 🦄 🐝 🍄 🌈 🔥 ⚓ 🎩 🦀 🐧 🍒 🌙 ⭐ 🎲 🦉 🍩 🐳".split())
    assert table_view(sign_phase(4), 0.0)["signs"] == list(SIGNS)


def test_r8_first_partner_fixes_the_sign_and_the_partner_sees_it_at_once():
    game = sign_phase(6)
    out = ok(game.apply(PickSign(1, "🦊"), 1.0))
    assert out.events == ()  # no public event names the sign, or even that it was picked
    assert seat_view(game, 1, 1.0)["you"]["sign"] == "🦊"
    assert seat_view(game, 4, 1.0)["you"]["sign"] == "🦊"  # the partner, at once
    before = fingerprint(game)
    out = refused(game.apply(PickSign(4, "🐳"), 1.0), Reason.SIGN_ALREADY_FIXED)
    assert "already fixed" in out.refusal.message
    refused(game.apply(PickSign(1, "🐳"), 1.0), Reason.SIGN_ALREADY_FIXED)  # nor by the picker
    assert fingerprint(game) == before and game.teams[1].sign == "🦊"


def test_r8_nobody_else_learns_the_sign_not_the_big_screen_nor_other_teams():
    game = sign_phase(6)
    ok(game.apply(PickSign(1, "🦊"), 1.0))
    for seat in (0, 2, 3, 5):
        view = seat_view(game, seat, 1.0)
        assert view["you"]["sign"] is None
        view.pop("signs")
        assert "🦊" not in _text(view)
    view = table_view(game, 1.0)
    view.pop("signs")
    assert "🦊" not in _text(view)


@pytest.mark.parametrize("sign", ["🐈", "", "A", "🍍🍍"])
def test_r8_only_one_of_the_24_signs(sign):
    game = sign_phase(4)
    refused(game.apply(PickSign(0, sign), 1.0), Reason.UNKNOWN_SIGN)
    assert game.teams[0].sign is None


def test_r9_two_teams_may_pick_the_same_sign_and_nothing_tells_them():
    game = sign_phase(8)
    for team in range(4):
        out = ok(game.apply(PickSign(team, "🐙"), 1.0))
        assert out.events == ()
    assert [t.sign for t in game.teams] == ["🐙"] * 4


def test_r10_a_team_may_not_pick_last_rounds_sign():
    game = playing(4, signs={0: "🍍", 1: "🚀"})
    _next_sign_phase(game, 10.0)
    assert seat_view(game, 0, 10.0)["you"]["last_sign"] == "🍍"
    out = refused(game.apply(PickSign(0, "🍍"), 11.0), Reason.SIGN_USED_LAST_ROUND)
    assert "last round" in out.refusal.message
    ok(game.apply(PickSign(0, "🚀"), 11.0))  # the other team's old sign is fine (R9)
    ok(game.apply(PickSign(1, "🍍"), 11.0))


def test_r10_a_random_sign_never_repeats_last_rounds_either():
    for seed in range(60):
        game = playing(4, seed=seed, signs={0: SIGNS[seed % 24]})
        for round_ in range(3):
            last = [t.sign for t in game.teams]
            _next_sign_phase(game, 10.0 * (round_ + 1))
            for seat in range(4):
                ok(game.apply(Ready(seat), 10.0 * (round_ + 1)))
            assert all(t.random_sign for t in game.teams)
            assert all(t.sign != old for t, old in zip(game.teams, last))


def test_r11_the_round_opens_when_every_connected_human_is_ready():
    game = sign_phase(4, "HHBB")
    assert game.next_deadline() == 60.0  # a game's first sign phase
    out = ok(game.apply(Ready(0), 3.0))
    assert kinds_of(out.events) == ["player_ready"] and game.phase is Phase.SIGN
    refused(game.apply(Ready(0), 3.5), Reason.ALREADY_READY)
    out = ok(game.apply(Ready(1), 4.0))  # the bots (2, 3) are always ready
    assert game.phase is Phase.PLAY and game.round_opened_at == 4.0
    assert kinds_of(out.events)[:2] == ["player_ready", "random_sign_given"]
    assert "round_opened" in kinds_of(out.events) and "dealt" in kinds_of(out.events)


def test_r11_the_round_opens_after_60_seconds_in_a_games_first_round_30_in_the_next_ones():
    game = sign_phase(4, "HHHH", now=100.0)
    assert table_view(game, 100.0)["timing"]["first_sign_phase"] == 60.0
    ok(game.apply(Ready(0), 101.0))
    assert game.tick(159.999).events == () and game.phase is Phase.SIGN  # newcomers read what a sign is
    out = game.tick(160.0)
    assert game.phase is Phase.PLAY and game.round_opened_at == 160.0
    assert "round_opened" in kinds_of(out.events)
    _next_sign_phase(game, 170.0)
    assert game.round == 2 and table_view(game, 170.0)["clock"] == 30.0
    assert game.tick(199.999).events == () and game.phase is Phase.SIGN
    game.tick(200.0)
    assert game.phase is Phase.PLAY


def test_r11_the_first_sign_phase_of_a_new_game_and_of_a_practice_round_lasts_60_seconds_too():
    game = sign_phase(4, "HHBB")
    ok(game.apply(EndGame(), 1.0))
    ok(game.apply(NewGame(), 2.0))
    ok(game.apply(StartGame(), 3.0))
    assert game.round == 1 and table_view(game, 3.0)["clock"] == 60.0
    practice = lobby(4, "HHBB")
    ok(practice.apply(StartPractice(), 0.0))
    assert table_view(practice, 0.0)["clock"] == 60.0 * PRACTICE_TIMER_FACTOR


def test_r11_disconnected_players_are_not_waited_for():
    game = sign_phase(4, "HHHB")
    ok(game.apply(Ready(0), 1.0))
    ok(game.apply(Ready(1), 1.0))
    ok(game.apply(SetConnected(2, False), 2.0))  # the last one waited for drops: the round opens
    assert game.phase is Phase.PLAY
    assert len(game.seats[2].hand) == 4  # R33: the absent player is dealt in all the same


def test_r11_a_phone_that_comes_back_is_waited_for_again():
    game = sign_phase(4, "HHBB")
    ok(game.apply(SetConnected(1, False), 1.0))
    ok(game.apply(SetConnected(1, True), 2.0))
    ok(game.apply(Ready(0), 3.0))
    assert game.phase is Phase.SIGN


def test_r11_an_all_bot_table_opens_at_once():
    game = playing(8, "BBBBBBBB")
    assert game.phase is Phase.PLAY and all(t.random_sign for t in game.teams)


def test_r12_a_team_without_a_sign_gets_a_random_one_and_only_the_team_learns_which():
    game = sign_phase(4)
    ok(game.apply(PickSign(0, "🎸"), 1.0))
    out = game.tick(60.0)
    given = [e for e in out.events if isinstance(e, ev.RandomSignGiven)]
    assert [e.team for e in given] == [1]
    assert given[0].to_json() == {"type": "random_sign_given", "team": 1}
    assert game.teams[0].sign == "🎸" and game.teams[1].sign in SIGNS
    assert seat_view(game, 3, 60.0)["you"]["sign"] == game.teams[1].sign
    assert [t["random_sign"] for t in table_view(game, 60.0)["teams"]] == [False, True]


def test_r13_no_cards_before_the_round_opens_and_no_play_in_the_sign_phase():
    game = sign_phase(4)
    assert all(s.hand == [] for s in game.seats) and game.centre == []
    assert seat_view(game, 0, 1.0)["you"]["hand"] == [] and table_view(game, 1.0)["centre"] == []
    game.tick(1.0)
    before = fingerprint(game)
    out = refused(game.apply(Swap(0, 0, 0, 1), 1.0), Reason.WRONG_PHASE)
    assert out.refusal.message.startswith("not during the sign phase")
    refused(game.apply(TakeChannel(0), 1.0), Reason.WRONG_PHASE)
    refused(game.apply(ChooseEmoji(0, "🍍"), 1.0), Reason.WRONG_PHASE)
    refused(game.apply(CallQuatro(0, confirmed=True), 1.0), Reason.WRONG_PHASE)
    assert fingerprint(game) == before


def test_r13_a_bot_with_a_human_partner_leaves_the_sign_to_the_partner():
    game = sign_phase(4, "HBHB")  # team 1 is seats 1 and 3: two bots; team 0: seat 0 human, seat 2 human
    ok(game.apply(Sit(2, SeatKind.BOT, "Robo"), 0.0))  # now team 0 is a human (0) and a bot (2)
    out = refused(game.apply(PickSign(2, "🍍"), 1.0), Reason.SIGN_LEFT_TO_PARTNER)
    assert "partner" in out.refusal.message
    ok(game.apply(PickSign(1, "🍍"), 1.0))  # a bot whose partner is a bot picks
    ok(game.apply(PickSign(0, "🚀"), 1.0))


def test_r13_signs_are_picked_only_in_the_sign_phase():
    game = playing(4)
    refused(game.apply(PickSign(0, "🐢"), 1.0), Reason.WRONG_PHASE)
    refused(game.apply(Ready(0), 1.0), Reason.WRONG_PHASE)

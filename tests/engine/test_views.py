"""R36–R39 and the refusal contract: who sees what, and what a refused command leaves behind."""

import copy
import json

import pytest

from quatro_party.engine import (
    AnswerVote,
    CallContre,
    CallQuatro,
    ChooseEmoji,
    EndGame,
    Pause,
    Phase,
    PickSign,
    Ready,
    Reason,
    ReleaseChannel,
    RequestReshuffle,
    Resume,
    Settings,
    StartPractice,
    Swap,
    TakeChannel,
    reveal_view,
    seat_view,
    table_view,
)
from quatro_party.engine.randomplay import RandomPlay

from .leaks import card_ids, check_event, check_view, emojis_in
from .scenario import fingerprint, lobby, ok, position, refused, sign_phase, swap_args


def test_r36_the_table_view_holds_public_facts_and_no_hand_or_sign():
    game = position("AAKT QQJJ KKTT JJAQ | KQTA", signs={0: "🦀", 1: "🐧"})
    ok(game.apply(TakeChannel(1), 0.0))
    ok(game.apply(ChooseEmoji(1, "🍒"), 0.0))
    ok(game.apply(Swap(*swap_args(game, 0, "T", "K")), 1.0))
    view = table_view(game, 1.0)
    check_view(game, view)
    assert "you" not in view
    assert card_ids(view) == {c.id for c in game.centre}
    assert {"🦀", "🐧"} & emojis_in({k: v for k, v in view.items() if k != "signs"}) == set()
    assert view["seats"][1]["channel"] == {"held": True, "emoji": "🍒"}
    assert view["clock"] == 179.0 and view["phase"] == "play" and view["round"] == 1
    assert all("swap_wait" not in s and "hand" not in s for s in view["seats"])  # cooldowns are private (R37)


def test_r37_a_seat_sees_its_own_hand_cooldowns_and_unemitted_choice_only():
    game = position("AAKT QQJJ KKTT JJAQ | KQTA", signs={0: "🦀", 1: "🐧"})
    ok(game.apply(TakeChannel(0), 0.0))
    ok(game.apply(ChooseEmoji(0, "🍒"), 0.0))  # emitted at once: public
    ok(game.apply(ChooseEmoji(0, "🌙"), 1.0))  # not emitted before 5.0: private to seat 0
    ok(game.apply(Swap(*swap_args(game, 0, "T", "K")), 1.0))
    mine = seat_view(game, 0, 1.5)
    check_view(game, mine, 0)
    assert mine["you"]["channel_choice"] == "🌙" and mine["you"]["swap_wait"] == 1.5
    assert [c["id"] for c in mine["you"]["hand"]] == [c.id for c in game.seats[0].hand]
    for seat in (1, 2, 3):
        other = seat_view(game, seat, 1.5)
        check_view(game, other, seat)
        assert "🌙" not in json.dumps({k: v for k, v in other.items() if k != "signs"}, ensure_ascii=False)
        assert other["you"]["swap_wait"] == 0.0 and other["you"]["channel_choice"] is None
        assert card_ids(other) == {c.id for c in game.centre} | {c.id for c in game.seats[seat].hand}
    assert table_view(game, 1.5)["seats"][0]["channel"]["emoji"] == "🍒"


def test_r38_a_teams_sign_reaches_both_partners_and_nobody_else():
    game = sign_phase(6)
    ok(game.apply(PickSign(4, "🍩"), 1.0))
    for seat in range(6):
        view = seat_view(game, seat, 1.0)
        check_view(game, view, seat)
        assert view["you"]["sign"] == ("🍩" if seat in (1, 4) else None)


def test_r39_events_before_the_reveal_carry_no_hand_and_no_sign():
    kinds = set()
    for seed in range(5):
        for event in RandomPlay(seed, 6).play().events:
            check_event(event)
            kinds.add(type(event).__name__)
    assert {"Dealt", "Swapped", "Emitted", "Reshuffled", "RandomSignGiven", "RoundEnded"} <= kinds


def test_r26_after_the_reveal_everybody_sees_everything_of_that_round():
    game = position("KQJT QQJJ AAAA KTTK | KQTJ", signs={0: "🦄", 1: "🐝"})
    hands = [[c.id for c in s.hand] for s in game.seats]
    ok(game.apply(CallQuatro(0), 3.0))
    for view in [table_view(game, 3.0)] + [seat_view(game, s, 3.0) for s in range(4)]:
        assert [[c["id"] for c in h] for h in view["result"]["hands"]] == hands
        assert view["result"]["signs"] == ["🦄", "🐝"] and view["result"]["carres"] == [2]
    assert reveal_view(game)["scores"] == [1, 0]


def test_views_are_plain_json_in_every_phase():
    game = sign_phase(4, "HHBB")
    for _ in range(3):
        for view in [table_view(game, 0.0)] + [seat_view(game, s, 0.0) for s in range(4)]:
            assert json.loads(json.dumps(view)) == view
        if game.phase is Phase.SIGN:
            ok(game.apply(Ready(0), 0.0))
            ok(game.apply(Ready(1), 0.0))
        elif game.phase is Phase.PLAY:
            ok(game.apply(CallQuatro(0, confirmed=True), 0.0))
    with pytest.raises(IndexError):
        seat_view(game, 4, 0.0)


# --- refusals: what the phone shows, and nothing changes -----------------------------------


@pytest.mark.parametrize("seat_count", [4, 6, 8])
def test_a_refused_command_changes_nothing_in_random_games(seat_count):
    """Every refusal met in random play leaves the game exactly as time alone would have (deep compare)."""
    refusals = set()
    for seed in range(3):
        play = RandomPlay(seed, seat_count)
        play.setup()
        while play.game.phase is not Phase.OVER:
            command = play.next_command()
            if command is None:
                play.tick()
                continue
            twin = copy.deepcopy(play.game)
            time_alone = twin.tick(play.now)
            out = play.send(command)
            if out.refusal is not None:
                refusals.add(out.refusal.reason)
                assert out.events == time_alone.events
                assert fingerprint(play.game) == fingerprint(twin), (command, out.refusal)
    assert len(refusals) >= 15  # the walk met most kinds of refusal, not just one


def test_refusal_messages_a_phone_can_show():
    game = position("AAKT QQJJ KKTT JJAQ | KQTA", "HHHB")
    ok(game.apply(Swap(*swap_args(game, 0, "T", "K")), 0.0))
    messages = {
        "cooldown, 1.3 s left": game.apply(Swap(*swap_args(game, 0, "A", "A")), 0.7),
        "that card was just taken — try again": game.apply(Swap(1, game.seats[1].hand[0].id, 0, 999), 0.7),
        "not during the play phase (only sign)": game.apply(Ready(1), 0.7),
        "that card is not in your hand": game.apply(Swap(1, game.seats[0].hand[0].id, 0, game.centre[0].id), 0.7),
        "there is no seat 9 at this table": game.apply(TakeChannel(9), 0.7),
        "bots do not vote or ask for a reshuffle (R30)": game.apply(RequestReshuffle(3), 0.7),
    }
    for message, out in messages.items():
        assert out.refusal is not None and out.refusal.message == message
        data = out.refusal.to_json()
        assert data["message"] == message and isinstance(data["reason"], str)
    assert messages["cooldown, 1.3 s left"].refusal.to_json()["details"] == {"wait": 1.3}
    refused(messages["not during the play phase (only sign)"], Reason.WRONG_PHASE)


def _in_phase(phase: str):
    """A 4-seat game (humans 0–2, bot 3) in the named phase, at t=1."""
    if phase == "lobby":
        return lobby(4, "HHHB")
    if phase == "sign":
        return sign_phase(4, "HHHB")
    game = position("AAKT QQJJ KKTT JJAQ | KQTA", "HHHB")
    if phase in ("pause", "over"):
        if phase == "over":
            game.teams[1].score = 4
        ok(game.apply(CallQuatro(0), 1.0))  # false: team 1 scores
    return game


ILLEGAL = {
    "lobby": [
        Swap(0, 0, 0, 0),
        PickSign(0, "🍍"),
        Ready(0),
        TakeChannel(0),
        CallQuatro(0),
        RequestReshuffle(0),
        Pause(),
        Resume(),
        EndGame(),
        Settings(winning_score=1),
    ],
    "sign": [
        Swap(0, 0, 0, 0),
        PickSign(0, "🐈"),
        PickSign(3, "🍍"),
        TakeChannel(0),
        ChooseEmoji(0, "🍍"),
        CallQuatro(0, confirmed=True),
        RequestReshuffle(0),
        Settings(winning_score=3),
        StartPractice(),
        Resume(),
    ],
    "play": [
        PickSign(0, "🍍"),
        Ready(0),
        Swap(0, 999, 0, 0),
        Swap(0, 0, 9, 0),
        Swap(0, 0, 0, 999),
        Swap(9, 0, 0, 0),
        ReleaseChannel(0),
        ChooseEmoji(0, "🍍"),
        CallContre(0, team=0),
        RequestReshuffle(3),
        AnswerVote(1, True),
        Settings(timer_factor=2),
        StartPractice(),
        Resume(),
    ],
    "pause": [
        Swap(0, 0, 0, 0),
        PickSign(0, "🍍"),
        Ready(0),
        TakeChannel(0),
        CallQuatro(0),
        RequestReshuffle(0),
        Settings(winning_score=3),
        StartPractice(),
        Resume(),
    ],
    "over": [
        Swap(0, 0, 0, 0),
        PickSign(0, "🍍"),
        TakeChannel(0),
        CallQuatro(0),
        RequestReshuffle(0),
        Pause(),
        Resume(),
        EndGame(),
        StartPractice(),
        Settings(timer_factor=5),
        Settings(winning_score=12),
    ],
}


@pytest.mark.parametrize(
    "phase, command",
    [(p, c) for p, cs in ILLEGAL.items() for c in cs],
    ids=lambda v: v if isinstance(v, str) else type(v).__name__,
)
def test_an_illegal_command_is_refused_in_every_phase_and_changes_nothing(phase, command):
    game = _in_phase(phase)
    game.tick(2.0)
    before = copy.deepcopy(game)
    out = game.apply(command, 2.0)
    assert out.refusal is not None and out.events == ()
    assert fingerprint(game) == fingerprint(before)
    assert table_view(game, 2.0) == table_view(before, 2.0)


@pytest.mark.parametrize("seat_count", [4, 8])
def test_the_shared_view_builder_and_you_view_equal_the_plain_views_at_every_step(seat_count):
    """Whole random games (pauses, votes, calls, reveals, game over): field for field, at every step."""
    from quatro_party.engine.views import ViewBuilder, you_view

    for seed in range(4):
        play = RandomPlay(seed, seat_count, record=False)
        play.setup()
        builder = ViewBuilder(play.game)
        while True:
            game, now = play.game, play.now
            table = builder.table_view(now)
            assert table == table_view(game, now)
            for seat in range(seat_count):
                plain = seat_view(game, seat, now)
                assert builder.seat_view(table, seat, now) == plain
                assert builder.you_view(seat, now) == you_view(game, seat, now) == plain["you"]
            if game.phase is Phase.OVER:
                break
            play.step()

"""The round's record and story, the game's recap and awards — and R39: none of it before the round ends."""

from quatro_party.engine import (
    CallContre,
    CallQuatro,
    ChooseEmoji,
    EndGame,
    Pause,
    Phase,
    PickSign,
    Ready,
    ReleaseChannel,
    Resume,
    StartNextRound,
    Swap,
    TakeChannel,
    seat_view,
    table_view,
)
from quatro_party.engine import events as ev
from quatro_party.engine.randomplay import RandomPlay

from .leaks import check_view, keys_in
from .scenario import ok, position, swap_args

SIGNS = {0: "🍍", 1: "🚀"}  # team 0: seats 0 and 2; team 1: seats 1 and 3
ALMOST = "KQJT KQJT AAAT KQJT | AKQJ"  # seat 2 forms a carré of aces by taking the centre's ace


def _story(result):
    return [{k: v for k, v in e.items() if v is not None} for e in result.to_json()["story"]["events"]]


def _scripted_round(game, t0=0.0):
    """Seat 0 decoys, seat 2 forms a carré and flashes the sign twice, seat 1 cracks it with Contre."""
    ok(game.apply(TakeChannel(0), t0 + 1.0))
    ok(game.apply(ChooseEmoji(0, "🐙"), t0 + 1.0))  # a decoy, at once (R18)
    ok(game.apply(Swap(*swap_args(game, 2, "T", "A")), t0 + 2.0))  # the carré forms
    ok(game.apply(ReleaseChannel(0), t0 + 3.5))
    ok(game.apply(TakeChannel(2), t0 + 4.0))
    ok(game.apply(ChooseEmoji(2, "🍍"), t0 + 4.0))  # team 0's sign
    game.tick(t0 + 9.0)  # and again 5 s later
    return ok(game.apply(CallContre(1, 0), t0 + 10.0))


def test_the_story_of_a_scripted_round_is_what_happened_with_its_times():
    game = position(ALMOST, signs=SIGNS)
    out = _scripted_round(game)
    [ended] = [e for e in out.events if isinstance(e, ev.RoundEnded)]
    assert _story(ended.result) == [
        {"t": 1.0, "seat": 0, "kind": "take"},
        {"t": 1.0, "seat": 0, "kind": "emit", "emoji": "🐙", "sign": False},
        {"t": 2.0, "seat": 2, "kind": "swap"},
        {"t": 2.0, "seat": 2, "kind": "carre"},
        {"t": 3.5, "seat": 0, "kind": "release"},
        {"t": 4.0, "seat": 2, "kind": "take"},
        {"t": 4.0, "seat": 2, "kind": "emit", "emoji": "🍍", "sign": True},
        {"t": 9.0, "seat": 2, "kind": "emit", "emoji": "🍍", "sign": True},
        {"t": 10.0, "seat": 1, "kind": "call", "call": "contre", "team": 0, "correct": True},
    ]
    story = table_view(game, 11.0)["result"]["story"]
    assert story["length"] == 10.0 and set(story["events"][0]) == {
        "t",
        "seat",
        "kind",
        "emoji",
        "sign",
        "call",
        "team",
        "correct",
    }
    assert seat_view(game, 3, 11.0)["result"]["story"] == story  # the same for everybody


def test_story_times_count_play_only():
    game = position(ALMOST, signs=SIGNS)
    ok(game.apply(Pause(), 0.5))
    ok(game.apply(Resume(), 100.5))
    out = _scripted_round(game, t0=100.0)
    assert [e["t"] for e in _story(out.events[0].result)][:3] == [1.0, 1.0, 2.0]


def test_r39_no_view_holds_the_running_rounds_story():
    game = position(ALMOST, signs=SIGNS)
    ok(game.apply(TakeChannel(2), 1.0))
    ok(game.apply(ChooseEmoji(2, "🍍"), 1.0))
    ok(game.apply(Swap(*swap_args(game, 2, "T", "A")), 2.0))
    assert game.record  # kept by the engine...
    for seat in (None, 0, 1, 2, 3):
        view = table_view(game, 3.0) if seat is None else seat_view(game, seat, 3.0)
        check_view(game, view, seat)  # ...but in no view (nor whether a flash was the sign)
        assert "story" not in keys_in(view)


def test_r39_random_games_never_show_a_story_before_its_round_ends():
    for seed in range(6):
        play = RandomPlay(seed, 6, record=False)
        play.setup()
        while play.game.phase is not Phase.OVER:
            play.step()
            game = play.game
            if game.phase in (Phase.SIGN, Phase.PLAY):
                view = seat_view(game, play.steps % 6, play.now)
                result = view["result"]
                assert result is None or result["round"] < game.round
                view.pop("result")
                assert "story" not in keys_in(view)


def _round_two(game, t0):
    """Seat 2's carré forms at 2 s; seat 0 calls Quatro half a second later."""
    game.set_position(ALMOST)
    ok(game.apply(Swap(*swap_args(game, 2, "T", "A")), t0 + 2.0))
    return ok(game.apply(CallQuatro(0), t0 + 2.5))


def _round_three(game, t0):
    """Seat 2 flashes two decoys, seat 0 one; seat 3 falls for it: a wrong Contre on team 0."""
    game.set_position("KQJT KQJT AAKT KQJT | AAQJ")
    ok(game.apply(TakeChannel(2), t0 + 1.0))
    ok(game.apply(ChooseEmoji(2, "🐳"), t0 + 1.0))
    game.tick(t0 + 6.0)
    ok(game.apply(TakeChannel(0), t0 + 6.0))
    ok(game.apply(ChooseEmoji(0, "🦀"), t0 + 6.0))
    return ok(game.apply(CallContre(3, 0), t0 + 7.0))


def _next_round(game, now, signs):
    ok(game.apply(StartNextRound(), now))
    for team, sign in signs.items():  # picked, not random: a random sign could be one of the decoys
        ok(game.apply(PickSign(team, sign), now))
    for seat in range(4):
        if game.phase is Phase.SIGN:
            ok(game.apply(Ready(seat), now))
    assert game.phase is Phase.PLAY


def test_the_recap_and_the_awards_at_game_over():
    game = position(ALMOST, signs=SIGNS)
    _scripted_round(game)  # team 1 scores: seat 1's Contre, after one flash of team 0's sign
    _next_round(game, 20.0, {0: "🍉", 1: "🎸"})
    _round_two(game, 20.0)  # team 0 scores: seat 0's Quatro, 0.5 s after the carré formed
    _next_round(game, 30.0, {0: "🍍", 1: "🚀"})
    _round_three(game, 30.0)  # team 0 scores: seat 3's wrong Contre
    assert table_view(game, 40.0)["recap"] is None  # not before game over
    ok(game.apply(EndGame(), 40.0))
    view = seat_view(game, 1, 40.0)
    assert [(r["round"], r["how"], r["caller"], r["target"], r["scorers"], r["scores"]) for r in view["recap"]] == [
        (1, "contre_right", 1, 0, [1], [0, 1]),
        (2, "quatro_right", 0, 2, [0], [1, 1]),
        (3, "contre_wrong", 3, 0, [0], [2, 1]),
    ]
    assert [r["emissions"] for r in view["recap"]] == [3, 0, 3]
    assert view["awards"] == [
        {"award": "sharpest_reader", "seat": 1, "name": "Bob", "detail": {"contres": 1}},
        {"award": "best_contre", "seat": 1, "name": "Bob", "detail": {"round": 1, "team": 0, "flashes": 2, "t": 10.0}},
        {"award": "fastest_quatro", "seat": 0, "name": "Ann", "detail": {"round": 2, "seconds": 0.5}},
        {"award": "boldest_decoy", "seat": 2, "name": "Cat", "detail": {"baited": 1, "decoys": 2}},
    ]
    assert [r["names"] for r in view["recap"]] == [["Ann", "Bob", "Cat", "Dan"]] * 3
    assert view["ended_by"] == "host"
    assert view["awards"] == table_view(game, 40.0)["awards"]

"""A truthful record: a finished round keeps who played it, an award is given only for what happened (no detail
counts zero), a tie goes to a person over a bot, and the game over says whether a score or the host ended it."""

from quatro_party.engine import (
    CallContre,
    CallQuatro,
    ChooseEmoji,
    EndGame,
    Game,
    NewGame,
    Phase,
    PickSign,
    Ready,
    SeatKind,
    Sit,
    StartNextRound,
    Swap,
    TakeChannel,
    seat_view,
    table_view,
)
from quatro_party.engine.randomplay import RandomPlay
from quatro_party.engine.state import Moment, RoundEnd, RoundResult
from quatro_party.engine.story import awards
from quatro_party.engine.views import ViewBuilder

from .scenario import ok, position, swap_args

SIGNS = {0: "🍍", 1: "🚀"}  # team 0: seats 0 and 2; team 1: seats 1 and 3
ALMOST = "KQJT KQJT AAAT KQJT | AKQJ"  # seat 2 forms a carré of aces by taking the centre's ace


def test_r26_a_round_keeps_the_names_of_who_played_it_when_a_seat_is_taken_over_between_rounds():
    game = position(ALMOST, kinds="HBHB", signs=SIGNS)
    ok(game.apply(Swap(*swap_args(game, 2, "T", "A")), 1.0))
    ok(game.apply(CallContre(1, 0), 2.0))  # the bot on seat 1 cracks team 0's carré
    before = table_view(game, 3.0)["result"]
    assert before["names"] == ["Ann", "Bob", "Cat", "Dan"] and before["kinds"] == ["human", "bot", "human", "bot"]
    ok(game.apply(Sit(1, SeatKind.HUMAN, "Dana"), 4.0))  # a watcher takes the bot's seat during the pause
    assert table_view(game, 5.0)["seats"][1]["name"] == "Dana"
    for view in (table_view(game, 5.0), seat_view(game, 1, 5.0), ViewBuilder(game).table_view(5.0)):
        assert view["result"] == before  # caller, target and story: still Bob's round
    ok(game.apply(EndGame(), 6.0))
    over = table_view(game, 6.0)
    assert over["recap"][0]["names"][1] == "Bob"
    assert [(a["award"], a["seat"], a["name"]) for a in over["awards"]][:1] == [("sharpest_reader", 1, "Bob")]


def _result(n, story, kinds=("human",) * 4, names=("Ann", "Bob", "Cat", "Dan"), caller=1, end=RoundEnd.CONTRE):
    return RoundResult(
        n, end, caller, 0, True, (1,), ((),) * 4, (), (0,), ("🍍", "🚀"), (0, 1), story=tuple(story), length=9.0,
        names=names, kinds=kinds,
    )  # fmt: skip


def test_awards_are_given_only_for_what_happened_never_a_zero_count():
    # a Contre before a single flash of the accused sign is a guess: a right Contre, but not the best read
    blind = _result(
        1, [Moment(1.0, 2, "emit", "🐙", False), Moment(2.0, 1, "call", call="contre", team=0, correct=True)]
    )
    found = {a["award"]: a for a in awards([blind])}
    assert found["sharpest_reader"]["detail"] == {"contres": 1}
    assert "best_contre" not in found
    # decoys but no false call: "boldest decoy" counts the decoys, never "baited 0 false calls"
    assert found["boldest_decoy"] == {"award": "boldest_decoy", "seat": 2, "name": "Cat", "detail": {"decoys": 1}}
    for seed in range(12):  # and over whole random games, no award's detail counts nothing
        play = RandomPlay(seed, 4 + 2 * (seed % 3), record=False)
        play.setup()
        while play.game.phase is not Phase.OVER:
            play.step()
        for award in table_view(play.game, play.now)["awards"]:
            counts = {k: v for k, v in award["detail"].items() if k in ("contres", "flashes", "baited", "decoys")}
            assert all(v >= 1 for v in counts.values()), award


def test_a_tie_goes_to_a_person_over_a_bot():
    bots_first = ("bot", "human", "human", "bot")  # seat 0 a bot, seat 1 a person
    emits = [Moment(1.0, 0, "emit", "🐙", False), Moment(1.5, 1, "emit", "🦀", False)]
    right = [Moment(2.0, 0, "call", call="contre", team=1, correct=True)]
    rounds = [
        _result(1, [*emits, *right], kinds=bots_first, caller=0),  # the bot's right Contre comes first
        _result(2, [*emits, Moment(2.0, 1, "call", call="contre", team=0, correct=True)], kinds=bots_first),
    ]
    found = {a["award"]: a for a in awards(rounds)}
    assert found["sharpest_reader"]["seat"] == 1 and found["sharpest_reader"]["detail"] == {"contres": 1}
    assert found["boldest_decoy"]["seat"] == 1 and found["boldest_decoy"]["detail"] == {"decoys": 2}
    quick = [Moment(0.0, 2, "carre"), Moment(1.0, 0, "call", call="quatro", correct=True)]
    quatros = [
        _result(1, quick, kinds=bots_first, caller=0, end=RoundEnd.QUATRO),
        _result(2, [Moment(0.0, 3, "carre"), Moment(1.0, 1, "call", call="quatro", correct=True)], kinds=bots_first,
                end=RoundEnd.QUATRO),
    ]  # fmt: skip
    quatros = [RoundResult(**{**r.__dict__, "target": (r.caller + 2) % 4}) for r in quatros]
    assert {a["award"]: a["seat"] for a in awards(quatros)}["fastest_quatro"] == 1


def test_an_award_follows_the_player_not_the_seat():
    taken_over = ("Bot Bix", "Bob", "Cat", "Dan")
    rounds = [
        _result(1, [Moment(2.0, 0, "call", call="contre", team=1, correct=True)], caller=0, names=taken_over),
        _result(2, [Moment(2.0, 0, "call", call="contre", team=1, correct=True)], caller=0),
    ]
    found = awards(rounds)[0]
    assert found["award"] == "sharpest_reader" and found["name"] == "Bot Bix" and found["detail"] == {"contres": 1}


def test_game_over_says_whether_a_score_or_the_host_ended_it():
    game = position(ALMOST, signs=SIGNS)
    assert table_view(game, 0.0)["ended_by"] is None
    ok(game.apply(EndGame(), 1.0))
    assert game.phase is Phase.OVER and table_view(game, 1.0)["ended_by"] == "host"
    assert Game.from_snapshot(game.snapshot()).ended_by == "host"
    ok(game.apply(NewGame(), 2.0))
    assert table_view(game, 2.0)["ended_by"] is None
    won = position(ALMOST, signs=SIGNS)
    won.teams[0].score = 4
    ok(won.apply(Swap(*swap_args(won, 2, "T", "A")), 1.0))
    ok(won.apply(CallQuatro(0), 2.0))
    assert won.phase is Phase.OVER and table_view(won, 2.0)["ended_by"] == "score"


def test_a_snapshot_keeps_every_rounds_names():
    game = position(ALMOST, kinds="HBHB", signs=SIGNS)
    ok(game.apply(TakeChannel(0), 1.0))
    ok(game.apply(ChooseEmoji(0, "🐙"), 1.0))
    ok(game.apply(CallContre(1, 0), 2.0))
    ok(game.apply(StartNextRound(), 3.0))
    ok(game.apply(PickSign(0, "🍉"), 3.0))
    ok(game.apply(Ready(0), 3.0))
    ok(game.apply(Ready(2), 3.0))
    again = Game.from_snapshot(game.snapshot())
    assert [r.names for r in again.results] == [("Ann", "Bob", "Cat", "Dan")]
    assert again.results[0].kinds == ("human", "bot", "human", "bot")

"""R4–R7: the deck, the deal, the three-of-a-rank redeal, the carré."""

import random
from collections import Counter

import pytest

from quatro_party.engine import (
    Game,
    PickSign,
    Ready,
    SeatKind,
    Sit,
    StartGame,
    deck_for,
    is_carre,
    parse_cards,
    table_view,
)
from quatro_party.engine import events as ev
from quatro_party.engine.cards import format_cards
from quatro_party.engine.rules import ranks_for

from .scenario import ok, playing, position


@pytest.mark.parametrize(
    "n, ranks",
    [
        (4, "A K Q J 10"),
        (6, "A K Q J 10 9 8"),
        (8, "A K Q J 10 9 8 7 6"),
    ],
)
def test_r4_deck_has_n_plus_1_ranks_four_copies_each_distinct_ids(n, ranks):
    deck = deck_for(n)
    assert ranks_for(n) == tuple(ranks.split())
    assert len(deck) == 4 * (n + 1)
    assert Counter(c.rank for c in deck) == {r: 4 for r in ranks.split()}
    assert len({c.id for c in deck}) == len(deck)  # every card is its own object (R14)
    assert all(len({c.suit for c in deck if c.rank == r}) == 4 for r in ranks.split())  # decoration


@pytest.mark.parametrize("n", [4, 6, 8])
def test_r5_four_cards_each_four_face_up_in_the_centre_nothing_else(n):
    game = playing(n, seed=n)
    assert all(len(s.hand) == 4 for s in game.seats)
    assert len(game.centre) == 4
    assert sorted(game.all_cards()) == sorted(deck_for(n))  # no draw pile, no discard
    view = table_view(game, 0.0)
    assert [c["id"] for c in view["centre"]] == [c.id for c in game.centre]  # face up


class ScriptedShuffles(random.Random):
    """An RNG whose first shuffles lay the cards out as given (rank letters), then shuffles for real."""

    def __init__(self, layouts: list[str]) -> None:
        super().__init__(0)
        self.layouts = list(layouts)

    def shuffle(self, x):  # noqa: D102 - same contract as random.Random.shuffle
        if self.layouts:
            x[:] = parse_cards(self.layouts.pop(0), list(x))
        else:
            super().shuffle(x)


def _open_with(rng: random.Random) -> tuple[Game, list]:
    game = Game(4, rng=rng)
    for seat in range(4):
        ok(game.apply(Sit(seat, SeatKind.HUMAN, f"P{seat}"), 0.0))
    ok(game.apply(StartGame(), 0.0))
    for team in range(2):
        ok(game.apply(PickSign(team, "🍍"), 0.0))
    events = []
    for seat in range(4):
        events += game.apply(Ready(seat), 1.0).events
    return game, events


def test_r6_a_hand_with_three_of_a_rank_forces_a_whole_new_deal_and_the_table_is_told():
    bad = "AAAK KKQQ QQJJ JJTT | TTAK"  # seat 0 would hold three aces
    worse = "AKJT AKJT AKJT QQQQ | AKJT"  # seat 3 would hold four queens
    good = "AKQJ TAKQ JTAK QJTA | KQJT"
    game, events = _open_with(
        ScriptedShuffles(
            [
                bad.replace(" ", "").replace("|", ""),
                worse.replace(" ", "").replace("|", ""),
                good.replace(" ", "").replace("|", ""),
            ]
        )
    )
    assert game.position() == good
    dealt = [e for e in events if isinstance(e, ev.Dealt)]
    assert len(dealt) == 1 and dealt[0].redeals == 2
    # The notice says how many deals were thrown back, never whose hand nor which rank.
    assert set(dealt[0].to_json()) == {"type", "centre", "redeals"}
    assert table_view(game, 1.0)["redeals"] == 2


def test_r6_the_centre_may_hold_three_of_a_rank():
    layout = "KQJT KQJT KQJT AQJT | AAAK"  # three aces lie in the centre: that deal stands
    assert Counter(layout.replace(" ", "").replace("|", "")) == Counter("AAAAKKKKQQQQJJJJTTTT")
    game, events = _open_with(ScriptedShuffles([layout.replace(" ", "").replace("|", "")]))
    assert game.redeals == 0 and game.position() == layout


@pytest.mark.parametrize("n", [4, 6, 8])
def test_r6_no_dealt_hand_ever_holds_three_of_a_rank(n):
    redeals = 0
    for seed in range(40):
        game = playing(n, seed=seed)
        redeals += game.redeals
        for s in game.seats:
            assert max(Counter(c.rank for c in s.hand).values()) < 3, format_cards(s.hand)
    assert redeals > 0  # the rule was exercised, not dodged


def test_r7_a_carre_is_four_cards_of_one_rank_in_one_hand():
    game = position("AAAA KKQQ KKQQ JJJT | TTTJ")
    assert game.has_carre(0)
    assert not any(game.has_carre(s) for s in (1, 2, 3))  # two pairs, three of a kind: no carré
    deck = deck_for(4)
    assert is_carre(parse_cards("TTTT", deck)) and not is_carre(parse_cards("TTT", deck))
    assert not is_carre(parse_cards("TTTTA", deck))

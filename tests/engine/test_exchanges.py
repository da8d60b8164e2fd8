"""R14–R16: simultaneous exchanges with the centre, the 2 s cooldown, the contested centre."""

import pytest

from quatro_party.engine import Reason, Swap, seat_view, table_view
from quatro_party.engine import events as ev
from quatro_party.engine.cards import format_cards

from .scenario import card, fingerprint, ok, place, position, refused, swap_args

START = "AAKT QQJJ KKTT JJAQ | KQTA"


def test_r14_an_exchange_swaps_hand_card_and_centre_card_in_one_step_seen_by_all():
    game = position(START)
    seat, mine, where, expected = swap_args(game, 0, "T", "K")
    out = ok(game.apply(Swap(seat, mine, where, expected), 1.0))
    assert game.position() == "AAKK QQJJ KKTT JJAQ | TQTA"
    [swapped] = out.events
    assert isinstance(swapped, ev.Swapped)
    assert (swapped.seat, swapped.place, swapped.put.id, swapped.took.id) == (0, where, mine, expected)
    assert table_view(game, 1.0)["centre"][where]["id"] == mine  # the card put down is visible to all
    assert sorted(game.all_cards()) == sorted(set(game.all_cards()))  # still one of each


def test_r14_no_turns_everybody_plays_at_once():
    game = position(START)
    for seat, give, take in ((0, "T", "K"), (1, "J", "Q"), (2, "T", "T"), (3, "J", "A")):
        ok(game.apply(Swap(*swap_args(game, seat, give, take)), 1.0))  # all in the same instant
    assert game.position() == "AAKK QQQJ KKTT AJAQ | TJTJ"  # a taken card fills the gap it left


def test_r14_only_a_card_of_your_own_hand():
    game = position(START)
    before = fingerprint(game)
    out = refused(game.apply(Swap(0, card(game, 1, "Q"), 0, game.centre[0].id), 0.0), Reason.NOT_YOUR_CARD)
    assert out.refusal.message == "that card is not in your hand"
    refused(game.apply(Swap(0, game.centre[1].id, 0, game.centre[0].id), 0.0), Reason.NOT_YOUR_CARD)
    refused(game.apply(Swap(0, 999, 0, game.centre[0].id), 0.0), Reason.NOT_YOUR_CARD)
    assert fingerprint(game) == before


@pytest.mark.parametrize("bad_place", [-1, 4, 17])
def test_r14_only_one_of_the_four_centre_places(bad_place):
    game = position(START)
    refused(game.apply(Swap(0, card(game, 0, "T"), bad_place, game.centre[0].id), 0.0), Reason.NO_SUCH_PLACE)


def test_r15_two_seconds_after_a_successful_exchange_before_the_next():
    game = position(START)
    ok(game.apply(Swap(*swap_args(game, 0, "T", "K")), 10.0))
    assert seat_view(game, 0, 10.7)["you"]["swap_wait"] == 1.3
    out = refused(game.apply(Swap(*swap_args(game, 0, "A", "A")), 10.7), Reason.SWAP_COOLDOWN)
    assert out.refusal.message == "cooldown, 1.3 s left"
    assert out.refusal.details == {"wait": 1.3}
    out = refused(game.apply(Swap(*swap_args(game, 0, "A", "A")), 11.97), Reason.SWAP_COOLDOWN)
    assert out.refusal.message == "cooldown, 0.1 s left"  # never "0.0 s left" while still waiting
    ok(game.apply(Swap(*swap_args(game, 0, "A", "A")), 12.0))
    assert seat_view(game, 0, 12.5)["you"]["swap_wait"] == 1.5


def test_r15_the_cooldown_is_per_player_and_nothing_else_limits_exchanges():
    game = position(START)
    ok(game.apply(Swap(*swap_args(game, 0, "T", "K")), 10.0))
    ok(game.apply(Swap(*swap_args(game, 1, "J", "Q")), 10.0))  # another player is not held back
    assert seat_view(game, 2, 10.0)["you"]["swap_wait"] == 0.0
    for i in range(10):  # one player, every 2 s, as long as they like
        t = 12.0 + 2 * i
        hand_card = game.seats[0].hand[i % 4]
        ok(game.apply(Swap(0, hand_card.id, i % 4, game.centre[i % 4].id), t))


def test_r16_taken_card_refused_without_cooldown():
    game = position(START)
    k = place(game, "K")
    expected = game.centre[k].id
    ok(game.apply(Swap(0, card(game, 0, "T"), k, expected), 5.0))  # seat 0 gets there first
    before = fingerprint(game)
    out = refused(game.apply(Swap(1, card(game, 1, "J"), k, expected), 5.0), Reason.CARD_TAKEN)
    assert out.refusal.message.startswith("that card was just taken")
    assert out.refusal.details == {"place": k}
    assert fingerprint(game) == before  # it cost nothing…
    assert seat_view(game, 1, 5.0)["you"]["swap_wait"] == 0.0
    ok(game.apply(Swap(*swap_args(game, 1, "J", "A")), 5.0))  # …so seat 1 plays again at once


def test_r16_exchanges_are_ordered_by_arrival():
    for first, second in ((0, 1), (1, 0)):
        game = position(START)
        k = place(game, "K")
        expected = game.centre[k].id
        gives = {0: card(game, 0, "T"), 1: card(game, 1, "J")}
        ok(game.apply(Swap(first, gives[first], k, expected), 5.0))
        refused(game.apply(Swap(second, gives[second], k, expected), 5.0), Reason.CARD_TAKEN)
        assert game.centre[k].id == gives[first]
        assert expected in [c.id for c in game.seats[first].hand]
        assert format_cards(game.seats[second].hand) == ("QQJJ" if second == 1 else "AAKT")


def test_r15_a_cooldown_ends_exactly_on_time_even_with_scaled_timings():
    from quatro_party.engine import Timing

    game = position(START, timing=Timing().scaled(0.1))  # swap cooldown 0.2 s
    ok(game.apply(Swap(*swap_args(game, 0, "T", "K")), 0.1))
    refused(game.apply(Swap(*swap_args(game, 0, "A", "A")), 0.29), Reason.SWAP_COOLDOWN)
    ok(game.apply(Swap(*swap_args(game, 0, "A", "A")), 0.3))  # 0.1 + 0.2 == 0.30000000000000004 in floats

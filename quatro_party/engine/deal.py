"""R5–R6: shuffling and dealing, with the re-deal of a hand holding three of a rank.

>>> import random
>>> from quatro_party.engine.cards import deck_for, format_cards
>>> hands, centre, redeals = deal(list(deck_for(4)), 4, random.Random(3))
>>> len(hands), [len(h) for h in hands], len(centre)
(4, [4, 4, 4, 4], 4)
>>> a_hand_to_redeal([c.rank for h in hands for c in h], 4)
False
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .cards import Card
from .rules import CENTRE_SIZE, HAND_SIZE, REDEAL_THRESHOLD

if TYPE_CHECKING:
    from .game import Game


def a_hand_to_redeal(ranks: list[str], hands: int) -> bool:
    """R6: do any of the first ``hands`` hands of ``ranks`` (the pile's ranks in deal order, ``HAND_SIZE``
    per hand) hold ``REDEAL_THRESHOLD`` cards of one rank?

    >>> a_hand_to_redeal(["A", "K", "A", "A", "Q", "J", "10", "9"], 2)
    True
    """
    # A rank held REDEAL_THRESHOLD times must show up among a hand's first HAND_SIZE - REDEAL_THRESHOLD + 1
    # cards, so only those are counted.
    suspects = HAND_SIZE - REDEAL_THRESHOLD + 1
    for start in range(0, hands * HAND_SIZE, HAND_SIZE):
        hand = ranks[start : start + HAND_SIZE]
        if any(hand.count(rank) >= REDEAL_THRESHOLD for rank in hand[:suspects]):
            return True
    return False


def deal(pile: list[Card], seat_count: int, rng: random.Random) -> tuple[list[list[Card]], list[Card], int]:
    """R5–R6: shuffle ``pile`` and deal until no hand holds three of a rank.

    ``pile`` is every card in id order (a fixed order, so the deal depends on the RNG alone); it is
    shuffled in place. Returns the hands (one per seat), the centre, and how many deals were thrown back.
    """
    redeals = 0
    while True:
        rng.shuffle(pile)
        if not a_hand_to_redeal([c.rank for c in pile], seat_count):
            break
        redeals += 1
    hands = [pile[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i in range(seat_count)]
    centre = pile[seat_count * HAND_SIZE :]
    assert len(centre) == CENTRE_SIZE
    return hands, centre, redeals


def deal_anew(game: Game, pile: list[Card]) -> None:
    """R5–R6 (and R27's reshuffle): deal ``pile`` (every card, in id order) to the seats and the centre."""
    hands, game.centre, game.redeals = deal(pile, game.seat_count, game.rng)
    for s, hand in zip(game.seats, hands):
        s.hand = hand

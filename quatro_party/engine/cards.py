"""Cards, the deck (R4) and a short text notation for positions.

Notation: a rank is one character, ``A K Q J T 9 8 7 6`` (``T`` is the ten), so a
hand reads ``"AAKT"`` and a centre ``"QJJ9"``. :func:`parse_cards` turns such a
string into distinct :class:`Card` objects drawn from a deck, which keeps
scenario tests short and readable.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from .rules import CENTRE_SIZE, HAND_SIZE, RANKS, SUITS, ranks_for

#: One character per rank for the text notation (``10`` is written ``T``).
RANK_LETTERS: dict[str, str] = {rank: ("T" if rank == "10" else rank) for rank in RANKS}
LETTER_RANKS: dict[str, str] = {letter: rank for rank, letter in RANK_LETTERS.items()}


@dataclass(frozen=True, order=True)
class Card:
    """One physical card. ``id`` is unique in the deck; only ``rank`` matters to the rules (R4).

    >>> Card(0, "A", "♠")
    Card(A♠#0)
    """

    id: int
    rank: str
    suit: str

    def __repr__(self) -> str:
        return f"Card({self.rank}{self.suit}#{self.id})"

    @property
    def letter(self) -> str:
        """The card's rank in the text notation."""
        return RANK_LETTERS[self.rank]

    def to_json(self) -> dict[str, object]:
        """The card as public JSON: id, rank, suit."""
        return {"id": self.id, "rank": self.rank, "suit": self.suit}


@cache
def deck_for(seat_count: int) -> tuple[Card, ...]:
    """R4: the deck of a table, four copies of each of its N+1 ranks, ids 0…4(N+1)−1.

    >>> len(deck_for(4)), len(deck_for(6)), len(deck_for(8))
    (20, 28, 36)

    Cached: cards are frozen, so every round of every game can share the same tuple.
    """
    return tuple(Card(4 * r + s, rank, SUITS[s]) for r, rank in enumerate(ranks_for(seat_count)) for s in range(4))


def is_carre(cards: Iterable[Card]) -> bool:
    """R7: four cards of one rank.

    >>> is_carre(parse_cards("KKKK", deck_for(4)))
    True
    >>> is_carre(parse_cards("KKKA", deck_for(4)))
    False
    """
    if not isinstance(cards, (list, tuple)):
        cards = list(cards)
    if len(cards) != 4:
        return False
    rank = cards[0].rank  # a hot path (every call, every view): no set, no counting
    return cards[1].rank == rank and cards[2].rank == rank and cards[3].rank == rank


def most_of_a_rank(cards: Iterable[Card]) -> int:
    """How many cards of the commonest rank (R6 uses it).

    >>> most_of_a_rank(parse_cards("AAKQ", deck_for(4)))
    2
    """
    counts: dict[str, int] = {}
    for card in cards:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    return max(counts.values(), default=0)


def parse_cards(text: str, deck: Iterable[Card], taken: set[int] | None = None) -> list[Card]:
    """Cards for a notation string like ``"AAKT"``, each a copy not yet in ``taken``.

    ``taken`` (card ids) is updated, so successive calls never reuse a card.
    Spaces are ignored.

    >>> deck = deck_for(4); used = set()
    >>> parse_cards("AA", deck, used), parse_cards("A", deck, used)
    ([Card(A♠#0), Card(A♥#1)], [Card(A♦#2)])
    """
    taken = set() if taken is None else taken
    pool = list(deck)
    out: list[Card] = []
    for letter in text.replace(" ", "").upper():
        if letter not in LETTER_RANKS:
            raise ValueError(f"unknown rank letter {letter!r} in {text!r}")
        rank = LETTER_RANKS[letter]
        card = next((c for c in pool if c.rank == rank and c.id not in taken), None)
        if card is None:
            raise ValueError(f"no copy of {rank} left for {text!r}")
        taken.add(card.id)
        out.append(card)
    return out


def format_cards(cards: Iterable[Card | None]) -> str:
    """The notation of some cards (``.`` for an empty place).

    >>> format_cards(parse_cards("TKA", deck_for(4)))
    'TKA'
    """
    return "".join("." if c is None else c.letter for c in cards)


def parse_position(text: str, seat_count: int) -> tuple[list[list[Card]], list[Card]]:
    """The hands and the centre of a position like ``"AAAK QQJJ KKTT JJAT | KQT9"``.

    One 4-card hand per seat in seat order, then ``|`` and the 4 centre places; between them the cards
    must be exactly the table's deck (R4–R5). Which copy of a rank goes where is fixed (lowest id first).
    Raises ``ValueError`` for anything else.

    >>> hands, centre = parse_position("AAAA KKKK QQQQ JJJJ | TTTT", 4)
    >>> format_cards(hands[1]), format_cards(centre)
    ('KKKK', 'TTTT')
    """
    hands_text, bar, centre_text = text.partition("|")
    hand_texts = hands_text.split()
    if not bar or len(hand_texts) != seat_count:
        raise ValueError(f"need {seat_count} hands, then '|' and the centre: {text!r}")
    deck = deck_for(seat_count)
    taken: set[int] = set()
    hands = [parse_cards(h, deck, taken) for h in hand_texts]
    centre = parse_cards(centre_text, deck, taken)
    if any(len(h) != HAND_SIZE for h in hands) or len(centre) != CENTRE_SIZE:
        raise ValueError(f"every hand holds {HAND_SIZE} cards and the centre {CENTRE_SIZE}: {text!r}")
    return hands, centre

"""Every number of the rules, in one place.

Durations are in seconds of the clock the caller feeds in (see :class:`Timing`).
A host started with ``--time-scale 0.1`` builds ``Timing().scaled(0.1)`` and the
whole table runs ten times faster, rule for rule.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

#: R1 — the table sizes a game may have.
SEAT_COUNTS: tuple[int, ...] = (4, 6, 8)

#: R1 in words, for messages: "4, 6 or 8".
SEAT_COUNTS_TEXT = ", ".join(map(str, SEAT_COUNTS[:-1])) + f" or {SEAT_COUNTS[-1]}"

#: R4 — every rank, best first; a table of N seats plays the first N+1.
RANKS: tuple[str, ...] = ("A", "K", "Q", "J", "10", "9", "8", "7", "6")

#: R4 — decoration only; the rank is all that counts.
SUITS: tuple[str, ...] = ("♠", "♥", "♦", "♣")

#: R5 — cards in a hand, and places in the centre.
HAND_SIZE = 4
CENTRE_SIZE = 4

#: R6 — a dealt hand with this many cards of one rank forces a new deal.
REDEAL_THRESHOLD = 3

#: R8 — the 24 signs, in this order; a channel emits from the same set (R18).
SIGNS: tuple[str, ...] = (
    "🍍",
    "🚀",
    "🐢",
    "🦊",
    "🐙",
    "🌵",
    "🍉",
    "🎸",
    "🦄",
    "🐝",
    "🍄",
    "🌈",
    "🔥",
    "⚓",
    "🎩",
    "🦀",
    "🐧",
    "🍒",
    "🌙",
    "⭐",
    "🎲",
    "🦉",
    "🍩",
    "🐳",
)

#: R34 — the first team to this many points wins.
WINNING_SCORE = 5

#: House rule: the points to win a table may choose instead of R34's (between games only).
WINNING_SCORES: tuple[int, ...] = tuple(range(3, 11))

#: House rule: every duration of :class:`Timing` may be multiplied by one of these (relaxed timers).
TIMER_FACTORS: tuple[float, ...] = (1.0, 1.5, 2.0)

#: A practice round runs at this pace (every duration × 1.5) and scores nothing.
PRACTICE_TIMER_FACTOR = 1.5

#: R3 — the longest player name accepted (characters, after trimming).
MAX_NAME_LENGTH = 20


@dataclass(frozen=True)
class Timing:
    """The durations of the rules, in seconds.

    >>> Timing().round_length
    180.0
    >>> Timing().scaled(0.1).swap_cooldown
    0.2
    """

    sign_phase: float = 30.0  # R11: the sign phase ends after this at the latest
    first_sign_phase: float = 60.0  # R11: the same, in a game's first round (time to read what a sign is)
    swap_cooldown: float = 2.0  # R15: after a successful exchange
    channel_cooldown: float = 2.0  # R21: between two channel changes
    emission_period: float = 5.0  # R18: a channel emits at most this often
    vote_length: float = 20.0  # R28: voters answer within this
    vote_gap: float = 30.0  # R29: from the end of a vote to the start of the next
    round_length: float = 180.0  # R32: a round with no call is void after this
    pause_length: float = 30.0  # R32: between a round's end and the next sign phase

    def scaled(self, factor: float) -> Timing:
        """Every duration multiplied by ``factor`` (must be > 0)."""
        if not factor > 0:
            raise ValueError(f"time scale must be positive, not {factor!r}")
        return Timing(**{f.name: round(getattr(self, f.name) * factor, 9) for f in fields(self)})


DEFAULT_TIMING = Timing()


def ranks_for(seat_count: int) -> tuple[str, ...]:
    """R4: the ranks in play at a table of ``seat_count`` seats.

    >>> ranks_for(4)
    ('A', 'K', 'Q', 'J', '10')
    """
    if seat_count not in SEAT_COUNTS:
        raise ValueError(f"a table has {SEAT_COUNTS_TEXT} seats, not {seat_count!r}")
    return RANKS[: seat_count + 1]


def team_count(seat_count: int) -> int:
    """R2: a table of N seats has N/2 teams of two.

    >>> team_count(6)
    3
    """
    return seat_count // 2


def partner_of(seat: int, seat_count: int) -> int:
    """R2: the seat opposite.

    >>> partner_of(1, 6)
    4
    """
    return (seat + seat_count // 2) % seat_count


def team_of(seat: int, seat_count: int) -> int:
    """R2: team ``t`` is seats ``t`` and ``t + N/2``.

    >>> team_of(5, 8)
    1
    """
    return seat % (seat_count // 2)


def seats_of(team: int, seat_count: int) -> tuple[int, int]:
    """R2: the two seats of a team.

    >>> seats_of(2, 6)
    (2, 5)
    """
    return (team, team + seat_count // 2)


def other_teams(team: int, seat_count: int) -> tuple[int, ...]:
    """R2, R22: every team but ``team`` (at 4 seats, the one opposing team).

    >>> other_teams(1, 8)
    (0, 2, 3)
    """
    return tuple(t for t in range(team_count(seat_count)) if t != team)

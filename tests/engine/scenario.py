"""Scenario helpers: set a table up in one line, in the notation of :mod:`quatro_party.engine.cards`.

    game = position("AAAK QQJJ KKTT JJAT | KQT9")      # 4 humans, round in play at t=0
    game = position("...", kinds="HBHB", signs={0: "🍍"})

Times are plain floats (the injected clock): nothing here sleeps or reads a clock.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from quatro_party.engine import (
    Game,
    Outcome,
    Phase,
    PickSign,
    Ready,
    Reason,
    SeatKind,
    Sit,
    StartGame,
    Timing,
)
from quatro_party.engine.cards import LETTER_RANKS

KINDS = {"H": SeatKind.HUMAN, "B": SeatKind.BOT}


def lobby(
    seat_count: int = 4, kinds: str | None = None, *, seed: int = 0, now: float = 0.0, timing: Timing | None = None
) -> Game:
    """A game in the lobby with every seat held: ``kinds`` is one letter per seat, H(uman) or B(ot)."""
    kinds = kinds or "H" * seat_count
    assert len(kinds) == seat_count, "one kind letter per seat"
    game = Game(seat_count, rng=random.Random(seed), **({"timing": timing} if timing else {}))
    for seat, k in enumerate(kinds):
        ok(game.apply(Sit(seat, KINDS[k], f"{'Ann Bob Cat Dan Eve Fay Gus Hal'.split()[seat]}"), now))
    return game


def sign_phase(
    seat_count: int = 4, kinds: str | None = None, *, seed: int = 0, now: float = 0.0, timing: Timing | None = None
) -> Game:
    """A game just started: the first sign phase is open at ``now`` (needs at least one connected human)."""
    game = lobby(seat_count, kinds, seed=seed, now=now, timing=timing)
    ok(game.apply(StartGame(), now))
    return game


def playing(
    seat_count: int = 4,
    kinds: str | None = None,
    *,
    seed: int = 0,
    now: float = 0.0,
    signs: dict[int, str] | None = None,
    timing: Timing | None = None,
) -> Game:
    """A round in play since ``now``: ``signs`` (team → emoji) picked first, then every human ready."""
    game = lobby(seat_count, kinds, seed=seed, now=now, timing=timing)
    ok(game.apply(StartGame(), now))
    for team, sign in (signs or {}).items():
        ok(game.apply(PickSign(team, sign), now))
    for seat, s in enumerate(game.seats):
        if game.phase is Phase.SIGN and s.kind is SeatKind.HUMAN:
            ok(game.apply(Ready(seat), now))
    assert game.phase is Phase.PLAY
    return game


def position(
    text: str,
    kinds: str | None = None,
    *,
    seed: int = 0,
    now: float = 0.0,
    signs: dict[int, str] | None = None,
    timing: Timing | None = None,
) -> Game:
    """A round in play at ``now`` with exactly this position, e.g. ``"AAAK QQJJ KKTT JJAT | KQT9"``.

    The seat count is the number of hands.
    """
    seat_count = len(text.partition("|")[0].split())
    game = playing(seat_count, kinds, seed=seed, now=now, signs=signs, timing=timing)
    game.set_position(text)
    return game


def card(game: Game, seat: int, letter: str, nth: int = 0) -> int:
    """The id of the ``nth`` card of rank ``letter`` in ``seat``'s hand."""
    rank = LETTER_RANKS[letter]
    return [c.id for c in game.seats[seat].hand if c.rank == rank][nth]


def place(game: Game, letter: str, nth: int = 0) -> int:
    """The ``nth`` centre place holding a card of rank ``letter``."""
    rank = LETTER_RANKS[letter]
    return [i for i, c in enumerate(game.centre) if c.rank == rank][nth]


def swap_args(game: Game, seat: int, give: str, take: str) -> tuple[int, int, int, int]:
    """``Swap`` fields for "seat gives a ``give`` and takes the ``take`` of the centre"."""
    p = place(game, take)
    return seat, card(game, seat, give), p, game.centre[p].id


def ok(out: Outcome) -> Outcome:
    """Assert the command was accepted (with the refusal in the failure message)."""
    assert out.refusal is None, out.refusal
    return out


def refused(out: Outcome, reason: Reason) -> Outcome:
    """Assert the command was refused for ``reason``."""
    assert out.refusal is not None, f"accepted, expected {reason}"
    assert out.refusal.reason is reason, out.refusal
    return out


def kinds_of(events: Iterable[Any]) -> list[str]:
    """The event types, e.g. ``["swapped", "emitted"]``."""
    return [e.to_json()["type"] for e in events]


def fingerprint(game: Game) -> str:
    """Everything a game holds, RNG state included, as one comparable string.

    ``_called_at`` is left out: it is only the time of the call being applied (a Resume reads it).
    """
    state = {k: v for k, v in vars(game).items() if k not in ("rng", "_called_at")}
    return repr(sorted(state.items())) + repr(game.rng.getstate())

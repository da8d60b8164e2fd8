"""Events: what happened at the table, as frozen dataclasses.

Every event is public (R36): it may be shown on the big screen and sent to every
phone as it is. Private facts (a hand, a sign, a cooldown, a channel choice not
yet emitted) never travel in events; they reach their owners only through the
per-viewer views of :mod:`quatro_party.engine.views`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from .cards import Card


def _json(value: Any) -> Any:
    if isinstance(value, Card):
        return value.to_json()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [_json(v) for v in value]
    if hasattr(value, "to_json"):
        return value.to_json()
    return value


@dataclass(frozen=True)
class Event:
    """Base class; ``to_json`` gives ``{"type": "snake_case_name", **fields}``."""

    def to_json(self) -> dict[str, Any]:
        """The event as public JSON.

        >>> PlayerReady(2).to_json()
        {'type': 'player_ready', 'seat': 2}
        """
        name, names = _layout(type(self))
        return {"type": name, **{n: _json(getattr(self, n)) for n in names}}


_LAYOUTS: dict[type, tuple[str, tuple[str, ...]]] = {}


def _layout(cls: type) -> tuple[str, tuple[str, ...]]:
    """An event class's wire name and field names, worked out once (events are sent after every change)."""
    found = _LAYOUTS.get(cls)
    if found is None:
        name = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
        found = _LAYOUTS[cls] = (name, tuple(f.name for f in fields(cls)))
    return found


@dataclass(frozen=True)
class SeatCountChanged(Event):
    seat_count: int


@dataclass(frozen=True)
class SeatChanged(Event):
    seat: int
    kind: str
    name: str


@dataclass(frozen=True)
class ConnectionChanged(Event):
    seat: int
    connected: bool


@dataclass(frozen=True)
class SignPhaseOpened(Event):
    """R8, R11: a new round's sign phase; ``round`` counts from 1."""

    round: int


@dataclass(frozen=True)
class PlayerReady(Event):
    seat: int


@dataclass(frozen=True)
class RandomSignGiven(Event):
    """R12: the team got a random sign — which one stays secret."""

    team: int


@dataclass(frozen=True)
class Dealt(Event):
    """R5–R6: fresh hands and centre; ``redeals`` deals were thrown back first (never whose hand or which rank)."""

    centre: tuple[Card, ...]
    redeals: int


@dataclass(frozen=True)
class RoundOpened(Event):
    """R11, R13: play starts; the round clock runs for ``length`` seconds."""

    round: int
    length: float


@dataclass(frozen=True)
class Swapped(Event):
    """R14: ``seat`` put ``put`` on ``place`` and took ``took`` from it."""

    seat: int
    place: int
    put: Card
    took: Card


@dataclass(frozen=True)
class ChannelTaken(Event):
    seat: int


@dataclass(frozen=True)
class ChannelReleased(Event):
    seat: int


@dataclass(frozen=True)
class Emitted(Event):
    """R18: ``seat``'s channel showed ``emoji`` to the whole table."""

    seat: int
    emoji: str


@dataclass(frozen=True)
class VoteOpened(Event):
    """R28: ``requester`` asks for a reshuffle; ``voters`` must all accept within ``length`` seconds."""

    requester: int
    voters: tuple[int, ...]
    length: float


@dataclass(frozen=True)
class VoteAnswered(Event):
    seat: int
    accept: bool


@dataclass(frozen=True)
class VoteEnded(Event):
    """R28: ``passed`` or not; ``why`` is one of accepted, refused, silence, round_over."""

    passed: bool
    why: str


@dataclass(frozen=True)
class Reshuffled(Event):
    """R27, R31: hands and centre dealt anew; same signs, same clock."""

    centre: tuple[Card, ...]
    redeals: int


@dataclass(frozen=True)
class RoundEnded(Event):
    """R26, R32: the round is over; ``result`` reveals everything."""

    result: Any  # RoundResult; typed loosely to keep this module free of game imports


@dataclass(frozen=True)
class PauseOpened(Event):
    """R32: the pause before the next sign phase."""

    length: float


@dataclass(frozen=True)
class GameOver(Event):
    """R34–R35: the winners (several teams may win together)."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True)
class GameStarted(Event):
    pass


@dataclass(frozen=True)
class BackToLobby(Event):
    pass


@dataclass(frozen=True)
class PracticeStarted(Event):
    """A practice round begins (every duration × 1.5 at least, no point kept); the lobby follows it."""


@dataclass(frozen=True)
class HouseRulesChanged(Event):
    """The house rules for the next game: the points to win and the timer factor (durations × factor)."""

    winning_score: int
    timer_factor: float


@dataclass(frozen=True)
class GamePaused(Event):
    """Every clock of the game stopped; ``by`` is ``host`` or ``restart``."""

    by: str


@dataclass(frozen=True)
class GameResumed(Event):
    """The clocks run on from the remaining times they had."""

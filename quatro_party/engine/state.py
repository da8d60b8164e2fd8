"""The game's state, as plain data: the phases, a seat, a team, a vote, a pause, a round's record and reveal.

:class:`~quatro_party.engine.game.Game` holds these; the modules of the rules (:mod:`.deal`,
:mod:`.rounds`, :mod:`.exchanges`, :mod:`.calls`, :mod:`.votes`, :mod:`.host`) change them;
:mod:`.views` and :mod:`.story` read them. Private parts are marked: they leave the engine only
through the per-viewer views (R36–R39).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, NamedTuple

from . import events as ev
from .cards import Card
from .commands import SeatKind
from .refusals import Refusal

#: Float noise tolerated when a wait ends (seconds): with scaled timings 0.1 + 0.2 is
#: 0.30000000000000004, and a player acting exactly when the wait ends must not be told "0.0 s left".
SLACK = 1e-9


class Phase(str, Enum):
    """Where the game is (see the theory of operation in :mod:`quatro_party.engine.game`)."""

    LOBBY = "lobby"  # seats being filled
    SIGN = "sign"  # R8–R12: teams pick their signs
    PLAY = "play"  # R14–R31: the round is running
    PAUSE = "pause"  # R26, R32: reveal on screen, next round soon
    OVER = "over"  # R34–R35: somebody won (or the host ended the game)


class RoundEnd(str, Enum):
    """How a round ended."""

    QUATRO = "quatro"
    CONTRE = "contre"
    VOID = "void"


class Moment(NamedTuple):
    """One public fact of a round's record, at ``t`` seconds of play since the round opened.

    ``kind`` is ``take``, ``release``, ``emit``, ``swap``, ``carre`` or ``call``. For ``emit``,
    ``emoji`` is what the channel showed and ``sign`` whether it was the emitter's team sign (known to
    everybody only once the round has ended: R39). For ``call``, ``call`` is ``quatro`` or ``contre``,
    ``team`` the accused team of a Contre, and ``correct`` the call's outcome.

    A named tuple: a round records about a hundred of them, and one costs a third of a frozen dataclass.
    """

    t: float
    seat: int
    kind: str
    emoji: str | None = None
    sign: bool | None = None
    call: str | None = None
    team: int | None = None
    correct: bool | None = None

    def to_json(self) -> dict[str, Any]:
        """The moment as one event of the story (every key always present)."""
        return {
            "t": self.t,
            "seat": self.seat,
            "kind": self.kind,
            "emoji": self.emoji,
            "sign": self.sign,
            "call": self.call,
            "team": self.team,
            "correct": self.correct,
        }


@dataclass(frozen=True)
class RoundResult:
    """Everything revealed at the end of a round (R26, R32), and the round's story.

    ``hands`` is indexed by seat, ``signs`` by team; ``carres`` lists the seats that held a carré at
    the end. For a Quatro, ``target`` is the partner whose hand was judged; for a Contre it is the
    accused team. ``story`` is the round's record (:class:`Moment`\\ s in time order); ``length`` the
    seconds of play the round lasted; ``practice`` marks a practice round (it scored nothing). ``names`` and
    ``kinds`` (by seat) say who held each seat when the round ended: a seat taken over later does not rewrite
    who played this round, nor who is named in its story.
    """

    round: int
    end: RoundEnd
    caller: int | None
    target: int | None
    correct: bool
    scorers: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    centre: tuple[Card, ...]
    carres: tuple[int, ...]
    signs: tuple[str | None, ...]
    scores: tuple[int, ...]
    story: tuple[Moment, ...] = ()
    length: float = 0.0
    practice: bool = False
    names: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Public JSON of the reveal; ``story`` is ``{"length": s, "events": [...]}`` (see :class:`Moment`)."""
        return {
            "round": self.round,
            "end": self.end.value,
            "caller": self.caller,
            "target": self.target,
            "correct": self.correct,
            "scorers": list(self.scorers),
            "hands": [[c.to_json() for c in hand] for hand in self.hands],
            "centre": [c.to_json() for c in self.centre],
            "carres": list(self.carres),
            "signs": list(self.signs),
            "scores": list(self.scores),
            "practice": self.practice,
            "names": list(self.names),
            "kinds": list(self.kinds),
            "story": {"length": self.length, "events": [m.to_json() for m in self.story]},
        }


@dataclass(frozen=True)
class Outcome:
    """What one call to :meth:`Game.apply` or :meth:`Game.tick` did.

    ``events`` are public and in order. ``refusal`` is set when the command was
    refused; the command then changed nothing (only time, as :meth:`Game.tick`
    would have, may have moved the game on: those events are in ``events``).
    """

    events: tuple[ev.Event, ...] = ()
    refusal: Refusal | None = None

    @property
    def ok(self) -> bool:
        """True when the command was accepted."""
        return self.refusal is None


@dataclass
class SeatState:
    """One seat: who holds it and what they hold. Times are on the game's clock (see ``Game.now``)."""

    kind: SeatKind = SeatKind.EMPTY
    name: str = ""
    connected: bool = False
    ready: bool = False
    hand: list[Card] = field(default_factory=list)  # private (R37)
    swap_ready_at: float = float("-inf")  # private (R37)
    channel_held: bool = False
    channel_ready_at: float = float("-inf")  # private (R37)
    channel_choice: str | None = None  # private until emitted (R37)
    last_emission_at: float | None = None
    last_emitted: str | None = None  # public once emitted
    next_emission_at: float | None = None


@dataclass
class TeamState:
    """One team: its score and its sign."""

    score: int = 0
    sign: str | None = None  # private to the team (R38)
    last_sign: str | None = None  # R10; public since its reveal
    random_sign: bool = False  # R12 notice, public


@dataclass
class Vote:
    """R28: a running reshuffle vote. ``ends_at`` is on the game's clock."""

    requester: int
    voters: list[int]
    accepted: list[int]
    ends_at: float


@dataclass
class Paused:
    """The game is paused: by ``"host"`` (the host's pause) or ``"restart"`` (the hold of a restarted host).

    ``since`` is the *caller's* time when the pause began: the game's clock does not run until it lifts.
    """

    by: str
    since: float

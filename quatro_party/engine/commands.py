"""Commands: everything that can be asked of a game, as frozen dataclasses.

Seat commands carry the seat that acts; the caller (the server, a bot driver, a
test) has already established that the sender owns that seat. Table commands
come from the host. Each is checked by :meth:`quatro_party.engine.Game.apply`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

#: Who may pause a game: the host, or a restarted host holding its table until the phones are back.
PAUSED_BY: tuple[str, ...] = ("host", "restart")


class SeatKind(str, Enum):
    """R3: who holds a seat."""

    EMPTY = "empty"
    HUMAN = "human"
    BOT = "bot"


# --- Seat commands: one player acts -------------------------------------------------


@dataclass(frozen=True)
class SeatCommand:
    """Base of commands sent on behalf of one seat."""

    seat: int


@dataclass(frozen=True)
class PickSign(SeatCommand):
    """R8–R10: fix the team's sign for the coming round (first partner wins)."""

    sign: str


@dataclass(frozen=True)
class Ready(SeatCommand):
    """R11: this player is ready for the round to open."""


@dataclass(frozen=True)
class Swap(SeatCommand):
    """R14–R16: put ``card`` (id, from the hand) on centre ``place``, taking ``expected`` (id) from it."""

    card: int
    place: int
    expected: int


@dataclass(frozen=True)
class TakeChannel(SeatCommand):
    """R17, R21: take the channel ("prendre la main")."""


@dataclass(frozen=True)
class ReleaseChannel(SeatCommand):
    """R17, R19, R21: release the channel; the emoji choice is cleared."""


@dataclass(frozen=True)
class ChooseEmoji(SeatCommand):
    """R18–R20: choose what the held channel emits (any of the 24)."""

    emoji: str


@dataclass(frozen=True)
class CallQuatro(SeatCommand):
    """R22–R23: "Quatro!" on the partner's hand.

    ``confirmed`` must be true when the caller holds a carré themself (R23).
    """

    confirmed: bool = False


@dataclass(frozen=True)
class CallContre(SeatCommand):
    """R24: "Contre!" on an opposing team (``team`` may be omitted at 4 seats)."""

    team: int | None = None


@dataclass(frozen=True)
class RequestReshuffle(SeatCommand):
    """R27–R30: ask the table for a reshuffle."""


@dataclass(frozen=True)
class AnswerVote(SeatCommand):
    """R28: accept or refuse the running reshuffle vote."""

    accept: bool


# --- Table commands: the host and the server ----------------------------------------


@dataclass(frozen=True)
class SetSeatCount:
    """R1: change the number of seats (lobby only). Seats beyond the new count are emptied."""

    seat_count: int


@dataclass(frozen=True)
class Sit:
    """R3: put a human or a bot on a seat (or rename it). ``kind=EMPTY`` frees it (lobby only)."""

    seat: int
    kind: SeatKind
    name: str = ""

    def __post_init__(self) -> None:
        # A kind that is not a SeatKind is the caller's bug, not a player's mistake: raise here, before any
        # game sees it (Game.apply would otherwise have let time move first). "bot" and the like are accepted.
        object.__setattr__(self, "kind", SeatKind(self.kind))


@dataclass(frozen=True)
class SetConnected:
    """R33: a human's device came or went. The seat and hand stay."""

    seat: int
    connected: bool


@dataclass(frozen=True)
class StartGame:
    """Leave the lobby for the first sign phase. Every seat must be held."""


@dataclass(frozen=True)
class StartNextRound:
    """R32: the host cuts the pause short."""


@dataclass(frozen=True)
class NewGame:
    """Back to the lobby with the same seats and scores at zero."""


@dataclass(frozen=True)
class StartPractice:
    """Leave the lobby for a practice round: every duration × 1.5, no point kept, then the lobby again.

    Every seat must be held, as for :class:`StartGame`. The views carry ``practice: true`` until the
    table is back in the lobby; the game that follows starts at 0–0.
    """


@dataclass(frozen=True)
class EndGame:
    """The host ends the game now (sign, play or pause phase, paused or not): the game is over with the
    scores as they stand; the running round, if any, is dropped unrevealed. The winners are the teams with
    the best score, if it is above zero. :class:`NewGame` then returns to the lobby as usual."""


@dataclass(frozen=True)
class Settings:
    """House rules for the next game (lobby or over only); a field left ``None`` is not changed.

    ``winning_score`` is one of ``rules.WINNING_SCORES`` (3..10; R34's is 5); ``timer_factor`` one of
    ``rules.TIMER_FACTORS`` (1, 1.5, 2): every duration of the rules is multiplied by it.
    """

    winning_score: int | None = None
    timer_factor: float | None = None


@dataclass(frozen=True)
class Pause:
    """Stop every clock of the game (sign, play or pause phase): the round clock (R32), the emission
    cadence (R18), the cooldowns (R15, R21), the vote window (R28), the sign phase (R11) and the pause
    between rounds. ``by`` is ``"host"`` or ``"restart"`` (the hold a restarted host puts on its table).

    While paused, commands that need running time are refused (``Reason.PAUSED``); seats may still change
    and connect. A player who leaves (or becomes a bot) while paused is not yet dropped from a vote nor
    stops waiting for the sign phase: the usual rules (R11, R28) apply to whoever is still away when the
    pause lifts. Time spent paused never counts toward any duration.
    """

    by: str = "host"

    def __post_init__(self) -> None:
        # Who paused is the server's word, never a player's: anything else is the caller's bug.
        if self.by not in PAUSED_BY:
            raise ValueError(f"a pause is by one of {PAUSED_BY}, not {self.by!r}")


@dataclass(frozen=True)
class Resume:
    """Lift the pause: every clock continues from the remaining time it had."""


Command = (
    PickSign
    | Ready
    | Swap
    | TakeChannel
    | ReleaseChannel
    | ChooseEmoji
    | CallQuatro
    | CallContre
    | RequestReshuffle
    | AnswerVote
    | SetSeatCount
    | Sit
    | SetConnected
    | StartGame
    | StartNextRound
    | NewGame
    | StartPractice
    | EndGame
    | Settings
    | Pause
    | Resume
)

"""The host's and the server's commands: seats (R1, R3, R33), starting and ending games, house rules, pause.

Each handler takes the game, the command and the list of public events to append to, and returns a
Refusal (having changed nothing) or ``None``. Which phase accepts which is :data:`.game.ADMISSION`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import events as ev
from . import rounds, votes
from .commands import (
    EndGame,
    NewGame,
    Pause,
    Resume,
    SeatKind,
    SetConnected,
    SetSeatCount,
    Settings,
    Sit,
    StartGame,
    StartPractice,
)
from .refusals import Reason, Refusal
from .rules import (
    MAX_NAME_LENGTH,
    PRACTICE_TIMER_FACTOR,
    SEAT_COUNTS,
    SEAT_COUNTS_TEXT,
    TIMER_FACTORS,
    WINNING_SCORES,
    team_count,
)
from .state import Paused, Phase, SeatState, TeamState

if TYPE_CHECKING:
    from .game import Game


# --- seats ------------------------------------------------------------------------------


def set_seat_count(game: Game, c: SetSeatCount, events: list[ev.Event]) -> Refusal | None:
    """R1: a table's size, between games. Seats beyond the new count are emptied; after a game, the
    table goes back to the lobby first."""
    if c.seat_count not in SEAT_COUNTS:
        return Refusal(Reason.BAD_SEAT_COUNT, f"a table has {SEAT_COUNTS_TEXT} seats")
    if game.phase is Phase.OVER:
        rounds.back_to_lobby(game, events)
    kept = game.seats[: c.seat_count]
    game.seat_count = c.seat_count
    game.seats = kept + [SeatState() for _ in range(c.seat_count - len(kept))]
    game.teams = [TeamState() for _ in range(team_count(c.seat_count))]
    game._reschedule()
    events.append(ev.SeatCountChanged(c.seat_count))
    return None


def printable_name(name: str) -> bool:
    r"""Whether ``name`` is all printable characters, an emoji's zero-width joiner aside: "👩‍👩‍👧" is one picture
    drawn from three emojis joined by U+200D, which ``str.isprintable`` alone refuses (it is a format character).
    Where a joiner may stand is the server's finer check; here a name made of joiners only is still none.

    >>> printable_name("👩\u200d👩\u200d👧"), printable_name("Ana\n"), printable_name("\u200d")
    (True, False, False)
    """
    rest = name.replace("\u200d", "")
    return bool(rest) and rest.isprintable()


def sit(game: Game, c: Sit, events: list[ev.Event]) -> Refusal | None:
    """R3: a human or a bot takes (or is renamed on) a seat; an empty one only in the lobby (R33: a seat in
    play keeps its hand and its place)."""
    name = c.name.strip() if isinstance(c.name, str) else ""
    kind = SeatKind(c.kind)
    if kind is SeatKind.EMPTY:
        if game.phase is not Phase.LOBBY:
            return game._wrong_phase(Phase.LOBBY)
        name = ""
    elif not 1 <= len(name) <= MAX_NAME_LENGTH or not printable_name(name):
        return Refusal(Reason.BAD_NAME, f"a name has 1 to {MAX_NAME_LENGTH} printable characters")
    s = game.seats[c.seat]
    # A seat that stays human keeps its connection state: renaming an absent player is not a
    # reconnection (R33; only SetConnected says a device came back, with its public event).
    if not (kind is SeatKind.HUMAN and s.kind is SeatKind.HUMAN):
        s.connected = kind is not SeatKind.EMPTY
    s.kind, s.name = kind, name
    s.ready = s.ready and kind is SeatKind.HUMAN
    events.append(ev.SeatChanged(c.seat, kind.value, name))
    if game.paused is None:  # while paused, R28 and R11 wait for the pause's end
        if game.vote is not None and c.seat in game.vote.voters and kind is not SeatKind.HUMAN:
            votes.drop_voter(game, c.seat, events)
        rounds.open_if_all_ready(game, events)
    return None


def set_connected(game: Game, c: SetConnected, events: list[ev.Event]) -> Refusal | None:
    """R33: a human's device came or went; the seat and the hand stay. One who left drops out of a vote
    (R28) and is not waited for (R11) — once the game runs: a pause keeps both until it lifts."""
    s = game.seats[c.seat]
    if s.kind is SeatKind.BOT or s.connected == c.connected:
        return None
    s.connected = bool(c.connected)
    events.append(ev.ConnectionChanged(c.seat, s.connected))
    if not s.connected and game.paused is None:
        if game.vote is not None and c.seat in game.vote.voters:
            votes.drop_voter(game, c.seat, events)
        rounds.open_if_all_ready(game, events)
    return None


# --- games --------------------------------------------------------------------------------


def _empty_seats(game: Game) -> Refusal | None:
    empty = [i for i, s in enumerate(game.seats) if s.kind is SeatKind.EMPTY]
    if empty:
        return Refusal(Reason.SEATS_NOT_FILLED, f"seats {empty} are empty", {"seats": empty})
    return None


def start_game(game: Game, c: StartGame, events: list[ev.Event]) -> Refusal | None:
    """Leave the lobby for the first sign phase; every seat must be held."""
    refusal = _empty_seats(game)
    if refusal is not None:
        return refusal
    events.append(ev.GameStarted())
    rounds.open_sign_phase(game, events)
    return None


def start_practice(game: Game, c: StartPractice, events: list[ev.Event]) -> Refusal | None:
    """A practice round: at least the practice pace (× 1.5), no point kept, then the lobby again."""
    refusal = _empty_seats(game)
    if refusal is not None:
        return refusal
    game.practice = True
    game._pace(max(game.timer_factor, PRACTICE_TIMER_FACTOR))
    events.append(ev.PracticeStarted())
    rounds.open_sign_phase(game, events)
    return None


def new_game(game: Game, c: NewGame, events: list[ev.Event]) -> Refusal | None:
    """Back to the lobby with the same seats and scores at zero."""
    rounds.back_to_lobby(game, events)
    return None


def end_game(game: Game, c: EndGame, events: list[ev.Event]) -> Refusal | None:
    """The host ends the game now: over, with the scores as they stand (a practice round: the lobby)."""
    if game.practice:
        rounds.back_to_lobby(game, events)
        return None
    if game.vote is not None:
        votes.end_vote(game, False, "round_over", events)
    rounds.clear_round(game)  # a round not yet ended is dropped, never revealed (R39)
    rounds.game_over(game, events, by="host")
    return None


def settings(game: Game, c: Settings, events: list[ev.Event]) -> Refusal | None:
    """House rules for the next game: the points to win and the timer factor."""
    score, factor = c.winning_score, c.timer_factor
    if score is not None and not (type(score) is int and score in WINNING_SCORES):
        low, high = WINNING_SCORES[0], WINNING_SCORES[-1]
        return Refusal(Reason.BAD_SETTING, f"the points to win are {low} to {high}", {"setting": "winning_score"})
    if factor is not None and not (type(factor) in (int, float) and factor in TIMER_FACTORS):
        shown = ", ".join(f"{f:g}" for f in TIMER_FACTORS)
        return Refusal(Reason.BAD_SETTING, f"the timer factor is one of {shown}", {"setting": "timer_factor"})
    if score is not None:
        game.winning_score = score
    if factor is not None:
        game.timer_factor = float(factor)
        game._pace(game.timer_factor)
    events.append(ev.HouseRulesChanged(game.winning_score, game.timer_factor))
    return None


# --- pause --------------------------------------------------------------------------------


def pause(game: Game, c: Pause, events: list[ev.Event]) -> Refusal | None:
    """Every clock of the game stops (a second pause is refused ``paused`` by the admission)."""
    game.paused = Paused(c.by, game._called_at)
    events.append(ev.GamePaused(c.by))
    return None


def resume(game: Game, c: Resume, events: list[ev.Event]) -> Refusal | None:
    """The clocks run on from where they stood; then R28 and R11 apply to whoever is still away."""
    if game.paused is None:
        return Refusal(Reason.NOT_PAUSED, "the game is not paused")
    game._lift_pause()
    events.append(ev.GameResumed())
    votes.drop_the_absent(game, events)
    rounds.open_if_all_ready(game, events)
    return None

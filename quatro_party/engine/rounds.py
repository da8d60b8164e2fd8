"""A round from its sign phase to its reveal: R8–R13 (the sign), R5–R6 (the deal), R26 and R32–R35 (the end).

Every function takes the :class:`~quatro_party.engine.game.Game` it works on and the list of public
events to append to; handlers (``pick_sign``, ``ready``, ``start_next_round``) return a Refusal or ``None``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import events as ev
from . import votes
from .cards import deck_for, is_carre
from .commands import PickSign, Ready, SeatKind, StartNextRound
from .deal import deal_anew
from .refusals import Reason, Refusal
from .rules import SIGNS
from .state import Phase, RoundEnd, RoundResult, TeamState

if TYPE_CHECKING:
    from .game import Game


def clear_round(game: Game) -> None:
    """Nothing of a round is left on the table: no hand, no centre, no channel, no cooldown, no vote, no
    record (the reveal, if any, stays)."""
    for s in game.seats:
        s.ready = False
        s.hand = []
        s.channel_held = False
        s.channel_choice = None
        s.next_emission_at = None
        s.last_emission_at = None
        s.last_emitted = None
        s.swap_ready_at = s.channel_ready_at = float("-inf")
    game.centre = []
    game.vote = None
    game.reshuffled = False  # R29: one reshuffle per round
    game.redeals = 0
    game.record = []


def open_sign_phase(game: Game, events: list[ev.Event]) -> None:
    """R8: a new round's sign phase; last round's signs become the ones a team may not pick (R10). R11: a
    game's first sign phase lasts longer (newcomers read what a sign is before they pick one)."""
    game.round += 1
    for t in game.teams:
        t.last_sign = t.sign if t.sign is not None else t.last_sign
        t.sign = None
        t.random_sign = False
    clear_round(game)
    game._enter(Phase.SIGN, game.timing.first_sign_phase if game.round == 1 else game.timing.sign_phase)
    events.append(ev.SignPhaseOpened(game.round))
    open_if_all_ready(game, events)


def waiting_for(game: Game) -> list[int]:
    """R11: the connected humans not yet ready."""
    return [i for i, s in enumerate(game.seats) if s.kind is SeatKind.HUMAN and s.connected and not s.ready]


def open_if_all_ready(game: Game, events: list[ev.Event]) -> None:
    """R11: the round opens once every connected human is ready (bots always are; the absent are not
    waited for). Not while paused: the pause's end asks again."""
    if game.phase is Phase.SIGN and game.paused is None and not waiting_for(game):
        open_round(game, events)


def open_round(game: Game, events: list[ev.Event]) -> None:
    """R11–R13: teams without a sign get a random one (never last round's: R10, R12); the deal (R5–R6)."""
    for i, t in enumerate(game.teams):
        if t.sign is None:
            t.sign = game.rng.choice([s for s in SIGNS if s != t.last_sign])
            t.random_sign = True
            events.append(ev.RandomSignGiven(i))
    game._enter(Phase.PLAY, game.timing.round_length)
    game.round_opened_at = game.now
    game.result = None
    events.append(ev.RoundOpened(game.round, game.timing.round_length))
    deal_anew(game, list(deck_for(game.seat_count)))  # the deck lists its cards in id order
    events.append(ev.Dealt(tuple(game.centre), game.redeals))


def end_round(
    game: Game,
    end: RoundEnd,
    caller: int | None,
    target: int | None,
    correct: bool,
    scorers: tuple[int, ...],
    events: list[ev.Event],
) -> None:
    """R26, R32: the round is over; the reveal, the points (none in practice), then the pause or game over."""
    if game.vote is not None:
        votes.end_vote(game, False, "round_over", events)
    if game.practice:
        scorers = ()
    for t in scorers:  # R34: points are only ever added
        game.teams[t].score += 1
    for s in game.seats:
        s.next_emission_at = None
    scores = game.scores()
    opened = game.round_opened_at if game.round_opened_at is not None else game.now
    game.result = RoundResult(
        round=game.round,
        end=end,
        caller=caller,
        target=target,
        correct=correct,
        scorers=scorers,
        hands=tuple(tuple(s.hand) for s in game.seats),
        centre=tuple(game.centre),
        carres=tuple(i for i, s in enumerate(game.seats) if is_carre(s.hand)),
        signs=tuple(t.sign for t in game.teams),
        scores=scores,
        story=tuple(game.record),
        length=round(game.now - opened, 3),
        practice=game.practice,
        names=tuple(s.name for s in game.seats),
        kinds=tuple(s.kind.value for s in game.seats),
    )
    game.results.append(game.result)
    events.append(ev.RoundEnded(game.result))
    if max(scores) >= game.winning_score:  # R34
        game_over(game, events)
    else:
        game._enter(Phase.PAUSE, game.timing.pause_length)
        events.append(ev.PauseOpened(game.timing.pause_length))


def game_over(game: Game, events: list[ev.Event], by: str = "score") -> None:
    """R34–R35: the game is over; the teams with the best score win together (none while it is 0). ``by`` says
    why: ``"score"`` (a team reached the winning score) or ``"host"`` (the host ended it)."""
    scores = game.scores()
    best = max(scores)
    game._enter(Phase.OVER)
    game.ended_by = by
    game.winners = tuple(t for t, score in enumerate(scores) if score == best) if best > 0 else ()
    events.append(ev.GameOver(game.winners, scores))


def time_up(game: Game, events: list[ev.Event]) -> None:
    """The phase's deadline has come: the sign phase opens the round (R11), a round with no call is void
    (R32), the pause leads to the next sign phase (or, after a practice round, back to the lobby)."""
    if game.phase is Phase.SIGN:
        open_round(game, events)
    elif game.phase is Phase.PLAY:
        end_round(game, RoundEnd.VOID, None, None, False, (), events)
    elif game.phase is Phase.PAUSE:
        after_pause(game, events)


def after_pause(game: Game, events: list[ev.Event]) -> None:
    """The next round's sign phase; a practice round is followed by the lobby instead."""
    if game.practice:
        back_to_lobby(game, events)
    else:
        open_sign_phase(game, events)


def back_to_lobby(game: Game, events: list[ev.Event]) -> None:
    """The lobby again, same seats: scores at zero, no round, no reveal, no cooldown carried over.

    A practice round's pace is dropped for the house rules' own.
    """
    game.round = 0
    game.teams = [TeamState() for _ in range(game.team_count)]
    clear_round(game)
    game.result, game.results, game.winners, game.ended_by = None, [], (), None
    game.round_opened_at = game.last_vote_end = None
    game.practice = False
    game._pace(game.timer_factor)
    game._enter(Phase.LOBBY)
    events.append(ev.BackToLobby())


# --- handlers -------------------------------------------------------------------------


def pick_sign(game: Game, c: PickSign, events: list[ev.Event]) -> Refusal | None:
    """R8–R10, R13: fix the team's sign (first partner wins)."""
    team = game.teams[game.team(c.seat)]
    if c.sign not in SIGNS:
        return Refusal(Reason.UNKNOWN_SIGN, "pick one of the 24 signs")
    if game.seats[c.seat].kind is SeatKind.BOT and game.seats[game.partner(c.seat)].kind is SeatKind.HUMAN:
        return Refusal(Reason.SIGN_LEFT_TO_PARTNER, "a bot leaves the sign to its human partner (R13)")
    if team.sign is not None:
        return Refusal(Reason.SIGN_ALREADY_FIXED, "your team's sign is already fixed")
    if c.sign == team.last_sign:
        return Refusal(Reason.SIGN_USED_LAST_ROUND, "that was your sign last round: pick another")
    team.sign = c.sign  # R9: never compared with another team's sign
    return None


def ready(game: Game, c: Ready, events: list[ev.Event]) -> Refusal | None:
    """R11: one more player ready; the round opens when nobody connected is left to wait for."""
    s = game.seats[c.seat]
    if s.ready:
        return Refusal(Reason.ALREADY_READY, "you are already ready")
    s.ready = True
    events.append(ev.PlayerReady(c.seat))
    open_if_all_ready(game, events)
    return None


def start_next_round(game: Game, c: StartNextRound, events: list[ev.Event]) -> Refusal | None:
    """R32: the host cuts the pause short."""
    after_pause(game, events)
    return None

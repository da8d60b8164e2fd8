"""The reshuffle vote (R27–R31): a human asks, every other connected human must accept in time.

One refusal, or silence until the window closes, ends the vote unpassed (R28). A voter who leaves
drops out of the vote (R28) — except while the game is paused: then :func:`drop_the_absent` does it
when the pause lifts, to whoever is still away. A passed vote deals hands and centre anew: same
signs, same clock, no point (R27, R31); one per round, and not too soon after the last (R29).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import events as ev
from .commands import AnswerVote, RequestReshuffle, SeatKind
from .deal import deal_anew
from .refusals import Reason, Refusal
from .state import Vote

if TYPE_CHECKING:
    from .game import Game


def request_reshuffle(game: Game, c: RequestReshuffle, events: list[ev.Event]) -> Refusal | None:
    """R27–R30: open a vote among the other connected humans (passed at once if there are none)."""
    if game.seats[c.seat].kind is not SeatKind.HUMAN:
        return Refusal(Reason.SEAT_NOT_HUMAN, "bots do not vote or ask for a reshuffle (R30)")
    if game.reshuffled:
        return Refusal(Reason.RESHUFFLE_ALREADY_DONE, "this round was already reshuffled")
    if game.vote is not None:
        return Refusal(Reason.VOTE_RUNNING, "a vote is already running")
    if game.last_vote_end is not None:
        refusal = game._waiting(
            Reason.VOTE_TOO_SOON, game.last_vote_end + game.timing.vote_gap, "too soon after the last vote"
        )
        if refusal is not None:
            return refusal
    voters = [i for i, s in enumerate(game.seats) if i != c.seat and s.kind is SeatKind.HUMAN and s.connected]  # R28
    game.vote = Vote(c.seat, voters, [], game.now + game.timing.vote_length)
    game._reschedule()
    events.append(ev.VoteOpened(c.seat, tuple(voters), game.timing.vote_length))
    if not voters:
        end_vote(game, True, "accepted", events)
    return None


def answer_vote(game: Game, c: AnswerVote, events: list[ev.Event]) -> Refusal | None:
    """R28: one refusal ends the vote; the last acceptance passes it."""
    vote = game.vote
    if vote is None:
        return Refusal(Reason.NO_VOTE, "no vote is running")
    if c.seat not in vote.voters:
        return Refusal(Reason.NOT_A_VOTER, "you do not vote on this one")
    if c.seat in vote.accepted:
        return Refusal(Reason.ALREADY_ANSWERED, "you already answered")
    events.append(ev.VoteAnswered(c.seat, bool(c.accept)))
    if not c.accept:
        end_vote(game, False, "refused", events)
        return None
    vote.accepted.append(c.seat)
    if set(vote.accepted) >= set(vote.voters):
        end_vote(game, True, "accepted", events)
    return None


def drop_voter(game: Game, seat: int, events: list[ev.Event]) -> None:
    """R28: ``seat`` left (or is a human no more): it no longer votes; the vote passes if all who remain accepted."""
    vote = game.vote
    assert vote is not None
    vote.voters.remove(seat)
    if seat in vote.accepted:
        vote.accepted.remove(seat)
    if set(vote.accepted) >= set(vote.voters):
        end_vote(game, True, "accepted", events)


def drop_the_absent(game: Game, events: list[ev.Event]) -> None:
    """R28 at the end of a pause: every voter still away, or no longer human, drops out."""
    for seat in list(game.vote.voters if game.vote is not None else ()):
        s = game.seats[seat]
        if game.vote is not None and not (s.kind is SeatKind.HUMAN and s.connected):
            drop_voter(game, seat, events)


def end_vote(game: Game, passed: bool, why: str, events: list[ev.Event]) -> None:
    """R28: the vote is over (``why``: accepted, refused, silence, round_over); R27, R31 if it passed."""
    game.vote = None
    game._reschedule()
    game.last_vote_end = game.now
    events.append(ev.VoteEnded(passed, why))
    if passed:  # R27, R31: same signs, same clock, no point
        game.reshuffled = True
        deal_anew(game, sorted(game.all_cards(), key=lambda card: card.id))  # back in id order: see deal
        events.append(ev.Reshuffled(tuple(game.centre), game.redeals))

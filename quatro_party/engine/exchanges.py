"""Exchanges with the centre (R14–R16) and the channels and their emissions (R17–R21).

Each handler checks in the rules' order, all before any change, and records the public facts it
makes in the round's record (its story once the round has ended: R39).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import events as ev
from .cards import is_carre
from .commands import ChooseEmoji, ReleaseChannel, Swap, TakeChannel
from .refusals import Reason, Refusal
from .rules import CENTRE_SIZE, SIGNS
from .state import SLACK

if TYPE_CHECKING:
    from .game import Game


def swap(game: Game, c: Swap, events: list[ev.Event]) -> Refusal | None:
    """R14–R16: one card of the hand for one of the centre, then the swap cooldown."""
    s = game.seats[c.seat]
    hand = s.hand
    for mine, held in enumerate(hand):
        if held.id == c.card:
            break
    else:
        return Refusal(Reason.NOT_YOUR_CARD, "that card is not in your hand")
    place = c.place
    if not (type(place) is int and 0 <= place < CENTRE_SIZE):
        return Refusal(Reason.NO_SUCH_PLACE, f"the centre has places 0 to {CENTRE_SIZE - 1}")
    refusal = game._waiting(Reason.SWAP_COOLDOWN, s.swap_ready_at, "cooldown")  # R15
    if refusal is not None:
        return refusal
    took = game.centre[place]
    if took.id != c.expected:  # R16: costs nothing
        return Refusal(Reason.CARD_TAKEN, "that card was just taken — try again", {"place": place})
    put = hand[mine]
    hand[mine], game.centre[place] = took, put
    s.swap_ready_at = game.now + game.timing.swap_cooldown
    events.append(ev.Swapped(c.seat, place, put, took))
    game._moment(c.seat, "swap")
    if put.rank != took.rank and is_carre(hand):  # a carré formed (one of a rank for another forms none)
        game._moment(c.seat, "carre")
    return None


def take_channel(game: Game, c: TakeChannel, events: list[ev.Event]) -> Refusal | None:
    """R17, R21: take the channel; it may then emit."""
    s = game.seats[c.seat]
    if s.channel_held:
        return Refusal(Reason.CHANNEL_ALREADY_HELD, "you already hold your channel")
    refusal = game._waiting(Reason.CHANNEL_COOLDOWN, s.channel_ready_at, "channel cooldown")  # R21
    if refusal is not None:
        return refusal
    s.channel_held = True
    s.channel_ready_at = game.now + game.timing.channel_cooldown
    events.append(ev.ChannelTaken(c.seat))
    game._moment(c.seat, "take")
    return None


def release_channel(game: Game, c: ReleaseChannel, events: list[ev.Event]) -> Refusal | None:
    """R17, R19, R21: release the channel; its choice is cleared and it shows nothing."""
    s = game.seats[c.seat]
    if not s.channel_held:
        return Refusal(Reason.CHANNEL_NOT_HELD, "you do not hold your channel")
    refusal = game._waiting(Reason.CHANNEL_COOLDOWN, s.channel_ready_at, "channel cooldown")  # R21
    if refusal is not None:
        return refusal
    s.channel_held = False
    s.channel_choice = None  # R19
    if s.next_emission_at is not None:
        s.next_emission_at = None
        game._emission_moved(c.seat)
    # R19: a released channel shows nothing; without this a re-taken channel with no choice
    # would still show its old emoji on every screen. ``last_emission_at`` stays (R18's period).
    s.last_emitted = None
    s.channel_ready_at = game.now + game.timing.channel_cooldown
    events.append(ev.ChannelReleased(c.seat))
    game._moment(c.seat, "release")
    return None


def choose_emoji(game: Game, c: ChooseEmoji, events: list[ev.Event]) -> Refusal | None:
    """R18–R20: what the held channel emits: at once, or one emission period after the last emission."""
    s = game.seats[c.seat]
    if c.emoji not in SIGNS:
        return Refusal(Reason.UNKNOWN_SIGN, "pick one of the 24 emojis")
    if not s.channel_held:
        return Refusal(Reason.CHANNEL_NOT_HELD, "take your channel first")
    s.channel_choice = c.emoji
    if s.next_emission_at is None:
        period = game.timing.emission_period
        if s.last_emission_at is None or game.now - s.last_emission_at >= period - SLACK:
            s.next_emission_at = game.now
            emit(game, c.seat, events)
        else:
            s.next_emission_at = s.last_emission_at + period
            game._emission_moved(c.seat)
    return None


def emit(game: Game, seat: int, events: list[ev.Event]) -> None:
    """R18: the seat's channel shows its choice to the whole table; the next emission is one period on."""
    s = game.seats[seat]
    assert s.next_emission_at is not None and s.channel_choice is not None
    at = s.next_emission_at
    s.last_emission_at = at
    s.last_emitted = s.channel_choice
    s.next_emission_at = at + game.timing.emission_period
    game._emission_moved(seat)
    events.append(ev.Emitted(seat, s.channel_choice))
    game._moment(seat, "emit", emoji=s.channel_choice, sign=s.channel_choice == game.teams[game.team(seat)].sign)

"""The rules of Quatro, pure and deterministic: no web, no threads, no clock, no global RNG.

Start here: :class:`Game` (the state machine), :mod:`.commands` (what can be asked),
:mod:`.events` (what happened, all public), :mod:`.views` (what each viewer may see),
:mod:`.rules` (every number of the rules), :mod:`.cards` (deck and text notation).
"""

from .cards import Card, deck_for, format_cards, is_carre, parse_cards
from .commands import (
    AnswerVote,
    CallContre,
    CallQuatro,
    ChooseEmoji,
    Command,
    NewGame,
    PickSign,
    Ready,
    ReleaseChannel,
    RequestReshuffle,
    SeatCommand,
    SeatKind,
    SetConnected,
    SetSeatCount,
    Sit,
    StartGame,
    StartNextRound,
    Swap,
    TakeChannel,
)
from .game import Game, Outcome, Phase, RoundEnd, RoundResult
from .refusals import Reason, Refusal
from .rules import DEFAULT_TIMING, SIGNS, WINNING_SCORE, Timing, partner_of, seats_of, team_of
from .views import reveal_view, seat_view, table_view

__all__ = [
    "AnswerVote",
    "CallContre",
    "CallQuatro",
    "Card",
    "ChooseEmoji",
    "Command",
    "DEFAULT_TIMING",
    "Game",
    "NewGame",
    "Outcome",
    "Phase",
    "PickSign",
    "Ready",
    "Reason",
    "Refusal",
    "ReleaseChannel",
    "RequestReshuffle",
    "RoundEnd",
    "RoundResult",
    "SIGNS",
    "SeatCommand",
    "SeatKind",
    "SetConnected",
    "SetSeatCount",
    "Sit",
    "StartGame",
    "StartNextRound",
    "Swap",
    "TakeChannel",
    "Timing",
    "WINNING_SCORE",
    "deck_for",
    "format_cards",
    "is_carre",
    "parse_cards",
    "partner_of",
    "reveal_view",
    "seat_view",
    "seats_of",
    "table_view",
    "team_of",
]

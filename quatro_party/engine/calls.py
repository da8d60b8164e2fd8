"""The calls (R22–R26): "Quatro!" on one's partner, "Contre!" on an opposing team. One call ends the round."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import events as ev
from .commands import CallContre, CallQuatro
from .refusals import Reason, Refusal
from .rounds import end_round
from .rules import other_teams, seats_of
from .state import RoundEnd

if TYPE_CHECKING:
    from .game import Game


def call_quatro(game: Game, c: CallQuatro, events: list[ev.Event]) -> Refusal | None:
    """R22–R23: right if the partner holds a carré (the caller's team scores), wrong otherwise (every other
    team scores). A caller holding a carré must confirm: Quatro looks at the partner's hand."""
    if game.has_carre(c.seat) and not c.confirmed:  # R23
        return Refusal(
            Reason.CONFIRM_OWN_CARRE, "Quatro looks at your partner's hand, not yours: confirm to call anyway"
        )
    partner = game.partner(c.seat)
    mine = game.team(c.seat)
    correct = game.has_carre(partner)  # R22
    scorers = (mine,) if correct else other_teams(mine, game.seat_count)
    game._moment(c.seat, "call", call="quatro", correct=correct)
    end_round(game, RoundEnd.QUATRO, c.seat, partner, correct, scorers, events)
    return None


def call_contre(game: Game, c: CallContre, events: list[ev.Event]) -> Refusal | None:
    """R24: right if a seat of the accused team holds a carré (the caller's team scores), wrong otherwise
    (the accused team scores). At 4 seats the accused team may be left out: there is only one."""
    mine = game.team(c.seat)
    accused = c.team
    opposing = other_teams(mine, game.seat_count)
    if accused is None and len(opposing) == 1:
        accused = opposing[0]
    # type() rather than isinstance: True is not team 1
    if not (type(accused) is int and 0 <= accused < game.team_count and accused != mine):
        return Refusal(Reason.BAD_TEAM, "name an opposing team")
    correct = any(game.has_carre(s) for s in seats_of(accused, game.seat_count))  # R24
    game._moment(c.seat, "call", call="contre", team=accused, correct=correct)
    end_round(game, RoundEnd.CONTRE, c.seat, accused, correct, (mine,) if correct else (accused,), events)
    return None

"""Per-viewer views (R36–R39): the only way state leaves the engine.

* :func:`table_view` — what the big screen may show: public facts only (R36).
* :func:`seat_view` — what one seat's phone (or bot) may see: the table view plus
  ``"you"``: its own hand, cooldowns and channel choice (R37) and its team's sign (R38).
* :func:`reveal_view` — what everybody sees after a round ends (R26): all hands,
  carrés and signs of that round. Both other views embed it as ``"result"``.

Views are plain JSON-ready dicts. Durations are given as seconds *remaining*
from ``now``, so a client needs no shared clock.

>>> import random
>>> from quatro_party.engine import Game
>>> view = table_view(Game(4, rng=random.Random(1)), now=0.0)
>>> view["phase"], view["seat_count"], len(view["seats"])
('lobby', 4, 4)
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from .commands import SeatKind
from .game import Game, Phase
from .rules import SIGNS, seats_of


def _left(at: float | None, now: float) -> float | None:
    return None if at is None else round(max(0.0, at - now), 3)


def reveal_view(game: Game) -> dict[str, Any] | None:
    """R26: the last round's reveal (all hands, carrés, signs), or ``None`` before any round ended."""
    return None if game.result is None else game.result.to_json()


def table_view(game: Game, now: float) -> dict[str, Any]:
    """R36: the public state, for the big screen. Holds no hand and no sign of the running round."""
    vote = game.vote
    clock = _left(game.phase_ends_at, now)
    seats = []
    for i, s in enumerate(game.seats):
        seats.append({
            "seat": i,
            "team": game.team(i),
            "kind": s.kind.value,
            "name": s.name,
            "connected": s.connected or s.kind is SeatKind.BOT,
            "ready": s.ready or s.kind is SeatKind.BOT,  # R11: bots are always ready
            "channel": {"held": s.channel_held, "emoji": s.last_emitted if s.channel_held else None},
        })
    last_vote_gap = None
    if game.last_vote_end is not None:
        last_vote_gap = _left(game.last_vote_end + game.timing.vote_gap, now) or None
    return {
        "phase": game.phase.value,
        "round": game.round,
        "seat_count": game.seat_count,
        "winning_score": game.winning_score,
        "clock": clock,
        "timing": asdict(game.timing),
        "signs": list(SIGNS),
        "seats": seats,
        "teams": [
            {"team": t, "seats": list(seats_of(t, game.seat_count)), "score": team.score,
             "random_sign": team.random_sign and game.phase is Phase.PLAY}
            for t, team in enumerate(game.teams)
        ],
        "centre": [c.to_json() for c in game.centre] if game.phase is Phase.PLAY else [],
        "redeals": game.redeals if game.phase is Phase.PLAY else 0,
        "reshuffle": {
            "done": game.reshuffled,
            "vote": None if vote is None else {
                "requester": vote.requester, "voters": list(vote.voters),
                "accepted": list(vote.accepted), "left": _left(vote.ends_at, now),
            },
            "next_vote_in": last_vote_gap,
        },
        "result": reveal_view(game) if game.phase in (Phase.PAUSE, Phase.OVER, Phase.SIGN) else None,
        "winners": list(game.winners),
    }


def seat_view(game: Game, seat: int, now: float) -> dict[str, Any]:
    """R37–R38: what ``seat`` may see: the table view and, under ``"you"``, its private facts.

    Raises ``IndexError`` for a seat that does not exist.
    """
    if not 0 <= seat < game.seat_count:
        raise IndexError(f"no seat {seat}")
    s = game.seats[seat]
    team = game.teams[game.team(seat)]
    vote = game.vote
    view = table_view(game, now)
    view["you"] = {
        "seat": seat,
        "team": game.team(seat),
        "partner": game.partner(seat),
        "hand": [c.to_json() for c in s.hand] if game.phase is Phase.PLAY else [],
        "has_carre": game.phase is Phase.PLAY and game.has_carre(seat),
        "sign": team.sign,
        "last_sign": team.last_sign,
        "swap_wait": _left(s.swap_ready_at, now) if s.swap_ready_at != float("-inf") else 0.0,
        "channel_wait": _left(s.channel_ready_at, now) if s.channel_ready_at != float("-inf") else 0.0,
        "channel_choice": s.channel_choice,
        "voter": vote is not None and seat in vote.voters and seat not in vote.accepted,
    }
    return view

"""The whole state of a game as plain JSON, and back: what lets a host compact its journal.

A snapshot holds everything, the RNG's state included, so a restored game continues exactly as the
original would: same calls, same events, same views. Cards are stored by id, times as numbers on the
game's clock (``None`` for "never"), enums by value.

>>> import json, random
>>> from quatro_party.engine import Game, Sit, SeatKind, StartGame
>>> game = Game(4, rng=random.Random(5))
>>> for seat in range(4):
...     _ = game.apply(Sit(seat, SeatKind.BOT, f"Bot {seat}"), now=0.0)
>>> _ = game.apply(StartGame(), now=0.0)
>>> again = restore(json.loads(json.dumps(snapshot(game))))
>>> again.position() == game.position(), again.next_deadline()
(True, 180.0)
"""

from __future__ import annotations

import random
from dataclasses import asdict
from typing import Any

from .cards import Card, deck_for
from .commands import SeatKind
from .game import Game
from .rules import PRACTICE_TIMER_FACTOR, Timing
from .state import Moment, Paused, Phase, RoundEnd, RoundResult, SeatState, TeamState, Vote

#: Bumped when a snapshot of the previous layout can no longer be restored.
FORMAT = 1


def _time(t: float | None) -> float | None:
    return None if t is None or t == float("-inf") else t


def _never(t: float | None) -> float:
    return float("-inf") if t is None else float(t)


def _result(r: RoundResult) -> dict[str, Any]:
    return {
        "round": r.round,
        "end": r.end.value,
        "caller": r.caller,
        "target": r.target,
        "correct": r.correct,
        "scorers": list(r.scorers),
        "hands": [[c.id for c in hand] for hand in r.hands],
        "centre": [c.id for c in r.centre],
        "carres": list(r.carres),
        "signs": list(r.signs),
        "scores": list(r.scores),
        "story": [list(m) for m in r.story],
        "length": r.length,
        "practice": r.practice,
        "names": list(r.names),
        "kinds": list(r.kinds),
    }


def snapshot(game: Game) -> dict[str, Any]:
    """Everything ``game`` holds, as JSON-able data (see :func:`restore`)."""
    version, internal, gauss = game.rng.getstate()
    return {
        "format": FORMAT,
        "seat_count": game.seat_count,
        "rng": [version, list(internal), gauss],
        "base_timing": asdict(game.base_timing),
        "timer_factor": game.timer_factor,
        "winning_score": game.winning_score,
        "phase": game.phase.value,
        "practice": game.practice,
        "round": game.round,
        "now": _time(game.now),
        "lag": game.lag,
        "paused": None if game.paused is None else {"by": game.paused.by, "since": game.paused.since},
        "seats": [
            {
                "kind": s.kind.value,
                "name": s.name,
                "connected": s.connected,
                "ready": s.ready,
                "hand": [c.id for c in s.hand],
                "swap_ready_at": _time(s.swap_ready_at),
                "channel_held": s.channel_held,
                "channel_ready_at": _time(s.channel_ready_at),
                "channel_choice": s.channel_choice,
                "last_emission_at": s.last_emission_at,
                "last_emitted": s.last_emitted,
                "next_emission_at": s.next_emission_at,
            }
            for s in game.seats
        ],
        "teams": [asdict(t) for t in game.teams],
        "centre": [c.id for c in game.centre],
        "phase_ends_at": game.phase_ends_at,
        "round_opened_at": game.round_opened_at,
        "vote": None if game.vote is None else asdict(game.vote),
        "last_vote_end": game.last_vote_end,
        "reshuffled": game.reshuffled,
        "redeals": game.redeals,
        "record": [list(m) for m in game.record],
        "result": None if game.result is None else _result(game.result),
        "results": [_result(r) for r in game.results],
        "winners": list(game.winners),
        "ended_by": game.ended_by,
    }


def restore(data: dict[str, Any]) -> Game:
    """The game a :func:`snapshot` describes. Raises ``ValueError`` for data that is not one."""
    if not isinstance(data, dict):
        raise ValueError(f"a game snapshot is a JSON object, not {type(data).__name__}")
    try:
        return _restore(data)
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"not a game snapshot: {exc!r}") from exc


def _restore(data: dict[str, Any]) -> Game:
    if data.get("format") != FORMAT:
        raise ValueError(f"a snapshot of format {data.get('format')!r}, not {FORMAT}")
    seat_count = data["seat_count"]
    version, internal, gauss = data["rng"]
    rng = random.Random()
    rng.setstate((version, tuple(internal), gauss))
    game = Game(
        seat_count,
        rng=rng,
        timing=Timing(**data["base_timing"]),
        winning_score=data["winning_score"],
        timer_factor=data["timer_factor"],
    )
    deck = deck_for(seat_count)

    def cards(ids: list[int]) -> list[Card]:
        return [deck[i] for i in ids]

    def result(r: dict[str, Any]) -> RoundResult:
        return RoundResult(
            round=r["round"],
            end=RoundEnd(r["end"]),
            caller=r["caller"],
            target=r["target"],
            correct=r["correct"],
            scorers=tuple(r["scorers"]),
            hands=tuple(tuple(cards(h)) for h in r["hands"]),
            centre=tuple(cards(r["centre"])),
            carres=tuple(r["carres"]),
            signs=tuple(r["signs"]),
            scores=tuple(r["scores"]),
            story=tuple(Moment(*m) for m in r["story"]),
            length=r["length"],
            practice=r["practice"],
            names=tuple(r.get("names", ())),  # a snapshot from before rounds kept their players' names
            kinds=tuple(r.get("kinds", ())),
        )

    game.phase = Phase(data["phase"])
    game.practice = data["practice"]
    if game.practice:
        game._pace(max(game.timer_factor, PRACTICE_TIMER_FACTOR))
    game.round = data["round"]
    game.now = _never(data["now"])
    game.lag = data["lag"]
    paused = data["paused"]
    game.paused = None if paused is None else Paused(paused["by"], paused["since"])
    game.seats = [
        SeatState(
            kind=SeatKind(s["kind"]),
            name=s["name"],
            connected=s["connected"],
            ready=s["ready"],
            hand=cards(s["hand"]),
            swap_ready_at=_never(s["swap_ready_at"]),
            channel_held=s["channel_held"],
            channel_ready_at=_never(s["channel_ready_at"]),
            channel_choice=s["channel_choice"],
            last_emission_at=s["last_emission_at"],
            last_emitted=s["last_emitted"],
            next_emission_at=s["next_emission_at"],
        )
        for s in data["seats"]
    ]
    game.teams = [TeamState(**t) for t in data["teams"]]
    game.centre = cards(data["centre"])
    game.phase_ends_at = data["phase_ends_at"]
    game.round_opened_at = data["round_opened_at"]
    game.vote = None if data["vote"] is None else Vote(**data["vote"])
    game.last_vote_end = data["last_vote_end"]
    game.reshuffled = data["reshuffled"]
    game.redeals = data["redeals"]
    game.record = [Moment(*m) for m in data["record"]]
    game.results = [result(r) for r in data["results"]]
    # the reveal on screen is the last ended round's, the very same object (views share it)
    game.result = (
        None
        if data["result"] is None
        else (
            game.results[-1] if game.results and _result(game.results[-1]) == data["result"] else result(data["result"])
        )
    )
    game.winners = tuple(data["winners"])
    game.ended_by = data.get("ended_by")
    if len(game.seats) != seat_count or len(game.teams) != game.team_count:
        raise ValueError("a snapshot's seats and teams must match its seat count")
    game._reschedule()
    return game

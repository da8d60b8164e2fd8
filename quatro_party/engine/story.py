"""A game's story told from its record: the recap of every round and the awards. Pure functions.

Each ended round's :class:`~.state.RoundResult` carries its record (``story``: the public facts of the
round with their times, see :class:`~.state.Moment`). Nothing here is shown before game over, and the
record of a running round is never shown at all (R39): views take these from ended rounds only.

>>> from quatro_party.engine.state import Moment, RoundEnd, RoundResult
>>> r = RoundResult(1, RoundEnd.CONTRE, 1, 0, True, (1,), ((),) * 4, (), (0,), ("🍍", "🚀"), (0, 1),
...                 story=(Moment(2.0, 0, "emit", "🍍", True), Moment(3.5, 1, "call", call="contre", team=0,
...                        correct=True)), length=3.5)
>>> recap([r])[0]["how"]
'contre_right'
>>> [(a["award"], a["seat"], a["detail"]) for a in awards([r])]
[('sharpest_reader', 1, {'contres': 1}), ('best_contre', 1, {'round': 1, 'team': 0, 'flashes': 1, 't': 3.5})]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .rules import team_of
from .state import Moment, RoundEnd, RoundResult


def how(result: RoundResult) -> str:
    """How the round's point(s) were won: ``quatro_right`` (the caller's team scores), ``quatro_wrong``
    (every other team scores, R22), ``contre_right`` (the caller's team), ``contre_wrong`` (the accused team),
    or ``void`` (nobody, R32)."""
    if result.end is RoundEnd.VOID:
        return "void"
    return f"{result.end.value}_{'right' if result.correct else 'wrong'}"


def recap(results: Sequence[RoundResult]) -> list[dict[str, Any]]:
    """One entry per ended round: ``round``, ``end``, ``how`` (see :func:`how`), ``caller``, ``target``
    (the judged partner of a Quatro, the accused team of a Contre), ``scorers`` (the teams that won a
    point), ``scores`` (after the round), ``length`` (seconds of play) and ``emissions`` (how many)."""
    return [
        {
            "round": r.round,
            "end": r.end.value,
            "how": how(r),
            "caller": r.caller,
            "target": r.target,
            "scorers": list(r.scorers),
            "scores": list(r.scores),
            "length": r.length,
            "emissions": sum(1 for m in r.story if m.kind == "emit"),
        }
        for r in results
    ]


def _call(result: RoundResult) -> Moment | None:
    return next((m for m in result.story if m.kind == "call"), None)


def _team_of(result: RoundResult, seat: int) -> int:
    return team_of(seat, len(result.hands))  # a result holds one hand per seat


def awards(results: Sequence[RoundResult]) -> list[dict[str, Any]]:
    """The game's awards, each ``{"award", "seat", "detail"}``; an award nobody earned is left out.

    * ``sharpest_reader`` — the seat with the most correct Contres (opposing signs cracked); a tie goes
      to the seat whose first correct Contre came first. ``detail``: ``{"contres": n}``.
    * ``best_contre`` — the correct Contre called after seeing the fewest emissions of the accused team's
      true sign in its round (a tie: the earlier call in play time, then the earlier round). ``detail``:
      ``{"round", "team", "flashes", "t"}`` (``t``: seconds of play at the call).
    * ``fastest_quatro`` — the correct Quatro called soonest after the partner's carré formed (from the
      round's opening if it was dealt, never in play, R6). ``detail``: ``{"round", "seconds"}``.
    * ``boldest_decoy`` — the seat whose decoys (emissions of an emoji that is not its team's sign) baited
      the most wrong Contres: each wrong Contre on a team is credited to that team's seat with the most
      decoys in the round before the call (a tie: the lower seat). Without any wrong Contre, the seat with
      the most decoys of the game. ``detail``: ``{"baited": n, "decoys": n}``.
    """
    found: list[dict[str, Any]] = []
    contres: dict[int, int] = {}
    best_contre: tuple[tuple[int, float, int], int, dict[str, Any]] | None = None
    fastest: tuple[tuple[float, int], int, dict[str, Any]] | None = None
    baited: dict[int, int] = {}
    decoys: dict[int, int] = {}
    for r in results:
        for m in r.story:
            if m.kind == "emit" and m.sign is False:
                decoys[m.seat] = decoys.get(m.seat, 0) + 1
        call = _call(r)
        if call is None:
            continue
        before = [m for m in r.story if m.t <= call.t and m is not call]
        if call.call == "contre" and call.correct and call.team is not None:
            contres[call.seat] = contres.get(call.seat, 0) + 1
            flashes = sum(1 for m in before if m.kind == "emit" and m.sign and _team_of(r, m.seat) == call.team)
            key = (flashes, call.t, r.round)
            if best_contre is None or key < best_contre[0]:
                detail = {"round": r.round, "team": call.team, "flashes": flashes, "t": call.t}
                best_contre = (key, call.seat, detail)
        elif call.call == "contre" and call.correct is False and call.team is not None:
            counts: dict[int, int] = {}
            for m in before:
                if m.kind == "emit" and m.sign is False and _team_of(r, m.seat) == call.team:
                    counts[m.seat] = counts.get(m.seat, 0) + 1
            if counts:
                bait = max(sorted(counts), key=lambda s: counts[s])
                baited[bait] = baited.get(bait, 0) + 1
        elif call.call == "quatro" and call.correct and r.target is not None:
            formed = [m.t for m in before if m.kind == "carre" and m.seat == r.target]
            seconds = round(call.t - (formed[-1] if formed else 0.0), 3)
            key2 = (seconds, r.round)
            if fastest is None or key2 < fastest[0]:
                fastest = (key2, call.seat, {"round": r.round, "seconds": seconds})
    if contres:
        most = max(contres.values())
        seat = next(s for s in contres if contres[s] == most)  # dicts keep the order seats got their first
        found.append({"award": "sharpest_reader", "seat": seat, "detail": {"contres": most}})
    if best_contre is not None:
        found.append({"award": "best_contre", "seat": best_contre[1], "detail": best_contre[2]})
    if fastest is not None:
        found.append({"award": "fastest_quatro", "seat": fastest[1], "detail": fastest[2]})
    if baited or decoys:
        pool = baited if baited else decoys
        seat = min(pool, key=lambda s: (-pool[s], -decoys.get(s, 0), s))
        found.append(
            {"award": "boldest_decoy", "seat": seat, "detail": {"baited": baited.get(seat, 0), "decoys": decoys[seat]}}
        )
    return found

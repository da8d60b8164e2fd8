"""A game's story told from its record: the recap of every round and the awards. Pure functions.

Each ended round's :class:`~.state.RoundResult` carries its record (``story``: the public facts of the
round with their times, see :class:`~.state.Moment`). Nothing here is shown before game over, and the
record of a running round is never shown at all (R39): views take these from ended rounds only.

>>> from quatro_party.engine.state import Moment, RoundEnd, RoundResult
>>> r = RoundResult(1, RoundEnd.CONTRE, 1, 0, True, (1,), ((),) * 4, (), (0,), ("🍍", "🚀"), (0, 1),
...                 story=(Moment(2.0, 0, "emit", "🍍", True), Moment(3.5, 1, "call", call="contre", team=0,
...                        correct=True)), length=3.5, names=("Ana", "Bob", "Chloé", "Bot Dex"),
...                 kinds=("human", "human", "human", "bot"))
>>> recap([r])[0]["how"]
'contre_right'
>>> [(a["award"], a["name"], a["detail"]) for a in awards([r])]
[('sharpest_reader', 'Bob', {'contres': 1}), ('best_contre', 'Bob', {'round': 1, 'team': 0, 'flashes': 1, 't': 3.5})]
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
    point), ``scores`` (after the round), ``length`` (seconds of play), ``emissions`` (how many) and ``names``
    (who held each seat in that round: a seat taken over later keeps its old name here)."""
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
            "names": list(r.names),
        }
        for r in results
    ]


def _call(result: RoundResult) -> Moment | None:
    return next((m for m in result.story if m.kind == "call"), None)


def _team_of(result: RoundResult, seat: int) -> int:
    return team_of(seat, len(result.hands))  # a result holds one hand per seat


#: Who earned an award: a seat and the name its occupant had then (a seat taken over between rounds is another
#: player), and whether a bot held it (a tie goes to a person).
Player = tuple[int, str, bool]


def _player(result: RoundResult, seat: int) -> Player:
    names, kinds = result.names, result.kinds
    return (seat, names[seat] if seat < len(names) else "", seat < len(kinds) and kinds[seat] == "bot")


def _award(award: str, player: Player, detail: dict[str, Any]) -> dict[str, Any]:
    return {"award": award, "seat": player[0], "name": player[1], "detail": detail}


def awards(results: Sequence[RoundResult]) -> list[dict[str, Any]]:
    """The game's awards, each ``{"award", "seat", "name", "detail"}`` (``name``: the seat's occupant when they
    earned it); an award is given only for something that happened, so no detail counts zero. A tie goes to a
    person over a bot.

    * ``sharpest_reader`` — the player with the most correct Contres (opposing signs cracked); a tie goes to the
      one whose first correct Contre came first. ``detail``: ``{"contres": n}``.
    * ``best_contre`` — the correct Contre called after seeing the fewest emissions (at least one) of the
      accused team's true sign in its round (a Contre before any is a guess, not a read; a tie: the earlier call
      in play time, then the earlier round). ``detail``: ``{"round", "team", "flashes", "t"}`` (``t``: seconds
      of play at the call).
    * ``fastest_quatro`` — the correct Quatro called soonest after the partner's carré formed (from the
      round's opening if it was dealt, never in play, R6). ``detail``: ``{"round", "seconds"}``.
    * ``boldest_decoy`` — the player whose decoys (emissions of an emoji that is not their team's sign) baited
      the most wrong Contres: each wrong Contre on a team is credited to that team's player with the most
      decoys in the round before the call (a tie: a person, then the lower seat). ``detail``:
      ``{"baited": n, "decoys": n}``. Without any wrong Contre, the player with the most decoys of the game:
      ``{"decoys": n}``.
    """
    found: list[dict[str, Any]] = []
    contres: dict[Player, int] = {}
    best_contre: tuple[tuple[int, bool, float, int], Player, dict[str, Any]] | None = None
    fastest: tuple[tuple[float, bool, int], Player, dict[str, Any]] | None = None
    baited: dict[Player, int] = {}
    decoys: dict[Player, int] = {}
    for r in results:
        for m in r.story:
            if m.kind == "emit" and m.sign is False:
                player = _player(r, m.seat)
                decoys[player] = decoys.get(player, 0) + 1
        call = _call(r)
        if call is None:
            continue
        caller = _player(r, call.seat)
        before = [m for m in r.story if m.t <= call.t and m is not call]
        if call.call == "contre" and call.correct and call.team is not None:
            contres[caller] = contres.get(caller, 0) + 1
            flashes = sum(1 for m in before if m.kind == "emit" and m.sign and _team_of(r, m.seat) == call.team)
            key = (flashes, caller[2], call.t, r.round)
            if flashes and (best_contre is None or key < best_contre[0]):
                detail = {"round": r.round, "team": call.team, "flashes": flashes, "t": call.t}
                best_contre = (key, caller, detail)
        elif call.call == "contre" and call.correct is False and call.team is not None:
            counts: dict[int, int] = {}
            for m in before:
                if m.kind == "emit" and m.sign is False and _team_of(r, m.seat) == call.team:
                    counts[m.seat] = counts.get(m.seat, 0) + 1
            if counts:
                bait = min((_player(r, s) for s in counts), key=lambda p: (-counts[p[0]], p[2], p[0]))
                baited[bait] = baited.get(bait, 0) + 1
        elif call.call == "quatro" and call.correct and r.target is not None:
            formed = [m.t for m in before if m.kind == "carre" and m.seat == r.target]
            seconds = round(call.t - (formed[-1] if formed else 0.0), 3)
            key2 = (seconds, caller[2], r.round)
            if fastest is None or key2 < fastest[0]:
                fastest = (key2, caller, {"round": r.round, "seconds": seconds})
    if contres:
        most = max(contres.values())
        # dicts keep the order players got their first: among the most, a person first, then the earliest
        reader = min((p for p in contres if contres[p] == most), key=lambda p: p[2])
        found.append(_award("sharpest_reader", reader, {"contres": most}))
    if best_contre is not None:
        found.append(_award("best_contre", best_contre[1], best_contre[2]))
    if fastest is not None:
        found.append(_award("fastest_quatro", fastest[1], fastest[2]))
    if decoys:
        pool = baited if baited else decoys
        bold = min(pool, key=lambda p: (-pool[p], -decoys.get(p, 0), p[2], p[0]))
        detail = {"baited": baited[bold], "decoys": decoys[bold]} if baited else {"decoys": decoys[bold]}
        found.append(_award("boldest_decoy", bold, detail))
    return found

"""Who plays whom: a team's label to its two players, and the games of a run with duplicate deals.

A team is a bot level (``"hard"``: two hard bots) or two players joined by ``+``, first seat then partner
(``"newcomer+easy"``: the scripted first-time player with an easy bot as partner). Duplicate deals cut luck out:
each seed is played once per rotation of the labels over the teams (with two labels: once, then with the teams
swapped), and every player's dice come from the seed and its seat.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..bots import LEVELS

#: The scripted first-time player of the simulator (not a level a host can seat): it sits on a human seat.
NEWCOMER = "newcomer"


def team_players(label: str) -> tuple[str, str]:
    """A team's label to its two players, (first seat, partner): ``"hard"`` is two hard bots,
    ``"newcomer+easy"`` a newcomer with an easy bot as partner."""
    parts = [x.strip() for x in label.split("+")]
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or not all(parts):
        raise ValueError(f"a team is one level or two joined by '+', not {label!r}")
    for part in parts:
        if part != NEWCOMER and part not in LEVELS:
            raise ValueError(f"unknown player {part!r} (choose from {', '.join([*LEVELS, NEWCOMER])})")
    return parts[0], parts[1]


def rotations(levels: Sequence[str], teams: int) -> list[tuple[str, ...]]:
    """Team levels for each replay of a seed: the levels cycled over the teams, then every rotation of them."""
    distinct = list(dict.fromkeys(levels))
    out = []
    for k in range(max(1, len(distinct))):
        rotated = list(levels[k:]) + list(levels[:k])
        out.append(tuple(rotated[t % len(rotated)] for t in range(teams)))
    return list(dict.fromkeys(out))


def tasks(levels: Sequence[str], games: int, seats: int, first_seed: int) -> list[tuple[int, tuple[str, ...]]]:
    """The (seed, team levels) of each game of a run, in order: every seed once per rotation."""
    variants = rotations(levels, seats // 2)
    out: list[tuple[int, tuple[str, ...]]] = []
    seed = first_seed
    while len(out) < games:
        for team_levels in variants:
            if len(out) >= games:
                break
            out.append((seed, team_levels))
        seed += 1
    return out

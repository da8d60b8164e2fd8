"""Bot-only games on the engine with a simulated clock: how strong is each bot level?

    python -m quatro_party.simulate --seats 4 --games 2000 --teams hard,easy

Each bot is fed only what the server sends a phone in its seat and answers through the phones' checks; no real
time passes (:mod:`.runner` explains the event loop). Duplicate deals cut luck out: each seed is played once per
rotation of the levels over the teams (:mod:`.lineups`), and every bot's dice come from the seed and its seat.

The modules, one reason to change each: :mod:`.runner` (one game's event loop, and runs of many), :mod:`.lineups`
(teams and the games of a run), :mod:`.records` (what a game leaves, and the figures read off its events),
:mod:`.report` (the summary and its table), :mod:`.cli` (the command line).

Use it from code too: :func:`run` returns a :class:`Summary`; :func:`play_game` plays one game.
"""

from __future__ import annotations

from .cli import main
from .lineups import NEWCOMER, rotations, tasks, team_players
from .records import ENDINGS, MAX_ROUNDS, GameRecord, RoundRecord
from .report import SHORT_ROUND, LevelStats, Summary, quantile, wilson
from .runner import event_json, make_player, play_game, run, seat_views

__all__ = [
    "ENDINGS",
    "MAX_ROUNDS",
    "NEWCOMER",
    "SHORT_ROUND",
    "GameRecord",
    "LevelStats",
    "RoundRecord",
    "Summary",
    "event_json",
    "main",
    "make_player",
    "play_game",
    "quantile",
    "rotations",
    "run",
    "seat_views",
    "tasks",
    "team_players",
    "wilson",
]

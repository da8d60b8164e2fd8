"""What the bot tests share: a table of bots, feeding a bot its seat's view, waking it as it asks."""

from __future__ import annotations

import random
from typing import Any

from quatro_party.engine import Game, SeatKind, Sit, StartGame, seat_view
from quatro_party.protocol import state_message


def bot_table(seats: int = 4, seed: int = 3, humans: tuple[int, ...] = ()) -> Game:
    game = Game(seats, rng=random.Random(seed))
    for s in range(seats):
        kind = SeatKind.HUMAN if s in humans else SeatKind.BOT
        game.apply(Sit(s, kind, f"P{s}"), 0.0)
    game.apply(StartGame(), 0.0)
    return game


def feed(bot: Any, game: Game, seat: int, now: float, events: list[dict[str, Any]] | None = None) -> None:
    bot.observe(state_message(seat_view(game, seat, now), events or [], table={}), now)


def run_bot(bot: Any, until: float) -> list[tuple[float, dict[str, Any]]]:
    """Wake the bot at every time it asks for, up to ``until``; what it sent, with times."""
    sent = []
    while True:
        at = bot.next_wake()
        if at is None or at > until:
            return sent
        sent.extend((at, m) for m in bot.wake(at))

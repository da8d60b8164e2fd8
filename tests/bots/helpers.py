"""What the bot tests share: a table of bots, feeding a bot its seat's view, waking it as it asks."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from quatro_party.engine import Game, SeatKind, Sit, StartGame, seat_view
from quatro_party.protocol import state_message
from quatro_party.simulate import play_game


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


def trace_digest(seed: int, levels: list[str], seats: int, **options: Any) -> str:
    """A digest of everything that happened in a simulated game: every message a bot sent (with its time and
    the refusal, if any), every event, and the record. ``options`` go to ``play_game``."""
    h = hashlib.sha256()

    def observer(kind: str, now: float, data: Any) -> None:
        if kind == "sent":
            seat, msg, refusal = data
            h.update(repr((now, seat, msg, refusal and refusal.to_json())).encode())
        else:
            h.update(repr((now, data)).encode())

    rec = play_game(seed, levels, seats, observer=observer, **options)
    h.update(repr((rec.scores, rec.endings, rec.sim_time, rec.messages)).encode())
    return h.hexdigest()[:16]

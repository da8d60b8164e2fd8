import random

from quatro_party.engine import Game, Phase, SeatKind, Sit, StartGame


def test_r11_all_bot_table_opens_at_once():
    game = Game(4, rng=random.Random(1))
    for seat in range(4):
        game.apply(Sit(seat, SeatKind.BOT, f"Bot {seat}"), 0.0)
    assert game.apply(StartGame(), 0.0).ok
    assert game.phase is Phase.PLAY

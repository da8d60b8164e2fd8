"""The engine's shortcuts give exactly what the plain way gives: the cached next deadline, the redeal
test (R6, which counts only a hand's first cards) and the refusal texts."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from quatro_party.engine import Game, NewGame, Phase, Reason, SeatKind, Sit, StartGame, Swap, deck_for
from quatro_party.engine.deal import a_hand_to_redeal as _a_hand_to_redeal
from quatro_party.engine.randomplay import RandomPlay
from quatro_party.engine.rules import HAND_SIZE, REDEAL_THRESHOLD


@pytest.mark.parametrize("seat_count", [4, 6, 8])
def test_the_cached_deadline_is_always_the_earliest_in_random_games(seat_count):
    """After every command and every tick of whole random games (votes, calls, emissions, lobby returns)."""
    checked = 0
    for seed in range(25):
        play = RandomPlay(seed, seat_count, record=False)
        play.setup()
        assert play.game._due == play.game._earliest()
        while play.game.phase is not Phase.OVER:
            play.step()
            game = play.game
            assert game._due == game._earliest(), (seed, play.steps)
            expected = None if game._due is None or game.paused is not None else game._due[0] + game.lag
            assert game.next_deadline() == expected
            checked += 1
    assert checked > 2_000  # (about 4,600 at 4 seats)


def test_the_redeal_test_is_r6_hand_by_hand():
    rng = random.Random(1)
    ranks = [c.rank for c in deck_for(8)]
    for _ in range(3000):
        rng.shuffle(ranks)
        hands = [ranks[i : i + HAND_SIZE] for i in range(0, 8 * HAND_SIZE, HAND_SIZE)]
        expected = any(max(Counter(h).values()) >= REDEAL_THRESHOLD for h in hands)
        assert _a_hand_to_redeal(ranks, 8) == expected


def test_wrong_phase_refusals_keep_their_text():
    game = Game(4, rng=random.Random(0))
    refusal = game.apply(Swap(0, 1, 0, 2), 0.0).refusal
    assert refusal is not None and refusal.reason is Reason.WRONG_PHASE
    assert refusal.message == "not during the lobby phase (only play)" and refusal.details == {"phase": "lobby"}
    refusal = game.apply(NewGame(), 0.0).refusal
    assert refusal.message == "not during the lobby phase (only over or pause or sign or play)"
    for seat in range(4):
        game.apply(Sit(seat, SeatKind.BOT, f"Bot {seat}"), 0.0)
    game.apply(StartGame(), 0.0)
    refusal = game.apply(StartGame(), 1.0).refusal
    assert refusal.message == "not during the play phase (only lobby)" and refusal.details == {"phase": "play"}

"""Deterministic simulation: over a thousand complete random games at 4, 6 and 8 seats, and exact replays."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from quatro_party.engine import Game, Phase
from quatro_party.engine import events as ev
from quatro_party.engine.randomplay import RandomPlay, play_random_game

GAMES_PER_SIZE = 340  # 3 × 340 = 1,020 complete games


def test_more_than_a_thousand_complete_random_games_without_an_exception():
    seen: Counter[str] = Counter()
    refusals = steps = 0
    for seat_count in (4, 6, 8):
        for seed in range(GAMES_PER_SIZE):
            play = play_random_game(seed, seat_count)
            game = play.game
            assert game.phase is Phase.OVER, (seat_count, seed)
            assert max(game.scores()) >= 5 and game.winners
            assert all(game.teams[t].score == max(game.scores()) for t in game.winners)
            seen.update(type(e).__name__ for e in play.events)
            seen.update(f"{e.result.end.value}:{e.result.correct}" for e in play.events if isinstance(e, ev.RoundEnded))
            seen["human seats"] += sum(s.kind.value == "human" for s in game.seats)
            seen["bot seats"] += sum(s.kind.value == "bot" for s in game.seats)
            refusals += play.refusals
            steps += play.steps
    assert seen["GameOver"] == 3 * GAMES_PER_SIZE
    # The walk really went everywhere: every kind of event, right and wrong calls of both kinds, voids.
    for name in (
        "Dealt",
        "Swapped",
        "ChannelTaken",
        "ChannelReleased",
        "Emitted",
        "VoteOpened",
        "VoteAnswered",
        "VoteEnded",
        "Reshuffled",
        "RandomSignGiven",
        "ConnectionChanged",
        "SeatChanged",
        "PlayerReady",
        "PauseOpened",
        "SignPhaseOpened",
        "BackToLobby",
        "SeatCountChanged",
    ):
        assert seen[name] > 0, name
    for end in ("quatro:True", "quatro:False", "contre:True", "contre:False", "void:False"):
        assert seen[end] > 0, end
    assert seen["human seats"] > 0 and seen["bot seats"] > 0
    assert 0.1 < refusals / steps < 0.6  # legal and illegal actions both


@pytest.mark.parametrize("seat_count", [4, 6, 8])
def test_replaying_a_seed_gives_the_identical_game(seat_count):
    for seed in range(12):
        first = play_random_game(seed, seat_count)
        again = play_random_game(seed, seat_count)
        assert again.commands == first.commands
        assert again.events == first.events
        assert [e.to_json() for e in again.events] == [e.to_json() for e in first.events]
        assert again.game.position() == first.game.position() and again.now == first.now


@pytest.mark.parametrize("seat_count", [4, 6, 8])
def test_a_game_is_reproducible_from_its_seed_and_its_timed_commands_alone(seat_count):
    """The engine, not the driver, is deterministic: replaying the recorded commands gives the same events."""
    for seed in range(8):
        play = play_random_game(seed, seat_count)
        game = Game(seat_count, rng=random.Random(seed))
        events = []
        for now, command in play.commands:
            events += game.apply(command, now).events
        assert events == play.events
        assert game.scores() == play.game.scores() and game.rng.getstate() == play.game.rng.getstate()


def test_different_seeds_give_different_games():
    assert play_random_game(1, 6).events != play_random_game(2, 6).events
    first = RandomPlay(5, 6, driver=random.Random(1)).play()
    other_deal = RandomPlay(6, 6, driver=random.Random(1)).play()  # same players' choices, another deal
    assert first.events[:40] != other_deal.events[:40]

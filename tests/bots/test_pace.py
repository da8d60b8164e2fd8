"""Bots pace like people at every time scale: a table run faster (a host's --time-scale) speeds up its rules,
not the people at it. A bot's reaction, the call's hold and the emoji beat stay real seconds unless the bot is
made to follow the table (``human_pace=False``: simulations and tests only)."""

from __future__ import annotations

import random

import pytest

from quatro_party.bots import CALL_HOLD, MIN_REACTION, make_bot
from quatro_party.bots.pace import MIN_EMOJI_BEAT
from quatro_party.engine import Game, SeatKind, Sit, StartGame, Timing, seat_view
from quatro_party.protocol import state_message
from quatro_party.simulate import Summary, run

from .helpers import feed, run_bot, trace_digest

HALF = Timing().scaled(0.5)
#: The cells of the ladder's T5 figure: a bot partner of a newcomer, bot teams of adjacent levels.
T5_CELLS = (("newcomer+hard", "hard"), ("hard", "normal"), ("normal", "easy"))


def _t5(timing: Timing, human_pace: bool, games: int = 16) -> tuple[list[float], list[float]]:
    """The bots' Quatro pace from the partner's sign, and their gaps from taking the channel to emitting."""
    cells: list[Summary] = [
        run(list(teams), games, 4, first_seed=700, timing=timing, human_pace=human_pace) for teams in T5_CELLS
    ]
    pace = sorted(p for s in cells for p in s.quatro_pace)
    return pace, [g for s in cells for g in s.emoji_gaps]


def test_t5_at_time_scale_0_5_a_bot_partner_calls_quatro_at_a_human_pace_in_real_seconds():
    """At --time-scale 0.5 (a table people play at), the partner sign → Quatro p10 stays >= 1.3 s of real time
    and the median >= 1.6 s (the ladder's T5 at scale 1), and no emoji follows its take by less than 0.3 s.
    Bots made to follow the table would answer in about a second: the same games with ``human_pace=False``."""
    pace, gaps = _t5(HALF, human_pace=True)
    assert len(pace) > 200
    assert pace[len(pace) // 10] >= 1.3 and pace[len(pace) // 2] >= 1.6, (pace[len(pace) // 10], pace[len(pace) // 2])
    assert min(gaps) >= MIN_EMOJI_BEAT
    scaled, scaled_gaps = _t5(HALF, human_pace=False)
    assert scaled[len(scaled) // 10] < 1.3 and min(scaled_gaps) < MIN_EMOJI_BEAT


def _half_speed_table(seed: int) -> Game:
    game = Game(4, rng=random.Random(seed), timing=HALF)
    for s in range(4):
        game.apply(Sit(s, SeatKind.BOT, f"B{s}"), 0.0)
    game.apply(StartGame(), 0.0)
    return game


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_r22_a_live_tables_bot_holds_its_reaction_and_the_call_button_in_real_seconds_at_scale_0_5(level):
    """make_bot with the host's own arguments (seat, level, rng): the partner shows our sign at t=10 on a table
    at --time-scale 0.5; the Quatro leaves no sooner than 10 + 0.7 s of reaction + 0.55 s of hold."""
    game = _half_speed_table(6)
    bot = make_bot(0, level, random.Random(3))
    feed(bot, game, 0, 0.0)
    run_bot(bot, 9.9)
    sign = game.teams[0].sign
    events = [{"type": "channel_taken", "seat": 2}, {"type": "emitted", "seat": 2, "emoji": sign}]
    view = seat_view(game, 0, 10.0)
    view["seats"][2]["channel"] = {"held": True, "emoji": sign}
    bot.observe(state_message(view, events), 10.0)
    calls = [t for t, m in run_bot(bot, 20.0) if m["type"] == "call_quatro"]
    assert calls and calls[0] >= 10.0 + MIN_REACTION + CALL_HOLD - 1e-9


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_live_tables_bot_chooses_its_emoji_a_real_beat_after_taking_the_channel_at_scale_0_5(level):
    """R17–R18 at --time-scale 0.5: the second tap that chooses the emoji comes >= 0.3 s after the take, and the
    first look >= 0.7 s after the deal."""
    game = _half_speed_table(12)
    s1 = game.seats[1]  # test set-up only: seat 1 is given a carré (the bot only ever sees its view)
    rank = s1.hand[0].rank
    pool = [c for s in game.seats for c in s.hand] + game.centre
    rest = [c for c in pool if c.rank != rank]
    s1.hand = [c for c in pool if c.rank == rank]
    for s in (0, 2, 3):
        game.seats[s].hand, rest = rest[:4], rest[4:]
    game.centre = rest
    bot = make_bot(1, level, random.Random(4))
    feed(bot, game, 1, 0.0)
    sent = run_bot(bot, 15.0)
    assert sent[0][0] >= MIN_REACTION
    (take, _), (choose, msg) = sent[:2]
    assert msg["type"] == "choose_emoji" and choose - take >= MIN_EMOJI_BEAT


#: Games at --time-scale 0.5, by (seed, teams, seats): (bots at people's pace, bots following the table). The
#: second digests were recorded before bots had a human pace: following the table is exactly what they did then.
#: Recorded again when a round's reveal gained its players' names (the events changed, every message did not).
HALF_SPEED_DIGESTS = {
    (1, ("hard", "normal"), 4): ("1cc02e715e725773", "1eb948b0cbf53977"),
    (2, ("newcomer+easy", "hard"), 4): ("37fa6a7997aee5d0", "aa6a625a564a814e"),
    (3, ("easy", "normal", "hard", "normal"), 8): ("6a8c5331c54afef7", "15b395454632667f"),
}


@pytest.mark.parametrize("case", sorted(HALF_SPEED_DIGESTS))
def test_half_speed_games_are_pinned_and_bots_that_follow_the_table_play_as_they_always_did(case):
    seed, levels, seats = case
    human, scaled = HALF_SPEED_DIGESTS[case]
    assert trace_digest(seed, list(levels), seats, timing=HALF, human_pace=False) == scaled
    assert trace_digest(seed, list(levels), seats, timing=HALF, human_pace=True) == human

"""Bots react at a human pace: never sooner than the human floor, slower at the easier levels."""

from __future__ import annotations

import random
from typing import Any

import pytest

from quatro_party.bots import MIN_REACTION, make_bot
from quatro_party.engine import Game, SeatKind, Sit, StartGame, seat_view
from quatro_party.protocol import state_message
from quatro_party.simulate import play_game

from .helpers import bot_table, feed, run_bot

# --- human reaction --------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_reaction_quatro_never_sooner_than_0_7_s_after_the_partner_sign(level):
    """R22: the partner shows our sign at t=10; the bot calls Quatro, but not before 10.7 s."""
    game = bot_table(4, seed=6)
    bot = make_bot(0, level, random.Random(3))
    feed(bot, game, 0, 0.0)
    run_bot(bot, 9.9)
    sign = game.teams[0].sign
    # the partner (seat 2) takes its channel and shows the sign: public events, as the server sends them
    events = [{"type": "channel_taken", "seat": 2}, {"type": "emitted", "seat": 2, "emoji": sign}]
    view = seat_view(game, 0, 10.0)
    view["seats"][2]["channel"] = {"held": True, "emoji": sign}
    bot.observe(state_message(view, events), 10.0)
    sent = run_bot(bot, 20.0)
    calls = [(t, m) for t, m in sent if m["type"] == "call_quatro"]
    assert calls, sent
    assert calls[0][0] >= 10.0 + MIN_REACTION


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_reaction_every_swap_answers_a_centre_at_least_0_7_s_old(level):
    """No exchange names a centre card that has not lain there for at least 0.7 s (R14–R16)."""
    centre_since: dict[int, list[tuple[float, int]]] = {p: [] for p in range(4)}
    checked = 0

    def spy(kind: str, now: float, data: Any) -> None:
        nonlocal checked
        if kind == "events":
            for e in data:
                if e["type"] in ("dealt", "reshuffled"):
                    for p, c in enumerate(e["centre"]):
                        centre_since[p].append((now, c["id"]))
                elif e["type"] == "swapped":
                    centre_since[e["place"]].append((now, e["put"]["id"]))
        elif kind == "sent" and data[1]["type"] == "swap":
            msg = data[1]
            seen = [t for t, cid in centre_since[msg["place"]] if cid == msg["expected"]]
            assert seen and min(seen) <= now - MIN_REACTION + 1e-9, (now, msg, centre_since[msg["place"]][-3:])
            checked += 1

    play_game(8, [level, level], 4, observer=spy)
    assert checked > 20


def test_reaction_delays_depend_on_the_level():
    """A glance at a change is perceived after the level's reaction delay, never under 0.7 s."""
    means = {}
    for level in ("easy", "normal", "hard"):
        bot = make_bot(0, level, random.Random(5))
        delays = []
        for i in range(300):
            bot.observe({"type": "state", "view": None, "events": []}, float(i * 10))  # free: glanced at once
            assert bot.eyes.inbox[-1][1] == i * 10
            delays.append(bot.eyes.inbox[-1][0] - i * 10)
        assert min(delays) >= MIN_REACTION - 1e-9  # (float rounding of now + delay)
        means[level] = sum(delays) / len(delays)
    assert means["easy"] > means["normal"] > means["hard"] >= MIN_REACTION


def test_bots_made_to_follow_a_sped_up_table_scale_their_delays_with_it():
    """A simulation or a test may run a whole table faster, bots included (``human_pace=False``, an explicit
    choice): at --time-scale 0.1 they are ten times quicker too. A live table's bots keep people's pace
    (test_pace.py)."""
    from quatro_party.engine import Timing

    game = Game(4, rng=random.Random(1), timing=Timing().scaled(0.1))
    for s in range(4):
        game.apply(Sit(s, SeatKind.BOT, f"B{s}"), 0.0)
    game.apply(StartGame(), 0.0)
    bot = make_bot(0, "hard", random.Random(1), human_pace=False)
    feed(bot, game, 0, 0.0)
    wake = bot.next_wake()  # it glanced at once; it perceives after the scaled delay
    assert wake is not None and 0.07 - 1e-9 <= wake < 0.7
    rec = play_game(3, ["hard", "easy"], 4, timing=Timing().scaled(0.1), human_pace=False)
    assert rec.winners and rec.sim_time < 600

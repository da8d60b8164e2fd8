"""R22–R25 calls as a phone makes them: no call a bot meant is lost (T8), whatever its view lagged behind."""

from __future__ import annotations

import random
from typing import Any

import pytest

from quatro_party.bots import make_bot
from quatro_party.bots.memory import rank_of
from quatro_party.engine import Game, SeatKind, Sit, StartGame, seat_view
from quatro_party.protocol import state_message
from quatro_party.simulate import play_game


def _calls(seed: int, levels: list[str], seats: int) -> tuple[int, int, int]:
    """Play one game; (Quatros a bot called on a glance older than its own exchange that completed a carré,
    how many of those the server refused, calls refused for another reason than a round already over and
    never sent again that round)."""
    completed: dict[int, float] = {}  # seat -> when its own accepted exchange completed a carré
    hands: dict[int, list[str]] = {}
    refused: set[int] = set()
    stale = stale_refused = lost = 0

    def spy(kind: str, now: float, data: Any) -> None:
        nonlocal stale, stale_refused, lost
        if kind == "events":
            for e in data:
                if e["type"] == "round_ended":
                    lost += len(refused)
                    refused.clear()
                    completed.clear()
            return
        seat, msg, refusal = data
        if msg["type"] == "swap" and refusal is None:
            hand, took = hands.get(seat), rank_of(msg["expected"])
            if hand is not None and hand.count(took) == 3 and rank_of(msg["card"]) != took:
                completed[seat] = now
        elif msg["type"] in ("call_quatro", "call_contre"):
            refused.discard(seat)
            if refusal is not None and refusal.reason.value != "wrong_phase":
                refused.add(seat)
            if msg["type"] == "call_quatro" and seat in completed and now - completed[seat] < 3.0:
                stale += 1
                stale_refused += refusal is not None and refusal.reason.value == "confirm_own_carre"

    import quatro_party.simulate.runner as sim

    real = sim.make_player

    def spying_player(seat: int, kind: str, rng: random.Random, **options: Any) -> Any:
        player = real(seat, kind, rng, **options)
        observe = player.observe

        def seeing(message: dict[str, Any], now: float) -> None:
            if message.get("type") == "state" and message["view"]["phase"] == "play":
                hands[seat] = [c["rank"] for c in message["view"]["you"]["hand"]]
            observe(message, now)

        player.observe = seeing
        return player

    sim.make_player = spying_player
    try:
        play_game(seed, levels, seats, observer=spy)
    finally:
        sim.make_player = real
    return stale, stale_refused, lost + len(refused)


@pytest.mark.parametrize("levels,seats", [(["hard", "normal"], 4), (["normal", "easy"], 4), (["hard"] * 4, 8)])
def test_r23_quatro_on_a_glance_older_than_the_own_carre_is_not_lost(levels, seats):
    """A bot whose own exchange completes a carré in the same glance as its partner's sign calls Quatro on a
    view that shows no carré of its own yet. It knows what it just did, so it confirms (R23); and a Quatro the
    server still refuses with confirm_own_carre is confirmed and sent again. No bot call is lost (T8)."""
    stale = stale_refused = lost = 0
    for seed in range(1, 9):
        a, b, c = _calls(seed, levels, seats)
        stale, stale_refused, lost = stale + a, stale_refused + b, lost + c
    assert stale, "a Quatro right after the caller's own carré-completing exchange should happen in these games"
    assert stale_refused == 0
    assert lost == 0, f"{lost} refused calls never sent again"


def test_r23_a_quatro_refused_for_the_callers_carre_is_confirmed_and_sent_again():
    """The phone's R23 question, answered: a refused Quatro comes back confirmed, after the confirm beat."""
    game = Game(4, rng=random.Random(3))
    for s in range(4):
        game.apply(Sit(s, SeatKind.BOT, f"P{s}"), 0.0)
    game.apply(StartGame(), 0.0)
    bot = make_bot(0, "normal", random.Random(1))
    bot.observe(state_message(seat_view(game, 0, 0.0), [], table={}), 0.0)
    bot.wake(bot.next_wake() or 0.0)
    ref = "b0.99"
    bot.hands.sent[ref] = (10.0, {"type": "call_quatro", "confirmed": False, "id": ref})
    bot.hands.kinds["call_quatro"] = 1
    bot.policy.calls.decided = True
    bot.observe({"type": "refused", "id": ref, "reason": "confirm_own_carre"}, 10.0)
    sent = []
    while (at := bot.next_wake()) is not None and at < 20.0:
        sent += [(at, m) for m in bot.wake(at)]
    calls = [(t, m) for t, m in sent if m["type"] == "call_quatro"]
    assert len(calls) == 1 and calls[0][1]["confirmed"] is True
    assert calls[0][0] >= 10.0 + 0.7 + 0.5  # seen after a reaction, then the confirm tap


@pytest.mark.parametrize(
    "seed,levels",
    [
        (55, ["newcomer+normal", "normal"]),  # its own swap came after a view of that very instant
        (155, ["easy", "newcomer"]),  # its refused swap's reply was perceived after the pending timeout
    ],
)
def test_r23_t8_a_bot_that_completes_its_carre_beside_its_partners_sign_confirms_its_quatro(seed, levels):
    """Two ladder games in which a bot's Quatro was refused with confirm_own_carre and the round ended before it
    was sent again: the bot had misjudged its own hand. It must know what it holds, so it confirms at once."""
    stale, stale_refused, lost = _calls(seed, levels, 4)
    assert stale_refused == 0
    assert lost == 0, f"{lost} refused calls never sent again"


def _bot_in_play(level: str) -> Any:
    game = Game(4, rng=random.Random(3))
    for s in range(4):
        game.apply(Sit(s, SeatKind.BOT, f"P{s}"), 0.0)
    game.apply(StartGame(), 0.0)  # no person to wait for: the round opens at once (R11)
    bot = make_bot(0, level, random.Random(1))
    bot.observe(state_message(seat_view(game, 0, 0.0), [], table={}), 0.0)
    while (at := bot.next_wake()) is not None and bot.memory.view is None:
        bot.wake(at)
    return bot


def test_r16_a_view_of_the_instant_of_our_swap_that_predates_it_still_counts_our_swap():
    """A view sent for an earlier change of the same instant shows the hand before our exchange: the bot still
    knows what it gave and took."""
    bot = _bot_in_play("normal")
    assert bot.memory.view is not None and bot.memory.view["phase"] == "play"
    hand, centre = bot.memory.view["you"]["hand"], bot.memory.view["centre"]
    give, took = hand[0], centre[1]
    bot.policy.exchanges.moves.clear()  # only this exchange of ours is in flight
    bot.policy.exchanges.moves["b0.50"] = (
        bot.memory.view_at,
        give["id"],
        took,
        1,
    )  # sent at the very time of that view
    mine, middle = bot.policy.exchanges.own_table()
    assert took["id"] in [c["id"] for c in mine] and give["id"] not in [c["id"] for c in mine]
    assert middle[1]["id"] == give["id"]


def test_r16_a_refusal_perceived_after_the_pending_timeout_still_undoes_our_exchange():
    """A slow glance may take longer than the pending timeout to perceive a refusal it already holds: the refused
    exchange must still be known as refused (a bot that believed it would misjudge its own carré, R23)."""
    bot = _bot_in_play("easy")
    hand, centre = bot.memory.view["you"]["hand"], bot.memory.view["centre"]
    t = bot.memory.view_at + 1.0
    msg = bot.policy.exchanges.send(t, hand[0], 1, centre[1])
    bot.observe({"type": "refused", "id": msg["id"], "reason": "card_taken"}, t)
    horizon = t + 10.0
    while (at := bot.next_wake()) is not None and at < horizon:
        bot.wake(at)
    assert msg["id"] not in bot.policy.exchanges.moves
    assert msg["id"] not in bot.hands.sent

"""A truthful record over real sockets: a finished round keeps who played it when a seat is taken over between
rounds (R26, R33), the game's awards count only what happened, and a tie goes to a person over a bot.

Bots here are scripted: one calls Contre when the test says so, the others never act, so every round ends by the
call the test chose.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from quatro_party.protocol import action_message

COUNTS = ("contres", "flashes", "baited", "decoys")


class ScriptedBot:
    """Ready at once, never swaps; the bot on ``caller_seat`` calls Contre on team 0 once ``go`` is set."""

    def __init__(self, seat: int, go: threading.Event, caller_seat: int) -> None:
        self.seat, self.go, self.caller = seat, go, seat == caller_seat
        self.view: dict[str, Any] | None = None
        self.wake_at: float | None = None
        self.called = False

    def observe(self, message: dict[str, Any], now: float) -> None:
        if message.get("type") == "state":
            self.view = message["view"]
            if self.caller and not self.called and self.view.get("phase") == "play":
                self.wake_at = now + 0.05

    def next_wake(self) -> float | None:
        return self.wake_at

    def wake(self, now: float) -> list[dict[str, Any]]:
        self.wake_at = None
        if not self.go.is_set() or self.called or not self.view or self.view.get("phase") != "play":
            return []
        self.called = True
        return [action_message("call_contre", team=0)]


def _results(client: Any, round_: int) -> list[str]:
    """Every distinct ``result`` of round ``round_`` among the raw state frames a socket received."""
    seen: list[str] = []
    for text in client.frames:
        msg = json.loads(text)
        result = msg.get("view", {}).get("result") if msg.get("type") == "state" else None
        if result and result["round"] == round_:
            encoded = json.dumps(result, sort_keys=True, ensure_ascii=False)
            if encoded not in seen:
                seen.append(encoded)
    return seen


def _to_play(phones: list[Any], round_: int) -> None:
    for p in phones:
        p.wait_state(lambda v: v["phase"] == "sign" and v["round"] == round_)
        assert p.act("ready")["type"] == "ok"
    for p in phones:
        p.wait_state(lambda v: v["phase"] == "play")


def test_r26_a_round_keeps_its_players_names_on_every_socket_and_awards_tell_the_truth(live_server_factory):
    go = threading.Event()
    server = live_server_factory(bot_factory=lambda seat, level, rng: ScriptedBot(seat, go, caller_seat=1))
    screen = server.screen()
    watcher = server.screen(host=False)
    ana, chloe = server.phone(), server.phone()
    ana.join(0, "Ana")
    chloe.join(2, "Chloé")
    spectator = server.phone()
    assert spectator.act("watch")["type"] == "ok"
    assert screen.host("start_game")["type"] == "ok"
    _to_play([ana, chloe], 1)
    seats = screen.wait_state(lambda v: v["phase"] == "play")["seats"]
    bot_name = seats[1]["name"]
    assert seats[1]["kind"] == "bot"

    # Round 1: the bot on seat 1 cracks Ana's carré with a right Contre.
    server.table.set_position("AAAA KQJT KQJT KQJT | KQJT")
    go.set()
    view = screen.wait_state(lambda v: v["phase"] == "pause", timeout=5)
    before = view["result"]
    assert (before["end"], before["caller"], before["target"], before["correct"]) == ("contre", 1, 0, True)
    assert before["names"] == ["Ana", bot_name, "Chloé", view["seats"][3]["name"]]
    assert before["kinds"] == ["human", "bot", "human", "bot"]

    # Between rounds a newcomer takes over the bot's seat (R33): the round just played is still the bot's.
    dana = server.phone()
    assert dana.join(1, "Dana")["type"] == "joined"
    for client in (screen, watcher, ana, chloe, spectator, dana):
        view = client.wait_state(lambda v: v["seats"][1]["name"] == "Dana" and v["seats"][1]["kind"] == "human")
        assert view["result"] == before, "the reveal of a finished round was rewritten"
        assert _results(client, 1) == [json.dumps(before, sort_keys=True, ensure_ascii=False)]

    # Round 2: Dana, a person, makes the same right Contre: one each for the bot and for her, a tie.
    assert screen.host("next_round")["type"] == "ok"
    _to_play([ana, chloe, dana], 2)
    server.table.set_position("AAAA KQJT KQJT KQJT | KQJT")
    assert dana.act("call_contre", team=0)["type"] == "ok"
    screen.wait_state(lambda v: v["phase"] == "pause" and v["round"] == 2, timeout=5)
    assert screen.host("end_game")["type"] == "ok"
    over = screen.wait_state(lambda v: v["phase"] == "over", timeout=5)
    assert over["ended_by"] == "host"
    assert [r["names"][1] for r in over["recap"]] == [bot_name, "Dana"]
    awards = {a["award"]: a for a in over["awards"]}
    assert (awards["sharpest_reader"]["name"], awards["sharpest_reader"]["detail"]) == ("Dana", {"contres": 1})
    assert "best_contre" not in awards  # both Contres came before a single flash: guesses, not reads
    for client in (screen, watcher, ana, chloe, spectator, dana):
        client.drain()
        for text in client.frames:
            msg = json.loads(text)
            for award in (msg.get("view") or {}).get("awards") or []:
                zero = [k for k in COUNTS if award["detail"].get(k, 1) < 1]
                assert not zero, f"an award counts zero: {award}"

"""The table's journal through the real server: a restarted host gives each phone its seat and hand back."""

from __future__ import annotations

from typing import Any

import pytest

from quatro_party.engine import SIGNS, seat_view, table_view
from quatro_party.server.journal import read
from quatro_party.server.testing import FakeClock
from tests.server.test_journal import _last_time


def _settle(server: Any, clock: FakeClock, seconds: float, until: Any = None) -> dict[str, Any]:
    """Move the injected clock in half seconds (bots think and act at each step); the table's view at the end."""
    view = server.summary()["view"]
    for _ in range(int(seconds / 0.5)):
        clock.advance(0.5)
        server.table.poke()
        view = server.summary()["view"]  # answered after the poke: that step is done
        if until is not None and until(view):
            break
    return view


def test_a_restarted_host_gives_the_phone_its_seat_and_hand_back_over_real_sockets(live_server_factory, tmp_path):
    path = tmp_path / "table.jsonl"
    clock = FakeClock(1000.0)
    server = live_server_factory(journal=path, clock=clock, seed=None)
    screen = server.screen()
    ana = server.phone()
    ana.join(0, "Ana")
    token = ana.token
    assert screen.host("start_game")["type"] == "ok"  # seats 1–3 get bots
    ana.wait_state(lambda v: v["phase"] == "sign")
    assert ana.act("pick_sign", sign=SIGNS[2])["type"] == "ok"
    assert ana.act("ready")["type"] == "ok"
    assert _settle(server, clock, 31.0, until=lambda v: v["phase"] == "play")["phase"] == "play"
    _settle(server, clock, 3.0)  # the bots play a few moves
    ana.drain(0.3)
    before = ana.state["view"]
    assert before["phase"] == "play" and before["you"]["seat"] == 0 and len(before["you"]["hand"]) == 4
    server.stop()
    assert seat_view(server.table.game, 0, clock())["you"]["hand"] == before["you"]["hand"]
    left = table_view(server.table.game, _last_time(path))["clock"]  # of the round, when the host died

    clock2 = FakeClock(7.0)  # the laptop's clock after the restart: anywhere
    again = live_server_factory(journal=path, clock=clock2, seed=None)
    assert again.table.resumed and "play, round 1" in again.table.resumed
    phone = again.phone(hello=False)
    phone.send({"type": "hello", "token": token})  # what the page does with the token it kept
    joined = phone.expect("joined")
    assert joined["seat"] == 0 and joined["token"] == token
    view = phone.wait_state(lambda v: "you" in v and v["seats"][0]["connected"])
    for key in ("phase", "round", "seats", "teams", "centre", "redeals", "result"):
        assert view[key] == before[key], key
    assert view["you"]["hand"] == before["you"]["hand"] and view["you"]["sign"] == before["you"]["sign"]
    assert view["clock"] == pytest.approx(left, abs=0.01)  # the downtime did not count
    screen = again.screen()
    assert screen.state["table"]["bots"] == {"1": "normal", "2": "normal", "3": "normal"}
    later = _settle(again, clock2, 1.0)  # and the round's clock runs on from there
    assert later["clock"] == pytest.approx(left - 1.0, abs=0.01) and later["round"] == before["round"]


def test_a_corrupted_journal_gives_a_fresh_table_and_a_broken_file(live_server_factory, tmp_path):
    path = tmp_path / "table.jsonl"
    path.write_text('{"quatro_journal":1,"seats":4}\n{"t": 1, "cmd": "Swap"}\nnot json\n{"t": 2, "tick": true}\n')
    server = live_server_factory(journal=path, seats=6)
    screen = server.screen()
    assert screen.state["view"]["phase"] == "lobby" and screen.state["view"]["seat_count"] == 6
    assert (tmp_path / "table.jsonl.broken").exists() and server.table.resumed is None
    ana = server.phone()
    ana.join(0, "Ana")  # the fresh table works, and has its own journal
    server.stop()
    assert read(path)[0]["seats"] == 6

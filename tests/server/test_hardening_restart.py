"""A restart changes no rule outcome: the table comes back held (paused ``by: "restart"``), and once the phones
are back the vote, the picks and the timers are exactly as they stood when the host died (kill -9).

The host is "killed" by abandoning its table: its journal is written line by line straight to the file, so
what a kill -9 leaves on disk is what is there at that moment; the table is never stopped.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from quatro_party.engine import SIGNS, seat_view, table_view
from quatro_party.server.journal import release
from quatro_party.server.resume import RESTART_GRACE
from quatro_party.server.table import Table
from quatro_party.server.testing import FakeClock
from tests.server.test_journal import FakeSocket, _send, _step


def _table(path: Path, clock: FakeClock) -> Table:
    return Table({"clock": clock, "host_secret": "s", "seed": 3, "journal": path})


def _kill(table: Table, path: Path) -> None:
    """As kill -9 would: nothing more is written, the lock goes with the process."""
    journal = table.recorder.journal
    assert journal is not None and journal.waiting == 0
    os.close(journal._fd)
    journal._fd = -1
    table.recorder.journal = None
    if table.recorder.journal_lock is not None:
        table.recorder.journal_lock.release()
        table.recorder.journal_lock = None
    release(path)


def _state(table: Table, now: float) -> dict[str, Any]:
    """The engine's state as the players see it: the table view and every seat's view (floats rounded)."""
    g = table.game
    views = {"table": table_view(g, now), "seats": [seat_view(g, s, now) for s in range(g.seat_count)]}
    return json.loads(json.dumps(views), parse_float=lambda x: round(float(x), 6))


def _four(path: Path) -> tuple[Table, FakeClock, list[FakeSocket]]:
    clock = FakeClock()
    table = _table(path, clock)
    screen = FakeSocket("screen")
    table._on_connect(screen)
    _send(table, screen, type="hello", host="s", id=1)
    phones = []
    for seat in range(4):
        phone = FakeSocket("phone")
        table._on_connect(phone)
        assert _send(table, phone, type="join", seat=seat, name=f"P{seat}", id=1)["type"] == "joined"
        phones.append(phone)
    assert _send(table, screen, type="start_game", id=2)["type"] == "ok"
    return table, clock, phones


def _play(table: Table, clock: FakeClock, phones: list[FakeSocket]) -> None:
    for seat, phone in enumerate(phones):
        _send(table, phone, type="pick_sign", sign=SIGNS[seat], id=2)
        _send(table, phone, type="ready", id=3)
    _step(table)
    assert table.game.phase.value == "play"


def _restart_and_return(
    path: Path, tokens: dict[int, str], away: float = 100.0
) -> tuple[Table, FakeClock, list[FakeSocket]]:
    """A new host on the same journal; the phones stay away ``away`` seconds, then all come back."""
    clock = FakeClock(7.0)  # the restarted host's monotonic clock: anywhere
    table = _table(path, clock)
    assert table.resumed is not None
    assert table.game.paused is not None and table.game.paused.by == "restart"
    held = _state(table, table.clock())
    for _ in range(int(away)):  # nothing moves while the phones are away (within the grace period)
        clock.advance(0.5)
        _step(table)
    assert _state(table, table.clock()) == held
    phones = []
    for seat, token in sorted(tokens.items()):
        phone = FakeSocket("phone")
        table._on_connect(phone)
        assert _send(table, phone, type="hello", token=token, id=1)["type"] == "joined"
        phones.append(phone)
    _step(table)
    assert table.game.paused is None  # every phone is back: the hold lifted by itself
    return table, clock, phones


def test_kill_during_a_reshuffle_vote_keeps_the_vote_and_its_answers(tmp_path):
    path = tmp_path / "table.jsonl"
    table, clock, phones = _four(path)
    _play(table, clock, phones)
    clock.advance(31.0)  # R28: no vote in the round's first 30 s
    _step(table)
    assert _send(table, phones[1], type="request_reshuffle", id=4)["type"] == "ok"
    clock.advance(2.5)
    assert _send(table, phones[2], type="answer_vote", accept=True, id=5)["type"] == "ok"
    clock.advance(1.25)
    _step(table)
    before = _state(table, table.clock())
    assert before["table"]["reshuffle"]["vote"] is not None
    tokens = dict(table.seats.tokens.by_seat)
    _kill(table, path)

    again, _, _ = _restart_and_return(path, tokens)
    after = _state(again, again.clock())
    assert after == before
    assert not after["table"]["reshuffle"]["done"]  # nobody but two players accepted: nothing reshuffled
    again.stop()


def test_kill_during_the_sign_phase_keeps_the_picks_and_its_time(tmp_path):
    path = tmp_path / "table.jsonl"
    table, clock, phones = _four(path)
    _send(table, phones[0], type="pick_sign", sign=SIGNS[4], id=2)
    _send(table, phones[0], type="ready", id=3)
    clock.advance(12.0)
    _step(table)
    before = _state(table, table.clock())
    # a game's first sign phase lasts 60 s
    assert before["table"]["phase"] == "sign" and before["table"]["clock"] == pytest.approx(48.0)
    tokens = dict(table.seats.tokens.by_seat)
    _kill(table, path)

    again, _, back = _restart_and_return(path, tokens, away=50.0)  # longer than what was left of the phase
    assert _state(again, again.clock()) == before
    # The other team still picks its own sign: the phase did not open on a random one.
    assert _send(again, back[1], type="pick_sign", sign=SIGNS[9], id=2)["type"] == "ok"
    assert not _state(again, again.clock())["table"]["teams"][1]["random_sign"]
    again.stop()


def test_kill_during_the_pause_between_rounds_keeps_its_time(tmp_path):
    path = tmp_path / "table.jsonl"
    table, clock, phones = _four(path)
    _play(table, clock, phones)
    for _ in range(365):  # R32: nobody calls, the round is void after 180 s; then the pause between rounds
        clock.advance(0.5)
        _step(table)
        if table.game.phase.value == "pause":
            break
    assert table.game.phase.value == "pause"
    clock.advance(4.0)
    _step(table)
    before = _state(table, table.clock())
    tokens = dict(table.seats.tokens.by_seat)
    _kill(table, path)
    again, _, _ = _restart_and_return(path, tokens)
    assert _state(again, again.clock()) == before
    again.stop()


def test_phones_that_do_not_come_back_get_the_usual_rules_after_the_grace_period(tmp_path):
    path = tmp_path / "table.jsonl"
    table, clock, phones = _four(path)
    _play(table, clock, phones)
    tokens = dict(table.seats.tokens.by_seat)
    _kill(table, path)
    clock2 = FakeClock(7.0)
    again = _table(path, clock2)
    phone = FakeSocket("phone")
    again._on_connect(phone)
    assert _send(again, phone, type="hello", token=tokens[0], id=1)["type"] == "joined"
    clock2.advance(RESTART_GRACE - 1.0)
    _step(again)
    assert again.game.paused is not None  # three phones still away: held
    clock2.advance(1.5)
    _step(again)
    assert again.game.paused is None and again._sleep_for() is not None
    again.stop()


# --- the real thing: kill -9 of the launcher ----------------------------------------------------------


def _launch(state: Path, port: int) -> Any:
    import re
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "-m", "quatro_party.launch", "--port", str(port), "--bind", "127.0.0.1", "--no-browser"]
        + ["--no-mdns", "--seed", "3", "--time-scale", "0.25"],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root), "QUATRO_STATE_DIR": str(state)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    out = ""
    assert proc.stdout is not None
    for line in proc.stdout:
        out += line
        if line.startswith("Port "):
            break
    return proc, re.search(r"/screen#host=(\S+)", out).group(1)


@pytest.mark.slow
def test_kill_9_of_the_host_during_a_vote_passes_nothing(tmp_path):
    import signal
    import socket as socket_module
    import time

    from quatro_party.server.testing import WsClient

    with socket_module.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc, secret = _launch(tmp_path, port)
    url = f"ws://127.0.0.1:{port}"
    try:
        screen = WsClient(url + "/ws/screen")
        screen.send({"type": "hello", "host": secret})
        screen.expect("state")
        phones = []
        for seat in range(4):
            phone = WsClient(url + "/ws/phone")
            phone.hello()
            phone.join(seat, f"P{seat}")
            phones.append(phone)
        assert screen.host("start_game")["type"] == "ok"
        for seat, phone in enumerate(phones):
            phone.act("pick_sign", sign=SIGNS[seat])
            phone.act("ready")
        screen.wait_state(lambda v: v["phase"] == "play")
        time.sleep(7.8)  # R28's 30 s before a vote, at time scale 0.25 (the vote then lasts 5 s)
        assert phones[1].act("request_reshuffle")["type"] == "ok"
        assert phones[2].act("answer_vote", accept=True)["type"] == "ok"
        before = screen.wait_state(lambda v: bool(v["reshuffle"]["vote"] and v["reshuffle"]["vote"]["accepted"]))
        time.sleep(1.2)  # a journal beat
        tokens = [p.token for p in phones]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(5)
        for c in phones + [screen]:
            c.close()
        time.sleep(1.0)
        proc, secret = _launch(tmp_path, port)
        screen = WsClient(url + "/ws/screen")
        screen.send({"type": "hello", "host": secret})
        held = screen.expect("state")["view"]
        assert held["paused"] == {"by": "restart"} and not held["reshuffle"]["done"]
        time.sleep(1.0)  # the phones take their time coming back: nothing moves
        for token in tokens:
            WsClient(url + "/ws/phone").hello(token)
        after = screen.wait_state(lambda v: v["paused"] is None and all(s["connected"] for s in v["seats"]))
        vote, was = after["reshuffle"]["vote"], before["reshuffle"]["vote"]
        assert not after["reshuffle"]["done"] and vote is not None
        assert {k: v for k, v in vote.items() if k != "left"} == {k: v for k, v in was.items() if k != "left"}
        assert was["left"] - 2.0 <= vote["left"] <= was["left"]  # its time as it stood, within a journal beat
    finally:
        proc.kill()
        proc.wait(5)

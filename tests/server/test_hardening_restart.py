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
    journal = table.journal
    assert journal is not None and journal.waiting == 0
    os.close(journal._fd)
    journal._fd = -1
    table.journal = None
    if table._journal_lock is not None:
        os.close(table._journal_lock)
        table._journal_lock = None
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
    tokens = dict(table.seat_tokens)
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
    assert before["table"]["phase"] == "sign" and before["table"]["clock"] == pytest.approx(18.0)
    tokens = dict(table.seat_tokens)
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
    tokens = dict(table.seat_tokens)
    _kill(table, path)
    again, _, _ = _restart_and_return(path, tokens)
    assert _state(again, again.clock()) == before
    again.stop()


def test_phones_that_do_not_come_back_get_the_usual_rules_after_the_grace_period(tmp_path):
    path = tmp_path / "table.jsonl"
    table, clock, phones = _four(path)
    _play(table, clock, phones)
    tokens = dict(table.seat_tokens)
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

"""The journal is never thrown away: a full disk, a damaged line, a blank line, a wild time.

The full disk is a real one: a 64 KiB tmpfs mounted in a private mount namespace (``unshare -rm``, no
root needed where user namespaces are allowed), so the kernel itself answers ``ENOSPC``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from quatro_party.engine import seat_view, table_view
from quatro_party.server.botstub import make_bot as make_stub
from quatro_party.server.journal import REST_SUFFIX, Journal, read
from quatro_party.server.table import Table
from quatro_party.server.testing import FakeClock

ROOT = Path(__file__).resolve().parents[2]


def _step(table: Table) -> None:
    table._tick()
    table.outbox.flush()
    table._wake_bots()
    table.outbox.flush()
    table.outbox.deliver()


def _fingerprint(table: Table, now: float) -> dict[str, Any]:
    g = table.game
    return {
        "table_view": table_view(g, now),
        "seat_views": [seat_view(g, s, now) for s in range(g.seat_count)],
        "position": g.position(),
        "scores": g.scores(),
        "round": g.round,
        "phase": g.phase,
        "tokens": dict(table.seats.tokens.by_token),
        "bots": {s: level for s, (level, _, _) in table.bots.items()},
    }


def _play(path: Path, seconds: int, seed: int = 5) -> tuple[Table, FakeClock]:
    clock = FakeClock()
    table = Table({"clock": clock, "host_secret": "s", "seed": seed, "journal": path, "bot_factory": make_stub})
    table.host.start_game()  # four stub bots: straight into play
    for _ in range(seconds * 2):
        clock.advance(0.5)
        _step(table)
        if table.game.phase.value == "pause":
            table.host.next_round()
    return table, clock


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def test_a_damaged_middle_line_resumes_the_table_up_to_it_and_keeps_the_rest_aside(tmp_path):
    path = tmp_path / "table.jsonl"
    table, _ = _play(path, 150)
    table.stop()
    lines = _lines(path)
    cut = len(lines) * 3 // 4
    assert cut > 10 and json.loads(lines[cut - 1])["t"] > 1001.0  # mid-game
    # The table as it stood at line `cut`: replay a copy that ends there.
    reference = tmp_path / "ref" / "table.jsonl"
    reference.parent.mkdir()
    reference.write_text("".join(line + "\n" for line in lines[:cut]))
    ref = Table({"host_secret": "s", "journal": reference, "bot_factory": make_stub})
    expected = _fingerprint(ref, ref.resumed_at)
    ref.stop()

    damaged = (
        lines[:cut] + [lines[cut][:-9] + "\x00" + lines[cut][-8:]] + lines[cut + 1 :]
    )  # one flipped byte's worth of damage
    path.write_text("".join(line + "\n" for line in damaged))
    resumed = Table({"host_secret": "s", "journal": path, "bot_factory": make_stub})
    assert resumed.resumed is not None and not (tmp_path / "table.jsonl.broken").exists()
    assert _fingerprint(resumed, resumed.resumed_at) == expected
    rest = (tmp_path / ("table.jsonl" + REST_SUFFIX)).read_text().splitlines()
    assert rest == damaged[cut:]  # nothing written is thrown away
    resumed.stop()
    assert _lines(path)[:cut] == lines[:cut]  # and the journal goes on after its good part


def test_blank_lines_anywhere_are_skipped(tmp_path):
    path = tmp_path / "table.jsonl"
    table, _ = _play(path, 8)
    expected = _fingerprint(table, table.clock())
    table.stop()
    lines = _lines(path)
    with_blanks = lines[:3] + ["", "   "] + lines[3:] + ["", ""]
    path.write_text("".join(line + "\n" for line in with_blanks))
    header, entries, _ = read(path)
    assert len(entries) == len(lines) - 1
    resumed = Table({"host_secret": "s", "journal": path, "bot_factory": make_stub})
    assert resumed.resumed is not None
    got = _fingerprint(resumed, resumed.resumed_at)
    assert got["position"] == expected["position"] and got["round"] == expected["round"]
    resumed.stop()


@pytest.mark.parametrize("t", [1e9, -1e9, 1e308])
def test_a_line_whose_time_jumps_is_refused_and_the_table_resumes_before_it(tmp_path, t):
    path = tmp_path / "table.jsonl"
    table, _ = _play(path, 8)
    table.stop()
    lines = _lines(path)
    good = len(lines)
    lines.append(json.dumps({"t": t, "tick": True, "n": 0}))
    lines.append(lines[-2])  # a good-looking line after it is not replayed either
    path.write_text("".join(line + "\n" for line in lines))
    started = time.monotonic()
    resumed = Table({"host_secret": "s", "journal": path, "bot_factory": make_stub})
    took = time.monotonic() - started
    assert resumed.resumed is not None and resumed.resumed_at < 1e6
    print(f"resume with a {t!r} line: {took * 1000:.0f} ms")
    resumed.stop()
    assert len(_lines(path)) >= good and json.loads(_lines(path)[good - 1]) == json.loads(lines[good - 1])


def test_a_failed_write_leaves_no_half_line_and_is_written_again_with_the_next_one(tmp_path):
    """The same as the full disk below, with the file descriptor swapped for one that refuses writes."""
    path = tmp_path / "table.jsonl"
    journal = Journal.create(path, {"seats": 4, "seed": 1, "timing": {}, "settings": {}, "t": 0.0})
    seen: list[str | None] = []
    journal.on_failure = seen.append
    journal.write({"t": 1.0, "tick": True, "n": 0})
    real = journal._fd
    journal._fd = os.open(os.devnull, os.O_RDONLY)  # every write now fails (EBADF)
    journal.write({"t": 2.0, "tick": True, "n": 1})
    journal.write({"t": 3.0, "tick": True, "n": 2})
    assert journal.failure is not None and journal.waiting == 2 and seen == [journal.failure]
    os.close(journal._fd)
    journal._fd = real
    journal.write({"t": 4.0, "tick": True, "n": 3})
    assert journal.failure is None and journal.waiting == 0 and seen[-1] is None
    journal.close()
    assert [e["t"] for e in read(path)[1]] == [1.0, 2.0, 3.0, 4.0]


# --- a real full disk ---------------------------------------------------------------------

_CHILD = textwrap.dedent(
    r"""
    import json, os, sys
    sys.path.insert(0, sys.argv[2])
    from tests.server.test_hardening_journal import _fingerprint, _step
    from quatro_party.server.botstub import make_bot as make_stub
    from quatro_party.server.table import Table
    from quatro_party.server.testing import FakeClock

    state = sys.argv[1]
    path = os.path.join(state, "table.jsonl")
    filler = os.path.join(state, "filler")
    with open(filler, "wb") as f:
        f.write(b"x" * (48 * 1024))  # leaves 16 KiB of the 64 KiB for the journal
    clock = FakeClock()
    warnings = []
    table = Table({"clock": clock, "host_secret": "s", "seed": 5, "journal": path, "bot_factory": make_stub})
    table.recorder.journal.on_failure = warnings.append
    table.host.start_game()
    steps = 0
    while table.recorder.journal.failure is None and steps < 20000:
        clock.advance(0.5)
        _step(table)
        if table.game.phase.value == "pause":
            table.host.next_round()
        steps += 1
    assert table.recorder.journal is not None, "the journal was thrown away"
    from quatro_party.server.connection import Connection
    tv = table._public(Connection("screen"))  # what the big screen's next state says
    on_disk = os.path.getsize(path)
    lines_on_disk = len(open(path).read().splitlines())
    for _ in range(20):  # the game goes on with the disk full
        clock.advance(0.5)
        _step(table)
        if table.game.phase.value == "pause":
            table.host.next_round()
    waiting = table.recorder.journal.waiting
    # A host killed now restarts from what the disk holds (a copy, on another disk): everything up to the fill.
    import shutil
    copy = os.path.join(sys.argv[3], "table.jsonl")
    shutil.copy(path, copy)
    early = Table({"host_secret": "s", "journal": copy, "bot_factory": make_stub})
    early_lines = len(open(copy).read().splitlines())
    early.stop()
    # Space again: the next line takes every waiting one with it.
    os.unlink(filler)
    for _ in range(2000):
        clock.advance(0.5)
        _step(table)
        if table.game.phase.value == "pause":
            table.host.next_round()
        if table.recorder.journal.failure is None:
            break
    after = table.recorder.journal.failure
    expected = _fingerprint(table, clock())
    now = clock()
    table.stop()
    again = Table({"host_secret": "s", "journal": path, "bot_factory": make_stub})
    same = _fingerprint(again, now) == expected
    again.stop()
    print(json.dumps({
        "steps": steps, "on_disk": on_disk, "lines_on_disk": lines_on_disk, "waiting": waiting,
        "warnings": warnings, "after": after, "same": same, "early_resumed": early.resumed is not None,
        "early_lines": early_lines, "broken": os.path.exists(path + ".broken"),
        "tv": [tv["warning"], tv["journal_error"]],
    }))
    """
)


@pytest.mark.slow
def test_a_state_dir_of_64_kib_that_fills_up_mid_game_loses_nothing(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    script = tmp_path / "child.py"
    script.write_text(_CHILD)
    cmd = (
        f"mount -t tmpfs -o size=64k tmpfs {state} && "
        f"{sys.executable} {script} {state} {ROOT} {tmp_path} && df -k {state} >&2"
    )
    done = subprocess.run(["unshare", "-rm", "sh", "-c", cmd], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    print(out)
    assert out["warnings"][0] == "disk full" and out["warnings"][-1] is None  # said, then cleared
    assert out["tv"] == ["journal", "disk full"]  # on the big screen: "cannot save the game: disk full"
    assert out["waiting"] > 0 and out["on_disk"] > 12 * 1024  # the disk did fill, mid-game
    assert out["early_resumed"] and out["early_lines"] == out["lines_on_disk"]  # a restart then: all it had
    assert out["after"] is None and out["same"] and not out["broken"]  # and once space is back, nothing lost


def test_the_big_screen_is_told_when_the_journal_cannot_be_written(tmp_path):
    """table.warning: "journal" (and why) on screens while lines wait in memory; gone once they are written."""
    from tests.server.test_journal import FakeSocket, _send

    path = tmp_path / "table.jsonl"
    table, clock = _play(path, 2)
    screen = FakeSocket("screen")
    table._on_connect(screen)
    assert _send(table, screen, type="hello", host="s", id=1)["type"] == "host_key"
    first = screen.got[-1]
    assert first["table"]["warning"] is None and first["table"]["journal_error"] is None
    real = table.recorder.journal._fd
    table.recorder.journal._fd = os.open(os.devnull, os.O_RDONLY)  # the disk refuses every write from now on
    clock.advance(1.5)
    _step(table)
    assert table.recorder.journal.failure is not None
    told = [m for m in screen.got if m.get("type") == "state"][-1]["table"]
    assert told["warning"] == "journal" and told["journal_error"] == table.recorder.journal.failure
    os.close(table.recorder.journal._fd)
    table.recorder.journal._fd = real
    clock.advance(1.5)
    _step(table)
    assert [m for m in screen.got if m.get("type") == "state"][-1]["table"]["warning"] is None
    table.stop()


def test_the_journal_is_compacted_at_each_round_end_and_resumes_the_same_table(tmp_path):
    path = tmp_path / "table.jsonl"
    clock = FakeClock()
    table = Table({"clock": clock, "host_secret": "s", "seed": 5, "journal": path, "bot_factory": make_stub})
    table.host.start_game()
    sizes, rounds = [], set()
    for _ in range(4 * 2 * 230):  # four rounds of stub bots (never calling: each round is void after 180 s)
        clock.advance(0.5)
        _step(table)
        if table.game.phase.value == "pause":
            rounds.add(table.game.round)
            sizes.append(path.stat().st_size)
            table.host.next_round()
    assert len(rounds) >= 3
    header, entries, _ = read(path)
    assert "snapshot" in entries[0] and sum("snapshot" in e for e in entries) == 1
    assert max(sizes) < 20_000  # one round's worth at most, not the evening's
    expected = _fingerprint(table, clock())
    now = clock()
    table.stop()
    again = Table({"host_secret": "s", "journal": path, "bot_factory": make_stub})
    assert again.resumed is not None
    again.hold.check()  # (held for no phone: four bots)
    assert _fingerprint(again, now) == expected
    again.stop()

"""The journal on a Windows host (emulated: see ``windows_files.py``): a restarted host resumes its table there too.

Windows' C runtime opens files in text mode unless told otherwise, and Windows renames nothing over a file that
is open; the journal counts bytes and compacts by renaming, so both would cost a Windows host its table.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from filelock import FileLock

from quatro_party.engine import Resume
from quatro_party.server.botstub import make_bot as make_stub
from quatro_party.server.journal import COMPACTED_SUFFIX, lock, read
from quatro_party.server.testing import FakeClock
from quatro_party.server.testing import TestingTable as Table
from tests.server.test_journal import FakeSocket, _fingerprint, _send, _step
from tests.server.windows_files import WindowsFiles


def _evening(path: Path, seconds: float, pause_at_round_end: bool = False) -> tuple[Table, FakeClock, FakeSocket]:
    """A table with a phone on seat 3 and three stub bots, played ``seconds`` on the injected clock."""
    clock = FakeClock()
    config = {"clock": clock, "host_secret": "s", "seed": 4, "journal": path, "bot_factory": make_stub}
    table = Table(config)
    phone = FakeSocket("phone")
    table._on_connect(phone)
    assert _send(table, phone, type="join", seat=3, name="Bo", id=1)["type"] == "joined"
    table.host.start_game()
    for _ in range(int(seconds * 2)):
        clock.advance(0.5)
        _step(table)
        if pause_at_round_end and table.game.phase.value == "pause":
            break
    table._on_disconnect(phone)  # the phone's socket goes with the host
    return table, clock, phone


def _resumed(path: Path, clock: FakeClock) -> Table:
    again = Table({"clock": clock, "host_secret": "s", "journal": path, "bot_factory": make_stub})
    assert again.resumed is not None, "the table was not resumed"
    return again


def _assert_same(again: Table, expected: dict[str, object], clock: FakeClock) -> None:
    """The resumed table is the one that stopped (once the host lifts the restart's hold: Bo's phone is away)."""
    if again.game.paused is not None:
        again.referee.apply(Resume())
    got = _fingerprint(again, clock())
    assert got.pop("now") == pytest.approx(expected.pop("now"), abs=1e-5)
    assert got == expected


def test_a_journal_written_where_the_c_runtime_translates_newlines_still_replays(tmp_path, monkeypatch):
    """Before the fix every ``\\n`` reached the disk as ``\\r\\n`` while the journal counted one byte: lines ran
    together, the replay failed ("Extra data") and the table was set aside as broken."""
    windows = WindowsFiles(monkeypatch, tmp_path)
    path = tmp_path / "table.jsonl"
    table, clock, _ = _evening(path, 60)
    assert table.game.phase.value == "play"
    table.stop()
    assert b"\r" not in path.read_bytes()  # written in binary mode
    assert not windows.text_fds and not (tmp_path / "table.jsonl.broken").exists()
    second = _resumed(path, clock)
    assert second.game.position() == table.game.position() and second.seats.tokens.by_seat == table.seats.tokens.by_seat
    clock.advance(2.0)
    _step(second)
    second.stop()
    third = _resumed(path, clock)  # the second run's lines were appended where they belong
    assert third.game.position() == second.game.position()
    third.stop()


def test_a_journal_with_crlf_line_ends_replays_and_goes_on(tmp_path):
    """As an older Windows build (text mode) or an editor may leave it."""
    path = tmp_path / "table.jsonl"
    table, clock, _ = _evening(path, 60)
    table.stop()
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    again = _resumed(path, clock)
    _assert_same(again, _fingerprint(table, clock()), clock)
    clock.advance(1.0)
    _step(again)
    expected = _fingerprint(again, clock())
    again.stop()
    header, entries, length = read(path)
    assert length == path.stat().st_size and not (tmp_path / "table.jsonl.rest").exists()
    _assert_same(_resumed(path, clock), expected, clock)


@pytest.mark.parametrize("held_elsewhere", [False, True], ids=["only-ours", "another-program-holds-it"])
def test_the_journal_is_compacted_where_an_open_file_cannot_be_renamed_over(tmp_path, monkeypatch, held_elsewhere):
    """Windows refuses to rename over an open file: our own handle (closed first now), or another program's (an
    editor, a backup tool, an antivirus scan: then the compacted journal is copied over it in place)."""
    windows = WindowsFiles(monkeypatch, tmp_path)
    path = tmp_path / "table.jsonl"
    if held_elsewhere:
        windows.hold_open(path)
    table, clock, _ = _evening(path, 400, pause_at_round_end=True)
    assert table.game.phase.value == "pause"
    entries = read(path)[1]
    assert "snapshot" in entries[0], "the journal was not compacted"
    assert not (tmp_path / ("table.jsonl" + COMPACTED_SUFFIX)).exists()
    assert not (tmp_path / "table.jsonl.tmp").exists()
    assert bool(windows.refused) == held_elsewhere  # with our handle closed first, nothing was refused
    table.host.next_round()
    for _ in range(20):
        clock.advance(0.5)
        _step(table)
    expected = _fingerprint(table, clock())
    table.stop()
    again = _resumed(path, clock)
    _assert_same(again, expected, clock)
    again.stop()


def test_a_copy_in_place_cut_short_by_a_crash_is_finished_by_the_next_host(tmp_path):
    path = tmp_path / "table.jsonl"
    table, clock, _ = _evening(path, 400, pause_at_round_end=True)
    expected = _fingerprint(table, clock())
    table.stop()
    compacted = path.read_bytes()
    waiting = tmp_path / ("table.jsonl" + COMPACTED_SUFFIX)
    # The crash came halfway through copying the compacted journal over the old, longer one.
    waiting.write_bytes(compacted)
    path.write_bytes(compacted[: len(compacted) // 2] + b"x" * len(compacted))
    again = _resumed(path, clock)
    assert path.read_bytes().startswith(compacted) and not waiting.exists()
    _assert_same(again, expected, clock)
    again.stop()
    # The crash came after the copy and the lines that followed it, before the compacted journal was removed:
    # nothing is undone (the journal begins with it).
    after = compacted + b'{"t":%.3f,"tick":true,"n":0}\n' % (read(path)[0]["t"] + 1.0)
    path.write_bytes(after)
    waiting.write_bytes(compacted)
    held = lock(path)
    assert held is not None
    held.release()
    assert path.read_bytes() == after and not waiting.exists()


def test_a_second_host_is_refused_through_the_librarys_lock(tmp_path):
    """The lock is filelock's (flock on Unix, LockFileEx on Windows): any process holding it keeps a table away."""
    path = tmp_path / "table.jsonl"
    other = FileLock(tmp_path / "table.jsonl.lock", timeout=0)
    other.acquire()
    try:
        table = Table({"host_secret": "s", "journal": path, "bot_factory": make_stub})
        assert table.recorder.journal is None and not path.exists()  # this table keeps none, the other's is untouched
        table.stop()
    finally:
        other.release()
    mine = lock(path)
    assert mine is not None
    try:
        with pytest.raises(TimeoutError):  # filelock.Timeout is a TimeoutError
            FileLock(tmp_path / "table.jsonl.lock", timeout=0).acquire()
    finally:
        mine.release()

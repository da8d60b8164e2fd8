"""The table's journal: what a restarted host resumes from (seats, tokens, bots, settings, the round in play)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from quatro_party.engine import (
    SIGNS,
    AnswerVote,
    CallContre,
    CallQuatro,
    ChooseEmoji,
    EndGame,
    NewGame,
    Pause,
    PickSign,
    Ready,
    ReleaseChannel,
    RequestReshuffle,
    Resume,
    SeatKind,
    SetConnected,
    SetSeatCount,
    Settings,
    Sit,
    StartGame,
    StartNextRound,
    StartPractice,
    Swap,
    TakeChannel,
    seat_view,
    table_view,
)
from quatro_party.server.botstub import make_bot as make_stub
from quatro_party.server.connection import Connection
from quatro_party.server.journal import (
    COMMANDS,
    FORMAT,
    Journal,
    JournalError,
    command_entry,
    command_from,
    encode_line,
    lock,
    read,
)
from quatro_party.server.table import RESUME_EPSILON
from quatro_party.server.testing import FakeClock
from quatro_party.server.testing import TestingTable as Table


class FakeSocket(Connection):
    """A phone or screen without a network: the table's frames are kept, decoded."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind, None, peer=f"fake-{kind}")
        self.got: list[dict[str, Any]] = []

    def send_text(self, text: str) -> None:
        self.got.append(json.loads(text))


# --- the file ------------------------------------------------------------------------


EXAMPLES = [
    PickSign(1, SIGNS[3]),
    Ready(2),
    Swap(0, 5, 2, 17),
    TakeChannel(3),
    ReleaseChannel(3),
    ChooseEmoji(1, SIGNS[0]),
    CallQuatro(2, True),
    CallContre(0, 1),
    CallContre(0),
    RequestReshuffle(1),
    AnswerVote(3, False),
    SetSeatCount(6),
    Sit(4, SeatKind.BOT, "Bot Eno"),
    Sit(1, SeatKind.EMPTY),
    Sit(0, SeatKind.HUMAN, "Zoé 🦊"),
    SetConnected(2, False),
    StartGame(),
    StartNextRound(),
    NewGame(),
    StartPractice(),
    EndGame(),
    Settings(winning_score=7, timer_factor=1.5),
    Settings(),
    Pause(),
    Pause(by="restart"),
    Resume(),
]


def test_every_command_class_round_trips_through_a_journal_line():
    assert {type(c) for c in EXAMPLES} == set(COMMANDS.values())  # a new command needs an example here
    for command in EXAMPLES:
        line = json.dumps(command_entry(command))
        back = command_from(json.loads(line))
        assert back == command and type(back) is type(command)
    assert command_entry(Sit(4, SeatKind.BOT, "B"))["f"] == {"seat": 4, "kind": "bot", "name": "B"}  # the value
    with pytest.raises(JournalError):
        command_from({"cmd": "Shuffle", "f": {}})
    with pytest.raises(JournalError):
        command_from({"cmd": "Swap", "f": {"seat": 0}})
    with pytest.raises(TypeError):
        command_entry(object())


def _journal(path: Path, lines: int = 3) -> Journal:
    journal = Journal.create(path, {"seats": 4, "seed": 7, "timing": {}, "settings": {}, "t": 0.0})
    for i in range(lines):
        journal.write({"t": float(i), **command_entry(Ready(i % 4)), "r": None, "n": 1})
    return journal


def test_the_file_is_created_readable_by_its_user_only(tmp_path):
    old = os.umask(0o022)
    try:
        _journal(tmp_path / "table.jsonl").close()
        assert stat.S_IMODE((tmp_path / "table.jsonl").stat().st_mode) == 0o600
        os.chmod(tmp_path / "table.jsonl", 0o644)  # even a file someone loosened goes back to 0600
        Journal.reopen(tmp_path / "table.jsonl", (tmp_path / "table.jsonl").stat().st_size).close()
        assert stat.S_IMODE((tmp_path / "table.jsonl").stat().st_mode) == 0o600
        Journal.create(tmp_path / "table.jsonl", {}).close()
        assert stat.S_IMODE((tmp_path / "table.jsonl").stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_a_line_torn_by_a_crash_is_dropped_and_appending_goes_on_after_the_last_good_line(tmp_path):
    path = tmp_path / "table.jsonl"
    _journal(path).close()
    good = path.stat().st_size
    with open(path, "a") as f:
        f.write('{"t": 3.0, "cmd": "Rea')  # the crash came mid-write
    header, entries, length = read(path)
    assert header["seed"] == 7 and [e["t"] for e in entries] == [0.0, 1.0, 2.0] and length == good
    journal = Journal.reopen(path, length)
    journal.write({"t": 4.0, "tick": True, "n": 0})
    journal.close()
    assert [e["t"] for e in read(path)[1]] == [0.0, 1.0, 2.0, 4.0]
    # A complete last line that lost only its newline is kept, and the next line goes after it.
    path.write_bytes(path.read_bytes()[:-1])
    header, entries, length = read(path)
    assert len(entries) == 4 and length == path.stat().st_size
    journal = Journal.reopen(path, length)
    journal.write({"t": 5.0, "revoke": 1})
    journal.close()
    assert [e["t"] for e in read(path)[1]] == [0.0, 1.0, 2.0, 4.0, 5.0]


@pytest.mark.parametrize("damage", ["header", "format", "empty"])
def test_a_journal_without_a_usable_header_is_an_error(tmp_path, damage):
    path = tmp_path / "table.jsonl"
    _journal(path).close()
    lines = path.read_text().splitlines()
    if damage == "header":
        lines[0] = "not json"
    elif damage == "format":
        lines[0] = _reseal(lines[0].replace(f'"quatro_journal":{FORMAT}', '"quatro_journal":99'))
    else:
        lines = []
    path.write_text("".join(line + "\n" for line in lines))
    with pytest.raises(JournalError):
        read(path)


@pytest.mark.parametrize("damage", ["middle", "kind"])
def test_damage_in_the_middle_keeps_every_line_before_it(tmp_path, damage):
    path = tmp_path / "table.jsonl"
    _journal(path).close()
    lines = path.read_text().splitlines()
    if damage == "middle":
        lines[2] = lines[2][:-5]
    else:
        lines[2] = '{"t":1.0,"tick":true,"revoke":1}'
    path.write_text("".join(line + "\n" for line in lines))
    header, entries, length = read(path)
    assert [e["t"] for e in entries] == [0.0] and length == len(lines[0]) + len(lines[1]) + 2


def test_a_second_host_cannot_take_the_journal_of_a_running_one(tmp_path):
    first = lock(tmp_path / "table.jsonl")
    assert first is not None
    try:
        assert lock(tmp_path / "table.jsonl") is None
    finally:
        first.release()
    again = lock(tmp_path / "table.jsonl")
    assert again is not None
    again.release()


# --- a table and its resumed twin ------------------------------------------------------


def _step(table: Table) -> None:
    """One pass of the table thread's loop (without its queue): deadlines, views, bots."""
    table._tick()
    table.outbox.flush()
    table._wake_bots()
    table.outbox.flush()
    table.outbox.deliver()


def _entry(line: str) -> dict[str, Any]:
    """A journal line as its entry (without its checksum)."""
    entry = json.loads(line)
    entry.pop("crc", None)
    return entry


def _reseal(line: str) -> str:
    """A line changed on purpose, with its checksum made right again (a line that reads well but replays badly)."""
    return encode_line(_entry(line)).decode("ascii").rstrip("\n")


def _send(table: Table, conn: FakeSocket, **msg: Any) -> dict[str, Any]:
    before = len(conn.got)
    table._on_message(conn, json.dumps(msg))
    table.outbox.deliver()
    return conn.got[before] if len(conn.got) > before else {}


def _fingerprint(table: Table, now: float) -> dict[str, Any]:
    g = table.game
    return {
        "table_view": table_view(g, now),
        "seat_views": [seat_view(g, s, now) for s in range(g.seat_count)],
        "position": g.position(),
        "scores": g.scores(),
        "round": g.round,
        "phase": g.phase,
        "now": g.now,
        "next_deadline": g.next_deadline(),
        "tokens": dict(table.seats.tokens.by_token),
        "seat_tokens": dict(table.seats.tokens.by_seat),
        "bots": {s: level for s, (level, _, _) in table.bots.items()},
        "settings": dict(table.host.settings),
    }


def _last_time(path: Path) -> float:
    header, entries, _ = read(path)
    return max([header["t"]] + [e["t"] for e in entries])


def test_a_table_resumed_from_its_journal_is_the_same_table_and_its_clock_goes_on(tmp_path):
    path = tmp_path / "table.jsonl"
    clock = FakeClock(1000.0)
    config = {"clock": clock, "host_secret": "s", "journal": path}  # no seed: one is drawn and journaled
    table = Table(config)
    assert table.bots.seed is None and isinstance(read(path)[0]["seed"], int)
    phone, screen = FakeSocket("phone"), FakeSocket("screen")
    for conn in (phone, screen):
        table._on_connect(conn)
    _send(table, screen, type="hello", host="s", id=1)
    assert _send(table, phone, type="join", seat=0, name="Ana", id=1)["type"] == "joined"
    assert _send(table, screen, type="settings", bot_level="hard", id=2)["type"] == "ok"
    assert _send(table, screen, type="add_bot", seat=1, level="easy", id=3)["type"] == "ok"
    assert _send(table, screen, type="add_bot", seat=2, id=4)["type"] == "ok"
    assert _send(table, screen, type="remove_bot", seat=2, id=5)["type"] == "ok"
    assert _send(table, screen, type="start_game", id=6)["type"] == "ok"  # seats 2 and 3 get hard bots
    _step(table)
    assert _send(table, phone, type="pick_sign", sign=SIGNS[5], id=2)["type"] == "ok"
    # Ana never says ready: the sign phase ends on its deadline (a tick), then the bots play.
    for _ in range(180):  # 45 s in quarter seconds
        clock.advance(0.25)
        _step(table)
    assert _send(table, phone, type="swap", card=999, place=0, expected=0, id=4)["type"] == "refused"
    table._on_disconnect(phone)  # the phone's socket went with the host
    assert table.game.round >= 1 and table.bots
    before = _fingerprint(table, clock())
    last = _last_time(path)
    assert last > 1030.0
    table.stop()  # never started: closes its journal
    entries = read(path)[1]
    if "snapshot" not in entries[0]:  # (a round that ended was compacted into a snapshot of the game)
        assert {"Sit", "StartGame", "PickSign", "Swap"} <= {e["cmd"] for e in entries if "cmd" in e}
        assert any("tick" in e for e in entries) and any(e.get("r") for e in entries)  # deadlines, refusals

    clock2 = FakeClock(5.0)  # the restarted host's monotonic clock starts anywhere
    resumed = Table({**config, "clock": clock2, "seats": 6, "seed": 3, "bot_level": "easy"})
    assert resumed.resumed is not None and f"round {table.game.round}" in resumed.resumed
    assert resumed.clock() == pytest.approx(last + RESUME_EPSILON, abs=1e-9)  # goes on from the last time
    assert resumed.game.paused is not None and resumed.game.paused.by == "restart"  # held for Ana's phone
    resumed.referee.apply(Resume())  # (the host lifts the hold: Ana's phone is not coming back here)
    after = _fingerprint(resumed, clock())
    assert after.pop("now") >= before.pop("now")
    assert after == before
    assert resumed.bots[1][0] == "easy" and resumed.bots[2][0] == resumed.bots[3][0] == "hard"
    assert resumed.seats.tokens.by_token == table.seats.tokens.by_token
    assert resumed.seats.tokens.by_seat[0] == table.seats.tokens.by_seat[0]
    clock2.advance(5.0)
    assert resumed.clock() == pytest.approx(last + RESUME_EPSILON + 5.0, abs=1e-9)

    # The same random generator: from here both games deal the same next rounds.
    t = last + 600.0
    table.game.tick(t)
    resumed.game.tick(t)
    assert resumed.game.round > before["round"]
    assert resumed.game.position() == table.game.position() and resumed.game.scores() == table.game.scores()
    resumed.stop()


def test_a_table_still_in_its_lobby_is_not_resumed_and_the_hosts_options_win(tmp_path):
    """Nothing a restart could lose before the game starts (phones join again), while the host may well have
    restarted to change the seats: the lobby's journal is set aside and the new options hold."""
    path = tmp_path / "table.jsonl"
    clock = FakeClock(10.0)
    table = Table({"clock": clock, "host_secret": "s", "journal": path})
    phone = FakeSocket("phone")
    table._on_connect(phone)
    assert _send(table, phone, type="join", seat=0, name="Ana", id=1)["type"] == "joined"
    table.stop()  # the first host is gone
    again = Table({"clock": clock, "host_secret": "s", "journal": path, "seats": 6})
    assert again.resumed is None and again.game.seat_count == 6 and not again.seats.tokens.by_token
    assert (tmp_path / "table.jsonl.old").exists() and read(path)[0]["seats"] == 6


def test_the_resumed_journal_goes_on_and_a_human_seat_waits_for_its_phone(tmp_path):
    path = tmp_path / "table.jsonl"
    clock = FakeClock()
    config = {"clock": clock, "host_secret": "s", "seed": 4, "journal": path, "bot_factory": make_stub}
    table = Table(config)
    phone = FakeSocket("phone")
    table._on_connect(phone)
    _send(table, phone, type="join", seat=3, name="Bo", id=1)
    table.host.start_game()
    clock.advance(61.0)  # Bo never says ready: the round opens on the (first) sign phase's deadline
    _step(table)
    assert table.game.phase.value == "play" and table.game.seats[3].connected
    table.stop()  # the host died with the phone still connected
    clock.advance(100.0)

    second = Table(config)
    assert second.resumed and second.game.position() == table.game.position()
    assert not second.game.seats[3].connected  # no device yet: R33, the seat waits
    back = FakeSocket("phone")
    second._on_connect(back)
    joined = _send(second, back, type="hello", token=table.seats.tokens.by_seat[3], id=1)
    assert joined["type"] == "joined" and joined["seat"] == 3 and second.game.seats[3].connected
    clock.advance(1.0)
    _step(second)
    second._on_disconnect(back)
    second.stop()

    third = Table(config)  # the second run's lines were appended to the same journal
    assert third.resumed and third.game.paused is not None  # held again, for Bo's phone
    third.referee.apply(Resume())
    a, b = _fingerprint(third, clock()), _fingerprint(second, clock())
    assert a.pop("now") == pytest.approx(b.pop("now"), abs=1e-5) and a == b  # (a restart's epsilon apart)
    third.stop()


def test_set_position_is_journaled_and_laid_out_again(tmp_path):
    path = tmp_path / "table.jsonl"
    clock = FakeClock()
    config = {
        "clock": clock,
        "host_secret": "s",
        "seed": 2,
        "journal": path,
        "bot_factory": make_stub,
        "time_scale": 0.1,
    }
    table = Table(config).start()
    try:
        table.call(lambda: table.host.start_game())
        clock.advance(3.5)  # past the sign phase
        table.poke()
        assert table.call(lambda: table.game.phase.value) == "play"
        table.set_position("AAAA KKKK QQQQ JJJJ | TTTT")
    finally:
        table.stop()
    resumed = Table(config)
    assert resumed.game.position() == "AAAA KKKK QQQQ JJJJ | TTTT" == table.game.position()
    resumed.stop()


def _played_journal(path: Path) -> None:
    clock = FakeClock()
    table = Table({"clock": clock, "host_secret": "s", "seed": 5, "journal": path, "bot_factory": make_stub})
    table.host.start_game()  # four bots: straight into play
    for _ in range(170):  # stub bots never call: the round is still on (void after 180 s, then compacted)
        clock.advance(1.0)
        _step(table)
    assert table.game.phase.value == "play"
    table.stop()


@pytest.mark.parametrize(
    "damage, why",
    [
        ("bad_bot", "do not match the seats"),
    ],
)
def test_a_journal_that_does_not_replay_is_set_aside_and_the_table_starts_fresh(tmp_path, damage, why, caplog):
    path = tmp_path / "table.jsonl"
    _played_journal(path)
    lines = path.read_text().splitlines()
    # a bot on a seat the table does not have
    lines.append(_reseal('{"t":2000.0,"bot":5,"level":"hard"}'))
    damaged = "".join(line + "\n" for line in lines)
    path.write_text(damaged)
    table = Table({"host_secret": "s", "seats": 6, "journal": path, "bot_factory": make_stub})
    assert table.resumed is None and table.game.phase.value == "lobby" and table.game.seat_count == 6
    assert (tmp_path / "table.jsonl.broken").read_text() == damaged
    assert "cannot be replayed" in caplog.text and why in caplog.text
    header, entries, _ = read(path)  # a new journal, for the new table
    assert header["seats"] == 6 and entries == []
    table.stop()


@pytest.mark.parametrize("damage", ["outcome", "event_count"])
def test_a_line_that_does_not_replay_keeps_the_table_up_to_it(tmp_path, damage, caplog):
    path = tmp_path / "table.jsonl"
    _played_journal(path)
    lines = path.read_text().splitlines()
    if damage == "outcome":  # a command that was accepted now says it was refused: the table is still a lobby there
        i = next(i for i, line in enumerate(lines) if '"cmd":"StartGame"' in line)
        lines[i] = _reseal(lines[i].replace('"r":null', '"r":"wrong_phase"'))
    else:  # a deadline that gave other events: the table as it stood before it
        i = next(i for i, line in enumerate(lines) if '"tick":true' in line)
        lines[i] = _reseal(lines[i].replace('"n":', '"n":9'))
    damaged = "".join(line + "\n" for line in lines)
    path.write_text(damaged)
    table = Table({"host_secret": "s", "seats": 6, "journal": path, "bot_factory": make_stub})
    assert "replayed up to a line that does not" in caplog.text and not (tmp_path / "table.jsonl.broken").exists()
    if damage == "outcome":
        assert table.resumed is None and (tmp_path / "table.jsonl.old").read_text() == damaged  # kept whole
    else:
        assert table.resumed is not None and table.game.phase.value != "lobby"
        assert (tmp_path / "table.jsonl.rest").read_text().splitlines() == lines[i:]  # kept aside
        assert read(path)[1] == [_entry(line) for line in lines[1:i]] + read(path)[1][i - 1 :]
    table.stop()

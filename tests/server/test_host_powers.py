"""The host's powers, steady and safe: a remote that stays with its phone, a TV that keeps its rights across a
restart, a journal that says what it set aside and replays nothing the host could not have set, and a ``hello``
whose cost is bounded.

Tables here run without sockets (:class:`FakeSocket`, an injected clock): a "kill -9" abandons the table with
its journal as it stands on disk (the journal is written line by line), and a new table opens the same file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from quatro_party.server.audience import VIP_INVITE_LIFETIME
from quatro_party.server.door import GUEST, SEATED, Ticket
from quatro_party.server.journal import encode_line, read
from quatro_party.server.seats import HELLO_GAP, Greetings, digest
from quatro_party.server.table import Table
from quatro_party.server.testing import FakeClock
from tests.server.test_hardening_restart import _kill
from tests.server.test_journal import FakeSocket, _entry, _send, _step


def _table(path: Path | None, clock: FakeClock, secret: str = "s") -> Table:
    return Table({"clock": clock, "host_secret": secret, "seed": 3, "journal": path})


def _connect(table: Table, kind: str) -> FakeSocket:
    conn = FakeSocket(kind)
    table._on_connect(conn)
    return conn


def _frames(conn: FakeSocket, kind: str) -> list[dict[str, Any]]:
    return [m for m in conn.got if m["type"] == kind]


def _last_table(conn: FakeSocket) -> dict[str, Any]:
    return _frames(conn, "state")[-1]["table"]


def _host_screen(table: Table, clock: FakeClock) -> tuple[FakeSocket, str]:
    """The host's screen, proved by the secret: it is given its key."""
    screen = _connect(table, "screen")
    assert _send(table, screen, type="hello", host="s", id=1)["type"] == "host_key"
    clock.advance(HELLO_GAP)
    return screen, _frames(screen, "host_key")[0]["key"]


def _invite(table: Table, screen: FakeSocket) -> str:
    link = _send(table, screen, type="vip_link", id=7)
    assert link["type"] == "vip_link"
    return str(link["url"].split("?vip=")[1])


def _take(table: Table, clock: FakeClock, invite: str, token: str | None = None) -> tuple[FakeSocket, str]:
    """A phone opened at the remote's link: it gets its own key."""
    phone = _connect(table, "phone")
    _send(table, phone, type="hello", token=token, vip=invite, id=1)
    keys = _frames(phone, "remote_key")
    assert keys, phone.got
    _step(table)
    return phone, keys[0]["key"]


def _seated(table: Table, seat: int, name: str) -> FakeSocket:
    phone = _connect(table, "phone")
    assert _send(table, phone, type="join", seat=seat, name=name, id=1)["type"] == "joined"
    return phone


# --- the host's remote: one phone, once, kept -------------------------------------------------------


def test_the_remote_link_works_once_and_a_second_device_is_told_it_was_used(tmp_path):
    clock = FakeClock()
    table = _table(tmp_path / "t.jsonl", clock)
    screen, _ = _host_screen(table, clock)
    invite = _invite(table, screen)
    first, _ = _take(table, clock, invite)
    assert _last_table(first)["host"] is True
    second = _connect(table, "phone")
    _send(table, second, type="hello", token=None, vip=invite, id=1)
    error = _frames(second, "error")[0]
    assert error["code"] == "vip_used" and "another phone" in error["message"] and "new one" in error["message"]
    _step(table)
    assert _last_table(second)["host"] is False and not _frames(second, "remote_key")
    assert _send(table, second, type="pause", id=2)["code"] == "not_host"


def test_showing_the_link_again_gives_a_fresh_one_and_the_last_unused_one_dies(tmp_path):
    clock = FakeClock()
    table = _table(tmp_path / "t.jsonl", clock)
    screen, _ = _host_screen(table, clock)
    old = _invite(table, screen)
    new = _invite(table, screen)
    assert new != old
    late = _connect(table, "phone")
    _send(table, late, type="hello", token=None, vip=old, id=1)
    assert _frames(late, "error")[0]["code"] == "bad_vip"
    _take(table, clock, new)
    # An invitation lasts a few minutes: one photographed from the TV and used later is worth nothing.
    stale = _invite(table, screen)
    clock.advance(VIP_INVITE_LIFETIME + 1)
    phone = _connect(table, "phone")
    _send(table, phone, type="hello", token=None, vip=stale, id=1)
    assert _frames(phone, "error")[0]["code"] == "bad_vip" and not _frames(phone, "remote_key")


def test_the_remote_stays_with_its_phone_when_its_tab_is_closed_and_opened_again(tmp_path):
    clock = FakeClock()
    table = _table(tmp_path / "t.jsonl", clock)
    screen, _ = _host_screen(table, clock)
    ana = _seated(table, 0, "Ana")
    token = ana.token
    phone, key = _take(table, clock, _invite(table, screen), token=token)
    table._on_disconnect(phone)  # the tab is closed: sessionStorage and the page are gone, the key is kept
    table._on_disconnect(ana)
    _step(table)
    assert _last_table(screen)["remote"] == {"seat": 0, "name": "Ana", "connected": False}
    back = _connect(table, "phone")
    _send(table, back, type="hello", token=token, remote=key, id=1)
    _step(table)
    assert _last_table(back)["host"] is True and _frames(back, "joined")[0]["seat"] == 0
    assert _send(table, back, type="lock", locked=True, id=2)["type"] == "ok"
    assert _last_table(screen)["remote"] == {"seat": 0, "name": "Ana", "connected": True}


def test_the_host_sees_who_holds_the_remote_and_taking_it_back_ends_it_at_once(tmp_path):
    clock = FakeClock()
    table = _table(tmp_path / "t.jsonl", clock)
    screen, _ = _host_screen(table, clock)
    watcher = _connect(table, "screen")
    _send(table, watcher, type="hello", host=None, id=1)
    assert _last_table(screen)["remote"] is None
    phone, key = _take(table, clock, _invite(table, screen))  # a phone that only watches
    assert _last_table(screen)["remote"] == {"seat": None, "name": None, "connected": True}
    assert "remote" not in _last_table(watcher)  # only the host's screens are told who holds it
    assert _send(table, screen, type="revoke_vip", id=3)["type"] == "ok"
    _step(table)
    assert _last_table(phone)["host"] is False and _last_table(screen)["remote"] is None
    assert _send(table, phone, type="pause", id=4)["code"] == "not_host"
    again = _connect(table, "phone")
    _send(table, again, type="hello", token=None, remote=key, id=1)
    assert _frames(again, "error")[0]["code"] == "bad_vip"


def test_r39_the_remote_key_reaches_its_phone_only_and_the_journal_holds_its_hash_only(tmp_path):
    path = tmp_path / "t.jsonl"
    clock = FakeClock()
    table = _table(path, clock)
    screen, screen_key = _host_screen(table, clock)
    others = [_seated(table, 1, "Bob"), _connect(table, "screen")]
    _send(table, others[1], type="hello", host=None, id=1)
    phone, key = _take(table, clock, _invite(table, screen))
    _step(table)
    for conn in [screen, *others]:
        assert not [m for m in conn.got if key in json.dumps(m)]
    for conn in [phone, *others]:
        assert not [m for m in conn.got if screen_key in json.dumps(m)]
    text = path.read_text()
    assert key not in text and screen_key not in text
    assert digest(key) in text and digest(screen_key) in text


@pytest.mark.parametrize("phase", ["lobby", "play"])
def test_the_remote_and_the_host_screen_keep_their_rights_after_a_kill_9(tmp_path, phase):
    path = tmp_path / "t.jsonl"
    clock = FakeClock()
    table = _table(path, clock)
    screen, screen_key = _host_screen(table, clock)
    ana = _seated(table, 0, "Ana")
    invite = _invite(table, screen)
    _, key = _take(table, clock, invite, token=ana.token)
    if phase == "play":
        assert _send(table, screen, type="start_game", id=9)["type"] == "ok"
        _step(table)
    _kill(table, path)

    again = _table(path, FakeClock(50.0), secret="new-secret")  # a new secret: the old address is dead
    tv = _connect(again, "screen")
    _send(again, tv, type="hello", host="s", key=screen_key, id=1)  # what the TV tab sends after the restart
    assert not _frames(tv, "error") and not _frames(tv, "host_key")  # its own key: nothing new to keep
    assert _last_table(tv)["host"] is True
    held = {"seat": 0, "name": "Ana", "connected": False} if phase == "play" else {"seat": None, "name": None}
    assert _last_table(tv)["remote"] == {"connected": False, **held}  # the host sees who holds it, away for now
    phone = _connect(again, "phone")
    _send(again, phone, type="hello", token=ana.token if phase == "play" else None, remote=key, id=1)
    _step(again)
    assert _last_table(phone)["host"] is True and not _frames(phone, "error")
    assert _send(again, phone, type="lock", locked=True, id=2)["type"] == "ok"
    # The invitation it took is still spent: a second device with a photo of it is told so.
    late = _connect(again, "phone")
    _send(again, late, type="hello", token=None, vip=invite, id=1)
    assert _frames(late, "error")[0]["code"] == "vip_used"
    # The screen that says hello with the old secret and no key is told, in plain words, what to do.
    stranger = _connect(again, "screen")
    _send(again, stranger, type="hello", host="s", id=1)
    error = _frames(stranger, "error")[0]
    assert error["code"] == "bad_host_secret" and "terminal" in error["message"]
    assert _last_table(stranger)["host"] is False
    again.stop()


def test_a_watching_remote_phone_is_a_guest_at_the_door_and_a_seated_one_is_seated(tmp_path):
    clock = FakeClock()
    table = _table(None, clock)
    screen, _ = _host_screen(table, clock)
    phone, _ = _take(table, clock, _invite(table, screen))
    _send(table, phone, type="watch", id=2)

    class Guarded:
        conn = phone

    ticket = Ticket("127.0.0.9", 0.0)
    ticket.guard = Guarded()  # type: ignore[assignment]
    assert phone in table.audience.vips and ticket.standing() == GUEST
    ana = _seated(table, 0, "Ana")
    Guarded.conn = ana
    assert ticket.standing() == SEATED


# --- what a hello may cost ---------------------------------------------------------------------------


def test_repeated_hellos_on_one_socket_get_one_answer_a_second_and_never_a_frame_to_everybody(tmp_path):
    clock = FakeClock()
    table = _table(None, clock)
    table.greetings = Greetings(clock)  # the host's real clock, here in the test's hands
    screen, _ = _host_screen(table, clock)
    _step(table)
    seen = len(screen.got)
    phone = _connect(table, "phone")
    for i in range(19):  # 19 hellos in one second, half of them with a wrong remote link
        table._on_message(phone, json.dumps({"type": "hello", "token": None, "id": i, "vip": "x" * (i % 2)}))
        _step(table)
        clock.advance(0.05)
    assert len(_frames(phone, "state")) == 1  # the first one; the others wait
    assert len(screen.got) == seen  # nobody else got a frame
    clock.advance(HELLO_GAP)
    _step(table)
    assert len(_frames(phone, "state")) == 2  # the latest waiting one, once its second is over
    assert table.greetings.wait() is None
    assert len(screen.got) == seen


# --- the journal: a checksum per line, damage said on the TV, nothing replayed the host could not set ----


def _played(path: Path) -> list[str]:
    clock = FakeClock()
    table = _table(path, clock)
    _host_screen(table, clock)
    for seat in range(4):
        _seated(table, seat, f"P{seat}")
    screen = _connect(table, "screen")
    _send(table, screen, type="hello", host="s", id=1)
    assert _send(table, screen, type="start_game", id=2)["type"] == "ok"
    for _ in range(20):
        clock.advance(1.0)
        _step(table)
    _kill(table, path)
    return path.read_text().splitlines()


def test_each_journal_line_carries_a_checksum_and_a_flipped_digit_is_caught(tmp_path):
    path = tmp_path / "t.jsonl"
    lines = _played(path)
    assert all(json.loads(line)["crc"] for line in lines)
    i = next(i for i, line in enumerate(lines) if '"tick":true,"n":0' in line and i > 5)
    flipped = lines[i].replace('"n":0', '"n":1')  # still valid JSON, still a tick line: only the checksum tells
    json.loads(flipped)
    path.write_text("".join(x + "\n" for x in [*lines[:i], flipped, *lines[i + 1 :]]))
    table = _table(path, FakeClock(), secret="t")
    damage = table.recorder.damage
    assert damage == {"line": i + 1, "kept": i, "file": "t.jsonl.rest", "resumed": True}
    tv = _connect(table, "screen")
    _send(table, tv, type="hello", host=None, id=1)
    assert _last_table(tv)["journal_damage"] == damage  # every screen says it, the host's and the others
    phone = _connect(table, "phone")
    _send(table, phone, type="hello", token=None, id=1)
    assert "journal_damage" not in _last_table(phone)
    assert (tmp_path / "t.jsonl.rest").read_text().splitlines()[0] == flipped
    table.stop()


def test_a_torn_last_line_is_no_damage_to_speak_of(tmp_path):
    path = tmp_path / "t.jsonl"
    lines = _played(path)
    path.write_text("".join(x + "\n" for x in lines) + lines[-1][:20])  # a crash mid-write
    table = _table(path, FakeClock(), secret="t")
    assert table.resumed is not None and table.recorder.damage is None
    table.stop()


def test_a_journal_that_cannot_be_replayed_at_all_is_said_on_the_tv(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text("not a journal\n")
    table = _table(path, FakeClock(), secret="t")
    assert table.recorder.damage == {"line": 1, "kept": 0, "file": "t.jsonl.broken", "resumed": False}
    table.stop()


@pytest.mark.parametrize(
    "settings",
    [
        {"language": "x" * 8_000_000},  # 8 MB that went into every frame
        {"language": "zz"},  # a language with no catalog
        {"bot_level": "godlike"},
        {"join_url": "http://evil.test/"},  # a key the host's panel has no control for
        {"locked": "maybe"},
        ["bot_level", "hard"],
    ],
)
def test_n7_replayed_settings_are_checked_as_the_hosts_own_are(tmp_path, settings):
    path = tmp_path / "t.jsonl"
    lines = _played(path)
    t = _entry(lines[-1])["t"]
    edited = encode_line({"t": t, "settings": settings}).decode("ascii")  # its checksum right: an edit, not damage
    path.write_text("".join(x + "\n" for x in [*lines, edited, *lines[-1:]]))
    table = _table(path, FakeClock(), secret="t")
    assert table.resumed is not None  # the table up to that line
    assert table.host.settings == {"bot_level": "normal", "language": None} and table.audience.locked is False
    assert table.recorder.damage is not None and table.recorder.damage["line"] == len(lines) + 1
    tv = _connect(table, "screen")
    _send(table, tv, type="hello", host=None, id=1)
    assert len(json.dumps(tv.got)) < 20_000
    table.stop()


def test_n7_a_header_with_settings_the_host_could_not_set_is_set_aside(tmp_path):
    path = tmp_path / "t.jsonl"
    lines = _played(path)
    header = _entry(lines[0])
    header["settings"] = {"language": "x" * 5000}
    path.write_text("".join(x + "\n" for x in [encode_line(header).decode("ascii"), *lines[1:]]))
    table = _table(path, FakeClock(), secret="t")
    assert table.resumed is None and table.host.settings["language"] is None
    assert (tmp_path / "t.jsonl.broken").exists() and table.recorder.damage is not None
    table.stop()


def test_a_journal_of_the_format_before_checksums_is_still_resumed(tmp_path):
    path = tmp_path / "t.jsonl"
    lines = _played(path)
    old = []
    for line in lines:
        entry = _entry(line)
        if "quatro_journal" in entry:
            entry["quatro_journal"] = 1
        old.append(json.dumps(entry, separators=(",", ":")))
    path.write_text("".join(x + "\n" for x in old))
    header, entries, _ = read(path)
    assert header["quatro_journal"] == 1 and len(entries) == len(lines) - 1
    table = _table(path, FakeClock(), secret="t")
    assert table.resumed is not None and table.recorder.damage is None
    table.stop()


# --- names joined by a zero-width joiner -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["👩\u200d👩\u200d👧", "👩\u200d💻 Lou", "🏳\ufe0f\u200d🌈"])
def test_emoji_names_joined_by_a_zero_width_joiner_are_accepted_and_numbered_alike(name):
    clock = FakeClock()
    table = _table(None, clock)
    first = _connect(table, "phone")
    assert _send(table, first, type="join", seat=0, name=name, id=1)["name"] == name
    second = _connect(table, "phone")
    assert _send(table, second, type="join", seat=1, name=name, id=1)["name"] == f"{name} 2"
    lone = _connect(table, "phone")
    assert _send(table, lone, type="join", seat=2, name="\u200d", id=1)["reason"] == "bad_name"
    assert _send(table, lone, type="join", seat=2, name="A\u200dna", id=1)["reason"] == "bad_name"

"""A join sent again (docs/protocol.md §4.1): the ``joined`` reply went down with its socket (a phone that changed
networks, a page that gave up a socket its host was slow to answer), so the page never learned its token. It sends
the same join, with the same ``key``, on its next socket, and gets what the first one was given (R33: the seat,
its hand and its token stay its player's). Real sockets, and a kill -9 between the two joins."""

from __future__ import annotations

import json
from typing import Any

import pytest

from quatro_party.server.seats import digest
from quatro_party.server.table import Table
from quatro_party.server.testing import FakeClock
from tests.server.test_hardening_restart import _kill
from tests.server.test_journal import FakeSocket, _send

KEY = "k" * 12 + "0123456789"  # what a page makes is random: any 16-128 characters do


def _join(phone: Any, seat: int, name: str, key: str | None = KEY) -> dict[str, Any]:
    """Send a join (with ``key``) and return its reply."""
    ref = phone.send({"type": "join", "seat": seat, "name": name} | ({} if key is None else {"key": key}))
    return phone.expect(lambda m: m.get("type") in ("joined", "error", "refused") and m.get("id") == ref)


def _lost_join(server: Any, screen: Any, seat: int = 0, name: str = "Ana") -> str:
    """A join that seated its phone, whose socket then went: the seat waits offline. Returns the token it got
    (read here only to compare: the page never saw it)."""
    first = server.phone()
    joined = _join(first, seat, name)
    assert joined["type"] == "joined", joined
    first.close()
    screen.wait_state(lambda v: v["seats"][seat]["name"] == name and not v["seats"][seat]["connected"])
    return str(joined["token"])


def test_r33_the_same_join_on_a_new_socket_gets_the_seat_and_token_the_first_was_given(live_server):
    screen = live_server.screen()
    token = _lost_join(live_server, screen)
    again = live_server.phone()
    joined = _join(again, 0, "Ana")
    assert (joined["type"], joined["seat"], joined["token"], joined["name"]) == ("joined", 0, token, "Ana")
    assert again.wait_state(lambda v: "you" in v)["you"]["seat"] == 0
    view = screen.wait_state(lambda v: v["seats"][0]["connected"])
    assert view["seats"][0]["name"] == "Ana"  # not "Ana 2": the same player, not a second one
    assert sum(s["name"] == "Ana" for s in view["seats"]) == 1


def test_r33_a_join_with_another_key_or_none_finds_the_seat_taken(live_server):
    screen = live_server.screen()
    _lost_join(live_server, screen)
    guest = live_server.phone()
    assert _join(guest, 0, "Ana", key="x" * 16)["code"] == "seat_taken"
    assert _join(guest, 0, "Ana", key=None)["code"] == "seat_taken"
    assert "you" not in guest.wait_state()


def test_r33_the_key_opens_the_seat_as_its_token_would_newest_socket_wins_even_locked(live_server):
    screen = live_server.screen()
    ana = live_server.phone()
    token = _join(ana, 0, "Ana")["token"]
    assert screen.host("lock", locked=True)["type"] == "ok"
    again = live_server.phone()
    assert _join(again, 0, "Ana")["token"] == token
    assert ana.expect("error")["code"] == "seat_moved"
    assert _join(again, 0, "Ana")["token"] == token  # said twice on one socket: the same answer
    assert _join(again, 1, "Ana", key="y" * 16)["code"] == "already_seated"


@pytest.mark.parametrize("how", ["free_seat", "kick", "allow_move", "replace_with_bot"])
def test_r33_a_key_dies_with_the_token_its_join_was_given(live_server, how):
    screen = live_server.screen()
    token = _lost_join(live_server, screen)
    if how == "allow_move":  # the seat moves to another device by its link: a new token
        ana = live_server.phone(token)
        assert screen.host("allow_move", seat=0)["type"] == "ok"
        link = ana.expect("seat_link")["token"]
        other = live_server.phone(hello=False)
        other.send({"type": "hello", "token": link})
        assert other.expect("joined")["seat"] == 0
    elif how == "replace_with_bot":
        assert screen.host("start_game")["type"] == "ok"
        assert screen.host(how, seat=0)["type"] == "ok"
    else:
        assert screen.host(how, seat=0)["type"] == "ok"
    late = live_server.phone()
    reply = _join(late, 0, "Ana")
    if how in ("free_seat", "kick"):  # the seat is offered again: an ordinary join, with a new token
        assert reply["type"] == "joined" and reply["token"] != token
    else:
        assert reply["type"] == "error" and reply["code"] in ("seat_taken", "wrong_phase"), reply


@pytest.mark.parametrize("key", ["", "short", "z" * 15, "z" * 129, 12345678901234567890, ["k"] * 16])
def test_a_key_that_is_no_text_of_16_to_128_characters_is_a_bad_field(live_server, key):
    phone = live_server.phone()
    ref = phone.send({"type": "join", "seat": 0, "name": "Ana", "key": key})
    reply = phone.reply(ref)
    assert (reply["type"], reply["code"]) == ("error", "bad_field")
    assert "key" in reply["message"]
    assert live_server.summary()["view"]["seats"][0]["kind"] == "empty"


def test_r33_a_join_sent_again_after_a_kill_9_mid_game_finds_its_seat_and_the_journal_keeps_its_hash_only(tmp_path):
    path = tmp_path / "t.jsonl"
    table = Table({"clock": FakeClock(), "host_secret": "s", "seed": 3, "journal": path})
    first = FakeSocket("phone")
    table._on_connect(first)
    joined = _send(table, first, type="join", seat=0, name="Ana", key=KEY, id=1)
    assert joined["type"] == "joined"
    tv = FakeSocket("screen")
    table._on_connect(tv)
    _send(table, tv, type="hello", host="s", id=1)
    assert _send(table, tv, type="start_game", id=2)["type"] == "ok"  # a lobby alone is not resumed
    _kill(table, path)  # the host died, the page never told its token
    text = path.read_text()
    assert KEY not in text and digest(KEY) in text

    again = Table({"clock": FakeClock(50.0), "host_secret": "t", "seed": 3, "journal": path})
    phone = FakeSocket("phone")
    again._on_connect(phone)
    _send(again, phone, type="hello", token=None, id=1)
    reply = _send(again, phone, type="join", seat=0, name="Ana", key=KEY, id=2)
    assert (reply["type"], reply["seat"], reply["token"]) == ("joined", 0, joined["token"])
    stranger = FakeSocket("phone")
    again._on_connect(stranger)
    assert _send(again, stranger, type="join", seat=0, name="Ana", key="w" * 16, id=1)["code"] == "seat_taken"
    assert not [m for m in stranger.got if KEY in json.dumps(m) or joined["token"] in json.dumps(m)]
    again.stop()

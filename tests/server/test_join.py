"""Joining, resuming and the seat token (R33), on a real server with real sockets."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest


def test_phone_joins_and_screen_sees_the_seat(live_server):
    screen = live_server.screen()
    ana = live_server.phone()
    joined = ana.join(0, "Ana")
    assert joined["seat"] == 0 and len(joined["token"]) >= 20
    view = screen.wait_state(lambda v: v["seats"][0]["name"] == "Ana")
    assert view["seats"][0]["kind"] == "human" and view["seats"][0]["connected"]
    assert "you" not in view
    mine = ana.wait_state(lambda v: "you" in v)
    assert mine["you"]["seat"] == 0 and mine["you"]["partner"] == 2
    assert ana.state["table"]["join_url"] == live_server.join_url
    assert screen.state["table"]["host"] is True


def _four_in_a_game(server):
    screen = server.screen()
    phones = [server.phone() for _ in range(4)]
    for seat, phone in enumerate(phones):
        phone.join(seat, f"P{seat}")
    assert screen.host("start_game")["type"] == "ok"
    for phone in phones:
        phone.wait_state(lambda v: v["phase"] == "sign", timeout=5)
    return screen, phones


@pytest.mark.live_server(time_scale=0.05)
def test_r33_four_phones_reconnect_with_token_same_hand(live_server):
    screen, phones = _four_in_a_game(live_server)
    for phone in phones:
        assert phone.act("ready")["type"] == "ok"
    hand = phones[1].wait_state(lambda v: v["phase"] == "play")["you"]["hand"]
    token = phones[1].token
    phones[1].close()
    screen.wait_state(lambda v: not v["seats"][1]["connected"])
    again = live_server.phone(hello=False)
    again.send({"type": "hello", "token": token})
    assert again.expect("joined")["seat"] == 1
    view = again.wait_state(lambda v: "you" in v)
    assert sorted(c["id"] for c in view["you"]["hand"]) == sorted(c["id"] for c in hand)
    screen.wait_state(lambda v: v["seats"][1]["connected"])


def test_forged_token_is_refused(live_server):
    ana = live_server.phone()
    ana.join(0, "Ana")
    thief = live_server.phone(hello=False)
    thief.send({"type": "hello", "token": "forged-" + "x" * 20})
    err = thief.expect("error")
    assert err["code"] == "bad_token"
    assert "you" not in thief.expect("state")["view"]
    assert thief.act("ready")["code"] == "not_seated"


def test_held_seat_cannot_be_taken_until_the_host_frees_it(live_server):
    screen = live_server.screen()
    ana = live_server.phone()
    ana.join(0, "Ana")
    bob = live_server.phone()
    bob.send({"type": "join", "seat": 0, "name": "Bob"})
    assert bob.expect("error")["code"] == "seat_taken"
    assert screen.host("free_seat", seat=0)["type"] == "ok"
    assert ana.expect("error")["code"] == "seat_freed"
    assert bob.join(0, "Bob")["seat"] == 0


def test_pages_and_qr_are_served(live_server):
    with urllib.request.urlopen(live_server.url + "/qr.png") as resp:
        assert resp.headers["Content-Type"] == "image/png"
    with urllib.request.urlopen(live_server.url + "/qr.svg") as resp:
        assert b"<svg" in resp.read()
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(live_server.url + "/no-such-file.js")
    assert missing.value.code == 404
    with urllib.request.urlopen(live_server.url + "/common/socket.js") as resp:
        assert b"WebSocket" in resp.read()


def test_a_socket_holds_one_seat_at_a_time(live_server):
    screen = live_server.screen()
    ana, bob = live_server.phone(), live_server.phone()
    ana.join(0, "Ana")
    bob.join(1, "Bob")
    ana.send({"type": "hello", "token": bob.token})  # Ana's page now opens Bob's seat
    assert ana.expect("joined")["seat"] == 1
    assert bob.expect("error")["code"] == "seat_moved"
    view = screen.wait_state(lambda v: not v["seats"][0]["connected"])
    assert view["seats"][1]["connected"]
    ana.send({"type": "hello", "token": None})  # back to the join page: the seat shows disconnected
    screen.wait_state(lambda v: not v["seats"][1]["connected"])


def _tokens_in(server, clients) -> set[str]:
    """Every seat token the server knows now, and every one a client was ever given."""
    tokens = set(server.table.call(lambda: list(server.table.seats.tokens.by_token)))
    for c in clients:
        tokens.update(m["token"] for m in c.messages if m.get("type") == "joined")
    return tokens


def test_r33_a_freed_seat_is_told_apart_from_an_offline_one_and_no_token_leaves(live_server):
    """``table.freed`` (public) lists the human seats nobody holds the token of: an offline seat is not in it,
    a seat the host freed is, until a phone or a bot takes it over. No state frame holds a seat token (R39)."""
    screen, phones = _four_in_a_game(live_server)
    watcher = live_server.screen(host=False)
    assert screen.state["table"]["freed"] == []
    phones[1].close()  # Bob's phone dies: his seat is offline, still his (R33)
    view = screen.wait_state(lambda v: not v["seats"][1]["connected"])
    assert screen.state["table"]["freed"] == [] and view["seats"][1]["kind"] == "human"
    onlooker = live_server.phone()  # a phone on the join page sees the same public fact
    assert onlooker.state["table"]["freed"] == []
    assert screen.host("add_bot", seat=1)["code"] == "seat_taken"  # not freed yet: still Bob's
    clients = [screen, watcher, onlooker, *phones]
    tokens = _tokens_in(live_server, clients)
    assert screen.host("free_seat", seat=1)["type"] == "ok"
    for c in (screen, watcher, onlooker, phones[0]):
        c.expect(lambda m: m.get("type") == "state" and m["table"]["freed"] == [1])
    assert screen.state["view"]["seats"][1]["name"] == "P1"  # the seat keeps its player's name and hand
    newt = live_server.phone()
    assert newt.state["table"]["freed"] == [1]
    newt.join(1, "Newt")
    screen.expect(
        lambda m: m.get("type") == "state" and m["table"]["freed"] == [] and m["view"]["seats"][1]["name"] == "Newt"
    )
    clients.append(newt)
    tokens |= _tokens_in(live_server, clients)
    # The host frees it again and puts a bot there instead (add_bot on a freed human seat in a game).
    assert screen.host("free_seat", seat=1)["type"] == "ok"
    screen.expect(lambda m: m.get("type") == "state" and m["table"]["freed"] == [1])
    assert screen.host("add_bot", seat=1, level="easy")["type"] == "ok"
    msg = screen.expect(lambda m: m.get("type") == "state" and m["view"]["seats"][1]["kind"] == "bot")
    assert msg["table"]["freed"] == [] and msg["table"]["bots"] == {"1": "easy"}
    assert live_server.summary()["bots"] == {1: "easy"}
    for c in clients:
        if not c.closed:
            c.drain()
    assert len(tokens) >= 5
    for c in clients:
        states = [f for f in c.frames if f.startswith('{"type":"state"')]
        assert states
        for text in states:
            for token in tokens:
                assert token not in text, f"a seat token reached a state frame of {c}"


@pytest.mark.live_server(seats=8)
def test_two_seats_never_share_a_name_case_accents_and_bots_count(live_server):
    """A name another seat already has (ignoring case and accents, a bot's included) gets a number: "Ana 2",
    within the engine's 20 characters, so the TV and the result sentences can tell the players apart."""
    screen = live_server.screen()
    phones = {}
    for seat, name in [
        (0, "Ana"),
        (1, "ana"),
        (2, " Âna "),
        (4, "Bot Dex"),
        (6, "Abcdefghijklmnopqrst"),
        (7, "abcdefghijklmnopqrst"),
    ]:
        phones[seat] = live_server.phone()
        phones[seat].join(seat, name)
    assert screen.host("fill_bots")["type"] == "ok"  # seat 3's bot is "Bot Dex": a human has that name
    view = screen.wait_state(lambda v: all(s["kind"] != "empty" for s in v["seats"]))
    names = [s["name"] for s in view["seats"]]
    assert names == [
        "Ana",
        "ana 2",
        "Âna 3",
        "Bot Dex 2",
        "Bot Dex",
        "Bot Fay",
        "Abcdefghijklmnopqrst",
        "abcdefghijklmnopqr 2",
    ]
    assert phones[1].wait_state(lambda v: "you" in v)["seats"][1]["name"] == "ana 2"
    assert phones[4].act("leave")["type"] == "ok"
    screen.wait_state(lambda v: v["seats"][4]["kind"] == "empty")  # else the screen's latest may be the old seat
    phones[4].join(4, "BOT FAY")  # a bot's name counts too
    assert screen.wait_state(lambda v: v["seats"][4]["kind"] == "human")["seats"][4]["name"] == "BOT FAY 2"
    assert screen.host("add_bot", seat=5, level="hard")["type"] == "ok"  # a bot's own name is not a clash
    screen.drain()
    assert screen.state["view"]["seats"][5]["name"] == "Bot Fay"
    bad = live_server.phone()
    assert phones[0].act("leave")["type"] == "ok"
    ref = bad.send({"type": "join", "seat": 0, "name": "x" * 21})  # still the engine's to refuse
    assert bad.reply(ref)["reason"] == "bad_name"


def test_joined_tells_the_phone_the_name_it_got(live_server):
    """The ``joined`` reply carries the seat's name as granted: a phone numbered "Ana 2" is told so (it typed
    "ana"), and a resume with the token says the same name again."""
    ana, other = live_server.phone(), live_server.phone()
    assert ana.join(0, "Ana")["name"] == "Ana"
    joined = other.join(1, " ana ")
    assert joined["name"] == "ana 2"
    other.close()
    again = live_server.phone(hello=False)
    assert again.hello(joined["token"]) == {
        "type": "joined",
        "id": 1,
        "seat": 1,
        "token": joined["token"],
        "name": "ana 2",
    }

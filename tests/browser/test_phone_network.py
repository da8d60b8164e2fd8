"""A phone back on the network after a Wi-Fi drop: its socket can look open and be dead (nothing closed it).
The browser's ``online`` event must make the page check it and, if it is dead, replace it, so the player does not
keep looking at a stale table (R33: the seat is resumed by the new socket's hello)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .phone_helpers import gated_page


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r33_back_online_replaces_a_dead_socket_and_shows_the_fresh_table(live_server, phone_context):
    page, gate, errors = gated_page(phone_context, live_server.port)
    page.fill("#name", "Ana")
    page.locator('#seat-list [data-seat="0"]').tap()
    expect(page.locator("#screen-wait")).to_be_visible()
    assert gate.connections == 1

    gate.kill_current()  # the Wi-Fi dropped: the socket stays 'open' but nothing passes any more
    bob = live_server.phone()
    bob.join(1, "Bob")  # the table moves on meanwhile
    page.wait_for_timeout(300)
    expect(page.locator("#wait-body")).not_to_contain_text("Bob")  # stale, as it would be

    page.evaluate("window.dispatchEvent(new Event('online'))")
    gate.wait_for_connections(page, 2)  # about 3 s of silence, then a new socket
    expect(page.locator("#wait-body")).to_contain_text("Bob")
    expect(page.locator("#screen-wait")).to_be_visible()  # same seat, resumed
    assert errors == []


def lost_join_reply(live_server, phone_context):
    """Ana taps seat 0 and her socket dies right after the join: the host seats her, the page never hears of it and
    still shows the join screen. Returns (page, gate, its errors, the host's screen)."""
    page, gate, errors = gated_page(phone_context, live_server.port)
    page.fill("#name", "Ana")
    expect(page.locator('#seat-list [data-seat="0"]')).to_be_enabled()
    gate.dies_after = "join"
    page.locator('#seat-list [data-seat="0"]').tap()
    screen = live_server.screen()
    screen.wait_state(lambda v: v["seats"][0]["name"] == "Ana")  # the host seated her; the page does not know
    expect(page.locator("#screen-join")).to_be_visible()
    return page, gate, errors, screen


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r33_a_join_whose_reply_was_lost_with_its_socket_is_sent_again_and_seats_the_phone(live_server, phone_context):
    """The Wi-Fi drops just after the seat tap: the host seated Ana, but the reply with her token never came. Back
    online, the page sends the same join (its key) on its new socket and is seated, with the token the first join
    was given; without it the seat would wait offline for a phone that does not know it (docs/protocol.md §4.1)."""
    page, gate, errors, screen = lost_join_reply(live_server, phone_context)

    page.evaluate("window.dispatchEvent(new Event('online'))")
    gate.wait_for_connections(page, 2)
    expect(page.locator("#screen-wait")).to_be_visible()
    joins = [json.loads(text) for _, text in gate.sent if json.loads(text).get("type") == "join"]
    assert [(j["seat"], j["name"]) for j in joins] == [(0, "Ana"), (0, "Ana")]
    assert joins[0]["key"] == joins[1]["key"] and len(joins[0]["key"]) >= 16
    view = screen.wait_state(lambda v: v["seats"][0]["connected"])
    assert [s["name"] for s in view["seats"]].count("Ana") == 1
    token = page.evaluate("localStorage.getItem('quatro.token')")
    phone = live_server.phone(hello=False)
    phone.send({"type": "hello", "token": token})
    assert phone.expect("joined")["seat"] == 0  # the token the page kept is the seat's
    assert errors == []


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r33_a_join_whose_reply_was_lost_is_sent_again_after_a_reload(live_server, phone_context):
    """The Wi-Fi drops just after the seat tap and the player does what people do: reloads the page. The page kept
    its unanswered join (with its key) and sends it again on the new page's socket: seated, one Ana at the table."""
    page, gate, errors, screen = lost_join_reply(live_server, phone_context)

    page.reload()
    expect(page.locator("#screen-wait")).to_be_visible()
    joins = [json.loads(text) for _, text in gate.sent if json.loads(text).get("type") == "join"]
    assert [(j["seat"], j["name"]) for j in joins] == [(0, "Ana"), (0, "Ana")]
    assert joins[0]["key"] == joins[1]["key"]
    view = screen.wait_state(lambda v: v["seats"][0]["connected"])
    assert [s["name"] for s in view["seats"]].count("Ana") == 1
    assert page.evaluate("localStorage.getItem('quatro.join')") is None  # answered: nothing kept
    assert errors == []


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r33_a_kept_join_goes_again_only_soon_after_its_tap_and_for_a_phone_without_a_seat(live_server, phone_context):
    """A join kept from an earlier evening (over two minutes old), or on a phone that holds a seat's token, is not
    sent: a reload never seats anybody they did not just ask for."""
    page, gate, errors = gated_page(phone_context, live_server.port)
    expect(page.locator('#seat-list [data-seat="0"]')).to_be_enabled()
    old = {"type": "join", "seat": 1, "name": "Ana", "key": "k" * 32}
    page.evaluate(
        "(m) => localStorage.setItem('quatro.join', JSON.stringify({ at: Date.now() - 121000, msg: m }))", old
    )
    page.reload()
    gate.wait_for_connections(page, 2)
    expect(page.locator('#seat-list [data-seat="1"]')).to_be_enabled()  # the table came after the hello

    def joins() -> int:
        return [json.loads(t).get("type") for _, t in gate.sent].count("join")

    assert joins() == 0  # a join sent again goes right after the hello
    assert page.evaluate("localStorage.getItem('quatro.join')") is None  # forgotten
    # a seated phone (its token kept) with a fresh join beside it: the token speaks, the join is dropped
    bruno = live_server.phone()
    token = bruno.join(2, "Bruno")["token"]
    bruno.close()
    page.evaluate(
        "([m, t]) => { localStorage.setItem('quatro.token', t);"
        " localStorage.setItem('quatro.join', JSON.stringify({ at: Date.now(), msg: m })); }",
        [old, token],
    )
    page.reload()
    expect(page.locator("#screen-wait")).to_be_visible()
    assert joins() == 0
    view = live_server.screen().wait_state(lambda v: v["seats"][2]["connected"])
    assert view["seats"][1]["kind"] == "empty"
    assert errors == []

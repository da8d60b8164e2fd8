"""A phone back on the network after a Wi-Fi drop: its socket can look open and be dead (nothing closed it).
The browser's ``online`` event must make the page check it and, if it is dead, replace it, so the player does not
keep looking at a stale table (R33: the seat is resumed by the new socket's hello)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import phone_url
from .phone_helpers import StateGate


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r33_back_online_replaces_a_dead_socket_and_shows_the_fresh_table(live_server, phone_context):
    page = phone_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    gate = StateGate()
    gate.route(page)
    page.goto(phone_url(live_server.port))
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

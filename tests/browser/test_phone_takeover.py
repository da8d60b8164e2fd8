"""A phone that opens the page during a game: an offline player's seat is offered ("take over?"), but it stays
that player's until the host frees it (R33). Tapping it before then must say so, not "just taken"."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import phone_url


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r33_offline_seat_not_yet_freed_says_ask_the_host(live_server, phone_context):
    ana = live_server.phone()
    ana.join(0, "Ana")
    bob = live_server.phone()
    bob.join(1, "Bob")
    screen = live_server.screen()
    assert screen.host("start_game")["type"] == "ok"
    bob.close()  # Bob's phone dies: his seat is offline but still his (R33)
    ana.wait_state(lambda v: v["phase"] == "sign" and not v["seats"][1]["connected"])

    page = phone_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(phone_url(live_server.port))
    page.fill("#name", "Newt")
    seat = page.locator('#seat-list [data-seat="1"]')
    expect(seat).to_contain_text("take over")
    seat.tap()
    expect(page.locator("#join-msg")).to_contain_text("ask the host")
    expect(page.locator("#join-msg")).not_to_contain_text("just taken")

    # Once the host frees it, the same tap takes it over, hand and all.
    assert screen.host("free_seat", seat=1)["type"] == "ok"
    seat.tap()
    expect(page.locator("#screen-sign")).to_be_visible()
    assert errors == []

"""A phone that opens the page during a game: an offline player's seat is still that player's (R33) and is shown
so, not joinable, with the hint to ask the host; once the host frees it (``table.freed``) it is offered as
"take over?" and a tap takes it over, hand and all."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import phone_url
from .pictures import snap


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r33_offline_seat_is_not_joinable_until_the_host_frees_it(live_server, phone_context, screenshot_dir):
    ana = live_server.phone()
    ana.join(0, "Ana")
    bob = live_server.phone()
    bob.join(1, "Bob")
    screen = live_server.screen()
    assert screen.host("start_game")["type"] == "ok"  # seats 2 and 3 get bots
    bob.close()  # Bob's phone dies: his seat is offline but still his (R33)
    ana.wait_state(lambda v: v["phase"] == "sign" and not v["seats"][1]["connected"])

    page = phone_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(phone_url(live_server.port))
    page.fill("#name", "Newt")
    seat = page.locator('#seat-list [data-seat="1"]')
    expect(seat).to_contain_text("offline — the host can free it")
    expect(seat).not_to_contain_text("take over")
    expect(seat).to_be_disabled()
    expect(page.locator("#join-msg")).to_contain_text("ask the host to tap “Unseat”")
    snap(page, screenshot_dir / "phone-join-offline-seat.png")

    # Once the host frees it, the seat is offered and the tap takes it over, hand and all.
    assert screen.host("free_seat", seat=1)["type"] == "ok"
    expect(seat).to_contain_text("free — take over?")
    expect(seat).to_be_enabled()
    expect(page.locator("#join-msg")).not_to_contain_text("ask the host")
    snap(page, screenshot_dir / "phone-join-freed-seat.png")
    seat.tap()
    expect(page.locator("#screen-sign")).to_be_visible()
    assert errors == []

"""Double taps, as at a real table: a second tap on the channel toggle while the first is on its way must not
come back as a refusal ("Not now") — the first tap did what the player wanted (R17, R21)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import phone_url
from .phone_helpers import join_on_page


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r17_double_tap_on_the_channel_takes_it_once_without_a_refusal(live_server, phone_context):
    page, errors = join_on_page(phone_context, phone_url(live_server.port), 0, "Ana")
    others = {}
    for seat, name in ((1, "Bruno"), (2, "Chloé"), (3, "Dora")):
        others[seat] = live_server.phone()
        others[seat].join(seat, name)
    screen = live_server.screen()
    assert screen.host("start_game")["type"] == "ok"
    page.locator("#btn-ready").tap()
    for c in others.values():
        assert c.act("ready")["type"] == "ok"
    expect(page.locator("#screen-play")).to_be_visible()

    page.locator("#btn-channel").dblclick()
    expect(page.locator("#btn-channel")).to_have_attribute("aria-pressed", "true")
    page.wait_for_timeout(500)  # any refusal would be back by now
    assert page.locator("#play-msg").inner_text() != "Not now"  # read now: the line fades after a moment
    assert live_server.summary()["view"]["seats"][0]["channel"]["held"] is True
    assert errors == []


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r28_double_tap_on_reshuffle_opens_one_vote_without_a_refusal(live_server, phone_context):
    page, errors = join_on_page(phone_context, phone_url(live_server.port), 0, "Ana")
    others = {}
    for seat, name in ((1, "Bruno"), (2, "Chloé"), (3, "Dora")):
        others[seat] = live_server.phone()
        others[seat].join(seat, name)
    screen = live_server.screen()
    assert screen.host("start_game")["type"] == "ok"
    page.locator("#btn-ready").tap()
    for c in others.values():
        assert c.act("ready")["type"] == "ok"
    expect(page.locator("#screen-play")).to_be_visible()

    page.locator("#btn-reshuffle").dblclick()
    expect(page.locator("#btn-reshuffle")).to_contain_text("Waiting for votes (0/3)")
    page.wait_for_timeout(500)  # any refusal would be back by now
    assert "already running" not in page.locator("#play-msg").inner_text()  # read now: the line fades
    assert errors == []

"""Double taps, as at a real table: a second tap on the channel toggle while the first is on its way must not
come back as a refusal ("Not now") — the first tap did what the player wanted (R17, R21)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .phone_helpers import everybody_ready, game_with_page


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r17_double_tap_on_the_channel_takes_it_once_without_a_refusal(live_server, phone_context):
    page, errors, others, _ = game_with_page(live_server, phone_context)
    everybody_ready(page, others)

    page.locator("#btn-channel").dblclick()
    expect(page.locator("#btn-channel")).to_be_checked()
    page.wait_for_timeout(500)  # any refusal would be back by now
    assert "Not now" not in page.locator("#finger").inner_text()  # read now: the bubble fades after a moment
    expect(page.locator("#btn-channel")).to_be_checked()
    assert live_server.summary()["view"]["seats"][0]["channel"]["held"] is True
    assert errors == []


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r28_double_tap_on_reshuffle_opens_one_vote_without_a_refusal(live_server, phone_context):
    page, errors, others, _ = game_with_page(live_server, phone_context)
    everybody_ready(page, others)

    page.locator("#btn-reshuffle").dblclick()
    expect(page.locator("#btn-reshuffle")).to_contain_text("Waiting for votes (0/3)")
    page.wait_for_timeout(500)  # any refusal would be back by now
    assert "already running" not in page.locator("#finger").inner_text()  # read now: the bubble fades
    assert errors == []

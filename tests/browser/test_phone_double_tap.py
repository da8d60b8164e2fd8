"""Double taps, as at a real table: a second tap on the channel toggle while the first is on its way must not
come back as a refusal ("Not now") — the first tap did what the player wanted (R17, R21); nor a second tap on
Reshuffle as "A vote is already running", even when the first tap's vote reached the page in between (R28)."""

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


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r28_a_double_taps_second_tap_after_its_vote_is_shown_is_not_refused(live_server, phone_context):
    """A slow phone may run the server's answer between the two taps of one double tap: the second tap then meets
    the vote the first one opened, and must not be told "A vote is already running" about it. The page's clock is
    held still from the first tap, so that the second one comes "at once" however slow the machine."""
    page, errors, others, _ = game_with_page(live_server, phone_context)
    everybody_ready(page, others)

    page.evaluate("() => { const t = performance.now(); window.__now = performance.now; performance.now = () => t; }")
    page.locator("#btn-reshuffle").click()
    expect(page.locator("#btn-reshuffle")).to_contain_text("Waiting for votes (0/3)")  # the vote is in the view
    page.locator("#btn-reshuffle").click(force=True)  # a finger taps it, aria-disabled or not
    page.wait_for_timeout(300)  # a refusal is drawn at once, from the view
    assert "already running" not in page.locator("#finger").inner_text()
    page.evaluate("() => { performance.now = window.__now; }")
    assert live_server.summary()["view"]["reshuffle"]["vote"] is not None  # one vote, still open
    assert errors == []

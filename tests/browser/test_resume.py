"""A host that restarts mid-round (R33 for the whole table): the phone page, left open, gets its seat and its hand
back by itself once the host is up again on the same port, and the round goes on."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from quatro_party.server import create_app
from quatro_party.server.testing import TEST_HOST_SECRET

from ..timeouts import limit_ms
from .conftest import PHONE_HOST, listen_again, phone_url
from .phone_helpers import join_on_page
from .test_phone import ranks, shot


@pytest.mark.browser
def test_phone_gets_its_seat_and_hand_back_after_the_host_restarts(
    live_server_factory, phone_context, tmp_path, screenshot_dir
):
    journal = tmp_path / "table.jsonl"
    # Easy bots: slow, and they never Contre, so the round is still running when the host comes back.
    first = live_server_factory(seats=4, public_host=PHONE_HOST, journal=journal, bot_level="easy")
    page, errors = join_on_page(phone_context, phone_url(first.port), 0, "Ana")
    token = page.evaluate("localStorage.getItem('quatro.token')")
    assert first.screen().host("start_game")["type"] == "ok"  # seats 1–3 get easy bots
    expect(page.locator("#screen-sign")).to_be_visible()
    page.locator("#btn-ready").tap()  # bots are always ready: play opens at once
    expect(page.locator("#screen-play")).to_be_visible()
    expect(ranks(page, "#hand")).to_have_count(4)
    hand = ranks(page, "#hand").all_text_contents()

    port = first.port
    first.stop()  # the host dies mid-round
    expect(page.locator("#status")).to_have_text("Connection lost — reconnecting…")

    app = create_app({"host_secret": TEST_HOST_SECRET, "journal": journal, "join_url": f"http://{PHONE_HOST}:{port}/"})
    thread = listen_again(app, port)
    try:
        # No tap, no reload: the page says hello again with the token it kept and is seated as before.
        expect(page.locator("#status")).to_be_hidden(timeout=limit_ms(10))
        expect(page.locator("#screen-play")).to_be_visible()
        expect(page.locator("#screen-join")).to_be_hidden()
        expect(ranks(page, "#hand")).to_have_text(hand)
        assert page.evaluate("localStorage.getItem('quatro.token')") == token
        shot(page, screenshot_dir, "resumed-after-host-restart")
        assert errors == []
    finally:
        thread.stop()

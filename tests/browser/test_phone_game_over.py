"""The phone at the end of the game (R34): besides who won, it says what happens next — the host starts a new
game — so nobody stares at a screen that gives no idea what to do."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .phone_helpers import game_with_page, set_position


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r34_game_over_says_the_host_starts_the_next_game(live_server, phone_context):
    page, errors, others, screen = game_with_page(live_server, phone_context)
    for n in range(5):  # five rounds, each won by Chloé's Quatro on Ana's carré (R22, R34)
        if n:
            assert screen.host("next_round")["type"] == "ok"
        expect(page.locator("#btn-ready")).to_be_visible()
        for c in others.values():
            c.wait_state(lambda v: v["phase"] == "sign")
            assert c.act("ready")["type"] == "ok"
        page.locator("#btn-ready").tap()
        expect(page.locator("#screen-play")).to_be_visible()
        set_position(live_server, "AAAA KKQJ KQQJ KQJJ | TTTT")
        others[2].wait_state(lambda v: v["phase"] == "play")
        assert others[2].act("call_quatro", confirmed=False)["type"] == "ok"
        expect(page.locator("#screen-over" if n == 4 else "#screen-reveal")).to_be_visible()
    expect(page.locator(".over-title")).to_have_text("Game over")
    expect(page.locator("#over-next")).to_have_text("Waiting for the host to start a new game…")
    expect(page.locator("#recap li")).to_have_count(5)  # how each point was won, one line a round
    expect(page.locator("#recap li").first).to_contain_text("Chloé’s Quatro! — Blue ●")
    assert screen.host("new_game")["type"] == "ok"
    expect(page.locator("#screen-wait")).to_be_visible()
    assert errors == []

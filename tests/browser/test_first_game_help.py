"""A first-time table learns Quatro from the app itself, across the TV page and real phone pages of one real game
(tests/browser/test_first_game_*.py: the coach, the help sheet, the attract loop, the round's story and the recap,
the practice round).

The help sheet opens and closes during play: the same hand, the same socket, and the table went on meanwhile; it
shows the host's rules inside it.

Screenshots: ``screenshots/qa-first-help-*.png``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from quatro_party.server.botstub import StubBot

from .phone_helpers import seat_phones
from .qa_helpers import (
    PUBLIC,
    open_tv,
    ready_pages,
    socket_phone,
    start_on_tv,
)


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_help_sheet_opens_and_closes_during_play_with_the_hand_and_the_socket_kept(
    live_server, tv_context, screenshot_dir, phone_page
):
    ana, bruno = phone_page(live_server, 0, "Ana"), socket_phone(live_server, 1, "Bruno")
    page = ana.page
    tv = open_tv(tv_context, live_server)
    start_on_tv(tv, [ana], [bruno])
    live_server.table.set_position("AAKQ KKJJ QQJT TTJK | AAQT")
    expect(page.locator("#hand .card .rank")).to_have_text(["A", "A", "K", "Q"])
    page.evaluate("() => { window.__ws = window.quatroLink.ws; }")
    page.locator("#help").tap()
    expect(page.locator("#help-sheet")).to_be_visible()
    # the table goes on under the sheet: Bruno swaps a card with the centre
    mine = bruno.wait_state(lambda v: v["phase"] == "play" and v["you"]["hand"][0]["rank"] == "K")
    centre = mine["centre"]
    card = mine["you"]["hand"][0]
    assert bruno.act("swap", card=card["id"], place=0, expected=centre[0]["id"])["type"] == "ok"
    ana.shot(screenshot_dir, "first-help-open")
    tv.wait("window.quatroScreen.view.seats[0].connected === true")
    page.locator("#help-close").tap()
    expect(page.locator("#help-sheet")).to_have_count(0)
    expect(page.locator("#hand .card .rank")).to_have_text(["A", "A", "K", "Q"])
    expect(page.locator("#centre .card .rank").first).to_have_text(card["rank"])  # what changed meanwhile
    assert page.evaluate("window.quatroLink.ws === window.__ws && window.quatroLink.online")
    assert live_server.summary()["view"]["seats"][0]["connected"] is True
    ana.shot(screenshot_dir, "first-help-closed")
    assert ana.errors == [] and tv.errors == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_help_sheet_shows_the_rules_inside_it_during_play(live_server, screenshot_dir, phone_page):
    ana = phone_page(live_server, 0, "Ana")
    others = seat_phones(live_server, {1: "Bruno", 2: "Chloé", 3: "Dora"})
    assert live_server.screen().host("start_game")["type"] == "ok"
    ready_pages([ana], list(others.values()))
    ana.page.locator("#help").tap()
    expect(ana.page.locator("#help-sheet")).to_be_visible()
    expect(ana.page.locator("#help-rules article")).to_contain_text("Quatro")  # the host's /rules, in the sheet
    ana.shot(screenshot_dir, "first-help-rules")
    assert ana.errors == []

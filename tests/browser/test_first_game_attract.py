"""A first-time table learns Quatro from the app itself, across the TV page and real phone pages of one real game
(tests/browser/test_first_game_*.py: the coach, the help sheet, the attract loop, the round's story and the recap,
the practice round).

The TV's attract loop runs in the lobby (what is drawn changes), stops when the game starts, and is replayed from
the host's pause and from the pause between rounds; it leaves the real seat plates clear.

Screenshots: ``screenshots/qa-first-attract-*.png``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from quatro_party.server.botstub import StubBot

from .qa_helpers import (
    PUBLIC,
    close_panel,
    open_panel,
    open_tv,
    ready_pages,
    socket_phone,
    tv_shot,
)

ATTRACT = "document.querySelector('#attract .attract-root') ? document.querySelector('#attract').innerText : ''"


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_tv_attract_loop_runs_stops_at_the_game_and_replays_from_the_pause(
    live_server, tv_context, screenshot_dir, phone_page
):
    ana, bruno = phone_page(live_server, 0, "Ana"), socket_phone(live_server, 1, "Bruno")
    tv = open_tv(tv_context, live_server)
    tv.wait("document.querySelector('#attract .attract-root') !== null")
    drawn = [tv.page.evaluate(ATTRACT)]
    tv_shot(tv, screenshot_dir, "first-attract-1")
    for n in (2, 3):
        tv.wait(f"({ATTRACT}) !== {drawn[-1]!r}", timeout=20)  # what is drawn changes over time
        tv.page.wait_for_timeout(700)
        drawn.append(tv.page.evaluate(ATTRACT))
        tv_shot(tv, screenshot_dir, f"first-attract-{n}")
    assert len(set(drawn)) == 3
    tv.page.click("#start-slot .start-game")
    tv.wait_phase("sign")
    tv.wait("document.querySelector('#attract').hidden && !document.querySelector('#attract .attract-root')")
    ready_pages([ana], [bruno])
    # the host pauses: the loop can be replayed from the pause card
    open_panel(tv)
    tv.page.click("#panel .pause-game")
    tv.wait("!document.querySelector('#paused').hidden")
    close_panel(tv)
    tv.page.click("#paused .how-to")
    tv.wait("document.querySelector('#attract .attract-root') !== null")
    replay = tv.page.evaluate(ATTRACT)
    tv.wait(f"({ATTRACT}) !== {replay!r}", timeout=20)  # it runs, not a still picture
    tv_shot(tv, screenshot_dir, "first-attract-replay-paused")
    expect(ana.page.locator("#paused-bar")).to_be_visible()
    # skip it, resume: the game is where it was
    skip = tv.page.locator("#attract .att-skip")
    if skip.count():
        skip.click()
    tv.wait("!document.querySelector('#attract .attract-root')", timeout=5)
    tv.page.click("#paused .resume")
    tv.wait("document.querySelector('#paused').hidden")
    assert live_server.summary()["view"]["phase"] == "play"
    # and from the pause between rounds
    assert bruno.act("call_contre", team=0)["type"] == "ok"
    tv.wait_phase("pause")
    tv.page.click("#corner .how-to")
    tv.wait("document.querySelector('#attract .attract-root') !== null")
    tv.page.wait_for_timeout(1200)
    tv_shot(tv, screenshot_dir, "first-attract-replay-between-rounds")
    assert tv.errors == [] and ana.errors == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_attract_loop_leaves_the_real_seat_plates_clear(live_server, tv_context):
    tv = open_tv(tv_context, live_server)
    tv.wait("document.querySelector('#attract .att-plate') !== null")
    tv.page.wait_for_timeout(1500)
    assert tv.overlaps("#attract .att-plate, #attract .att-card", ".seat") == []


#: Each visible button of the lobby outside the loop that something else covers at its centre (empty when none is).
COVERED = """() => [...document.querySelectorAll('button')].filter((b) => {
  if (b.closest('#attract')) return false;
  const r = b.getBoundingClientRect();
  if (!r.width || !r.height || r.right < 0 || r.bottom < 0 || r.left > innerWidth || r.top > innerHeight) return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !hit || !b.contains(hit);
}).map((b) => b.className + ' "' + b.textContent.trim() + '"')"""


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_attract_loop_is_unseen_until_its_stylesheet_comes(live_server, tv_context):
    """A slow host or Wi-Fi may send attract.css seconds after the loop's script: until it applies, the loop is
    not shown, and every button of the lobby stays under the host's pointer (unstyled, its layers covered them)."""
    held: list = []
    tv_context.route("**/screen/attract.css", lambda route: held.append(route))
    tv = open_tv(tv_context, live_server)
    tv.wait("document.querySelector('#attract .att-skip') !== null")
    assert held, "the loop's stylesheet was asked for"
    assert tv.page.evaluate("getComputedStyle(document.querySelector('#attract .att-skip')).visibility") == "hidden"
    assert tv.page.evaluate(COVERED) == []
    held[0].continue_()
    tv.wait("!document.querySelector('#attract [data-styling]')")
    assert tv.page.evaluate("getComputedStyle(document.querySelector('#attract .att-skip')).visibility") == "visible"
    assert tv.page.evaluate(COVERED) == []

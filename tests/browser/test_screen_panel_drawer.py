"""The host's panel is a drawer beside the table: the room keeps watching the table while the host clicks.

* At 1280×720 and 1920×1080, 8 seats in play, the open panel leaves every seat plate, every centre card and every
  channel lamp the topmost thing at its own centre (``document.elementFromPoint``): in view, not under the
  drawer nor veiled. The panel shows every player's whole name, with the number that tells look-alikes apart.
* One click from the open panel pauses the game: every clock stops (the TV's, and the phones' views).
* "Pause while this panel is open", the house setting: opening the panel pauses the game, closing it resumes.
Rules cited: R32 (the host's pause), R33 (seats), R17 (channels).
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from quatro_party.server.botstub import StubBot
from quatro_party.server.testing import LiveServer

from .pictures import snap
from .screen_helpers import ScreenPage

PUBLIC = "party.test"
# Two look-alikes (the second gets its number) and names of the 20 characters a party brings (R3).
NAMES = ["Alex", "AIex", "Maximilien-Alexandre", "Marie-Bénédicte Roux", "Ana", "Wolfgang Amadeus Moz", "Bob", "Zoé"]

#: Every plate, centre card and channel lamp whose centre is not its own (or under something else).
HIDDEN = """() => {
  const out = [];
  // The centre lets clicks through to the table (pointer-events: none): hit-test its cards as if it did not.
  const probe = document.createElement('style');
  probe.textContent = '#centre, #centre * { pointer-events: auto !important; }';
  document.head.append(probe);
  const parts = [...document.querySelectorAll('.seat, #places .card, .seat .lamp')];
  if (parts.filter((e) => e.matches('#places .card')).length !== 4) out.push('not 4 centre cards');
  for (const e of parts) {
    const r = e.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) { out.push('outside: ' + e.className); continue; }
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === e || e.contains(hit))) {
      out.push(e.className + ' "' + e.textContent.slice(0, 20) + '" under ' + (hit ? hit.id || hit.className : 'nothing'));
    }
  }
  for (const e of document.querySelectorAll('.seat, #places .card')) {
    for (let x = e; x; x = x.parentElement) {
      if (+getComputedStyle(x).opacity < 1) { out.push('veiled: ' + e.className); break; }
    }
  }
  probe.remove();
  return out;
}"""


def _seat_all(server: LiveServer, count: int) -> dict[int, Any]:
    phones = {}
    for seat in range(count):
        phones[seat] = server.phone()
        phones[seat].join(seat, NAMES[seat])
    return phones


def _to_play(server: LiveServer, phones: dict[int, Any]) -> None:
    assert server.screen().host("start_game")["type"] == "ok"
    for p in phones.values():
        p.wait_state(lambda v: v["phase"] == "sign")
        p.act("ready")
    for p in phones.values():
        p.wait_state(lambda v: v["phase"] == "play")


def _open_tv(context: Any, server: LiveServer) -> ScreenPage:
    screen = ScreenPage(context, server.screen_url(host=True))
    screen.wait_phase("play")
    return screen


def _open_panel(screen: ScreenPage) -> None:
    screen.page.click("#host-menu")
    screen.wait("!document.querySelector('#panel').hidden")


def _settle(screen: ScreenPage, w: int, h: int) -> None:
    screen.page.set_viewport_size({"width": w, "height": h})
    screen.wait(
        f"Math.abs(parseFloat(document.documentElement.style.getPropertyValue('--stage-scale')) - "
        f"Math.min({w} / 1920, {h} / 1080)) < 1e-6"
    )
    screen.page.wait_for_timeout(400)  # the plates placed again in the room the drawer leaves


@pytest.mark.live_server(seats=8, public_host=PUBLIC, bot_factory=StubBot)
def test_r32_the_open_panel_leaves_every_plate_card_and_channel_in_view_and_one_click_stops_every_clock(
    live_server, chromium, screenshot_dir
):
    phones = _seat_all(live_server, 8)
    _to_play(live_server, phones)
    assert phones[0].act("take_channel")["type"] == "ok"  # a lit channel lamp to keep in view (R17)
    context = chromium.new_context(viewport={"width": 1280, "height": 720}, locale="en-US")
    try:
        screen = _open_tv(context, live_server)
        screen.wait("document.querySelector('.seat .lamp') !== null")
        _open_panel(screen)
        for w, h in ((1280, 720), (1920, 1080)):
            _settle(screen, w, h)
            assert screen.page.evaluate(HIDDEN) == [], (w, h)
            snap(screen.page, screenshot_dir / f"panel-drawer-play-8-{w}x{h}.png")
        # Whole names, with their number: "AIex" (a capital i) is "AIex 2" beside "Alex", and nothing is cut.
        names = screen.page.evaluate(
            """() => [...document.querySelectorAll('#panel .panel-seat .pname')].map((e) =>
                 [e.textContent, e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1])"""
        )
        seated = [s["name"] for s in screen.view()["seats"]]
        assert [n for n, _ in names] == seated and "AIex 2" in seated and all(whole for _, whole in names)
        before = screen.view()["clock"]
        screen.page.click("#panel .pause-game")  # one click
        screen.wait("!!window.quatroScreen.view.paused")
        assert all(p.wait_state(lambda v: v["paused"] is not None)["paused"] == {"by": "host"} for p in phones.values())
        clock, left = screen.text("#clock"), screen.view()["clock"]
        time.sleep(1.5)
        assert screen.text("#clock") == clock and screen.view()["clock"] == left <= before
        assert screen.page.locator("#panel .resume").is_visible()  # and one click resumes
        snap(screen.page, screenshot_dir / "panel-drawer-paused-1920x1080.png")
        screen.page.click("#panel .resume")
        screen.wait("!window.quatroScreen.view.paused")
        assert screen.errors == []
    finally:
        context.close()


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_r32_pause_while_the_panel_is_open_is_a_house_setting(live_server, chromium):
    phones = _seat_all(live_server, 2)
    _to_play(live_server, phones)
    context = chromium.new_context(viewport={"width": 1280, "height": 720}, locale="en-US")
    try:
        screen = _open_tv(context, live_server)
        _open_panel(screen)
        assert not screen.view()["paused"]  # off by default: opening the panel pauses nothing
        screen.page.check("#panel .pause-with-panel input")  # on, while open: the game pauses at once
        screen.wait("!!window.quatroScreen.view.paused")
        screen.page.click("#panel .panel-close")  # closing resumes
        screen.wait("!window.quatroScreen.view.paused")
        assert phones[0].wait_state(lambda v: v["paused"] is None)["phase"] == "play"
        _open_panel(screen)  # kept on this screen: opening pauses again
        screen.wait("!!window.quatroScreen.view.paused")
        screen.page.reload()
        screen.wait_phase("play")
        screen.page.click("#paused .resume")
        screen.wait("!window.quatroScreen.view.paused")
        _open_panel(screen)  # the setting survived the reload
        screen.wait("!!window.quatroScreen.view.paused")
        screen.page.click("#panel .resume")  # the host resumed by hand: closing changes nothing more
        screen.wait("!window.quatroScreen.view.paused")
        screen.page.click("#panel .panel-close")
        time.sleep(0.5)
        assert not screen.view()["paused"]
        assert screen.errors == []
    finally:
        context.close()

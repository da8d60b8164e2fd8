"""axe-core (through axe-playwright-python) on every page state the browser tests reach, in every language the
pages speak: the TV (lobby, sign, play, reveal, game over), the phone (join, seated, sign, play with the help
sheet, the channel's tray open, a call's question, a spectator's, reveal, game over) and the rules page. Nothing
serious or critical may be found, and neither may the two landmarks a screen reader user jumps by first: a
level-one heading on every phone screen and a ``main`` landmark on every page.

The languages are the catalogs present (``web/i18n/<lang>.json``), or English and French while the words still live
in the pages' modules. Each page is told its language the way a player's choice is remembered, and the test checks
that the page really speaks it (``<html lang>``) before it asks axe.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from ..timeouts import limit_ms
from .conftest import phone_url
from .phone_helpers import SEEN_EVERY_HINT, seat_phones, set_position
from .pictures import snap
from .screen_checks import AT_REST
from .screen_helpers import ScreenPage

WEB = Path(__file__).resolve().parents[2] / "web"
CATALOGS = sorted(p.stem for p in (WEB / "i18n").glob("*.json"))
LANGUAGES = CATALOGS or ["en", "fr"]

#: What fails a page: axe's two highest impacts.
BLOCKING = {"serious", "critical"}
#: Moderate findings that are still fixed and kept fixed: the landmarks a screen reader user navigates by.
LANDMARKS = {"page-has-heading-one", "landmark-one-main"}

#: The page's seat 0 holds four aces, its partner (seat 2) none: the partner's Quatro! is wrong, and ends the round.
POSITION = "AAAA KKJJ QQJT TTJK | KQQT"

_AXE = Axe()

#: The TV's flying +1, caught as it appears and held midway (fully opaque, over the felt); kept on the page (its own
#: end removes it) until the test lets it go. True once there was one to hold.
HOLD_POINT = """() => { const points = document.querySelectorAll('.fly-plus');
  for (const p of points) { p.remove = () => {}; for (const a of p.getAnimations()) { a.pause(); a.currentTime = 700; } }
  return points.length > 0; }"""
LET_GO = "() => document.querySelectorAll('.fly-plus').forEach((p) => Element.prototype.remove.call(p))"


def findings(page: Any, where: str) -> list[str]:
    """What axe finds on the page at rest: the blocking impacts and the landmarks, one line each. Every motion that
    ends is waited for (the game over's 0.8 s entrance too: a contrast read mid-fade is a false finding), at most
    2 s; the TV's attract loop and the point held in flight are read as they are."""
    page.evaluate(AT_REST, limit_ms(2))
    result = _AXE.run(page)
    return [
        f"{where}: {v['id']} ({v['impact']}) × {len(v['nodes'])}: {v['nodes'][0]['target']} — {v['help']}"
        for v in result.response["violations"]
        if v["impact"] in BLOCKING or v["id"] in LANDMARKS
    ]


def speaking(lang: str) -> str:
    """An init script: a device whose player picked ``lang`` (the choice every page remembers)."""
    return f"localStorage.setItem('quatro.lang', {lang!r});"


def context_for(chromium: Any, lang: str, phone: bool) -> Any:
    size = {"width": 390, "height": 844} if phone else {"width": 1920, "height": 1080}
    context = chromium.new_context(
        viewport=size, device_scale_factor=2 if phone else 1, is_mobile=phone, has_touch=phone, locale=lang
    )
    context.add_init_script(speaking(lang))
    if phone:
        context.add_init_script(SEEN_EVERY_HINT)
    return context


# A whole game on two pages with some twenty axe runs: well over the suite's two minutes on a busy machine.
@pytest.mark.timeout(480)
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.live_server(seats=4, public_host="party.test")
def test_axe_finds_nothing_serious_on_any_page_state(live_server, chromium, screenshot_dir, lang):
    found: list[str] = []
    tv_context = context_for(chromium, lang, phone=False)
    phone_context = context_for(chromium, lang, phone=True)
    try:
        tv = ScreenPage(tv_context, live_server.screen_url(host=True))
        tv.wait("document.body.dataset.phase === 'lobby'")
        assert tv.page.evaluate("document.documentElement.lang") == lang
        page = phone_context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(phone_url(live_server.port))
        expect(page.locator("#screen-join")).to_be_visible()
        assert page.evaluate("document.documentElement.lang") == lang
        found += findings(page, "phone join")

        page.fill("#name", "Ana")
        page.locator('#seat-list [data-seat="0"]').tap()
        expect(page.locator("#screen-wait")).to_be_visible()
        expect(page.get_by_role("log")).to_be_attached()  # what a screen reader hears has come with the seat
        found += findings(page, "phone seated")
        others = seat_phones(live_server, {1: "Bruno", 2: "Chloé", 3: "Dora"})
        tv.wait("window.quatroScreen.view.seats.every((s) => s.kind === 'human')")
        found += findings(tv.page, "TV lobby")

        screen = live_server.screen()
        assert screen.host("start_game")["type"] == "ok"
        expect(page.locator("#screen-sign")).to_be_visible()
        tv.wait_phase("sign")
        found += findings(page, "phone sign")
        found += findings(tv.page, "TV sign")

        page.locator("#btn-ready").tap()
        for c in others.values():
            assert c.act("ready")["type"] == "ok"
        expect(page.locator("#screen-play")).to_be_visible()
        tv.wait_phase("play")
        set_position(live_server, POSITION)
        expect(page.locator("#carre-badge")).to_be_visible()
        found += findings(page, "phone play")
        found += findings(tv.page, "TV play")

        page.locator("#help").tap()  # the help sheet over the table
        expect(page.locator("#help-sheet")).to_be_visible()
        found += findings(page, "phone help")
        page.locator("#help-close").tap()
        expect(page.locator("#help-sheet")).to_have_count(0)

        audience_context = context_for(chromium, lang, phone=True)  # a spectator's phone, a device of its own
        try:
            audience = audience_context.new_page()
            audience.goto(phone_url(live_server.port))
            audience.locator("#btn-watch").tap()
            expect(audience.locator("#screen-watch")).to_be_visible()
            expect(audience.locator("#watch-body")).not_to_be_empty()
            found += findings(audience, "phone watching")
        finally:
            audience_context.close()

        page.locator("#btn-channel").tap()  # the tray of emojis opens (a radiogroup)
        expect(page.locator("#tray")).to_be_visible()
        page.locator("#tray-grid button").first.tap()
        found += findings(page, "phone play, tray open")

        page.locator("#btn-quatro").focus()
        page.keyboard.press("Enter")  # a keyboard's call asks first (R23 here: a carré of one's own)
        expect(page.locator("#modal")).to_be_visible()
        found += findings(page, "phone question")
        page.locator('#modal [data-action="cancel"]').click()
        expect(page.locator("#modal")).to_be_hidden()

        assert others[2].act("call_quatro", confirmed=False)["type"] == "ok"
        # the point flies to its team's score over the felt: checked in flight
        tv.page.wait_for_function(HOLD_POINT, polling="raf", timeout=20000)
        snap(tv.page, screenshot_dir / f"screen-a11y-point-{lang}.png")
        found += findings(tv.page, "TV reveal, the point flying")
        tv.page.evaluate(LET_GO)
        found += findings(tv.page, "TV reveal")
        expect(page.locator("#screen-reveal")).to_be_visible()
        expect(page.locator("#result-sentence")).to_be_visible()
        found += findings(page, "phone reveal")

        assert screen.host("end_game")["type"] == "ok"
        expect(page.locator("#screen-over")).to_be_visible()
        expect(page.locator("#over-body")).not_to_be_empty()
        tv.wait_phase("over")
        others[1].wait_state(lambda v: v["phase"] == "over")  # the seated sockets too (read, not just pending)
        found += findings(page, "phone game over")
        found += findings(tv.page, "TV game over")

        rules = tv_context.new_page()
        rules.goto(f"{live_server.url}/rules?lang={lang}")
        assert rules.evaluate("document.documentElement.lang") == lang
        found += findings(rules, "rules page")
        rules.set_viewport_size({"width": 390, "height": 844})
        found += findings(rules, "rules page, phone-sized")
        assert errors == [] and tv.errors == []
    finally:
        tv_context.close()
        phone_context.close()
    assert found == [], "\n".join(found)

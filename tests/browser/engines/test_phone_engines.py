"""The phone's main flow in the three browser engines players carry: Chromium (Android), WebKit (iPhones:
WebKitGTK, whose taps are mouse pointers) and Firefox (ESR, through WebDriver BiDi, with touch pointers). Join by
name and seat, pick and lock the sign, get ready, swap with the centre, take the channel and flash an emoji, call
Quatro by holding it, and reload: the page resumes its seat. A missing engine fails the test, it is never skipped.
Screenshots: ``screenshots/engine-<engine>-<state>.png``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from ..conftest import phone_url
from ..phone_helpers import SEEN_EVERY_HINT, seat_phones

ENGINES = ["chromium", "webkit", "firefox"]

#: Before a hold: ``window.ringFilled`` turns true once the page's hold ring has filled (its ``done`` class: the
#: call went out), at whatever pace the page runs.
FILLED_RING = """(() => {
  const ring = document.getElementById('hold-ring');
  window.ringFilled = false;
  new MutationObserver(() => { if (ring.classList.contains('done')) window.ringFilled = true; })
    .observe(ring, {attributes: true, attributeFilter: ['class']});
  return true;
})()"""


@pytest.fixture(scope="module")
def xvfb() -> Iterator[Any]:
    from .webkit import Xvfb

    try:
        display = Xvfb()
    except FileNotFoundError as e:
        pytest.fail(str(e))
    yield display
    display.close()


@pytest.fixture
def engine(request: pytest.FixtureRequest, chromium: Any) -> Iterator[tuple[str, Any]]:
    name = request.param
    if name == "chromium":
        from .chromium import Chromium

        driver: Any = Chromium(chromium)
    elif name == "webkit":
        from .webkit import WebKit

        try:
            driver = WebKit(request.getfixturevalue("xvfb").display)
        except FileNotFoundError as e:
            pytest.fail(str(e))
    else:
        from .firefox import Firefox

        try:
            driver = Firefox()
        except FileNotFoundError as e:
            pytest.fail(str(e))
    try:
        yield name, driver
    finally:
        driver.close()


def q(selector: str) -> str:
    return f"document.querySelector({json.dumps(selector)})"


def visible(selector: str) -> str:
    return f"(() => {{ const el = {q(selector)}; return !!el && !el.closest('[hidden]'); }})()"


def ranks(where: str) -> str:
    return f"[...document.querySelectorAll('{where} .card .rank')].map((e) => e.textContent).join(' ')"


@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=2.0)
@pytest.mark.parametrize("engine", ENGINES, indirect=True)
def test_phone_main_flow_in_every_engine(live_server, engine, screenshot_dir):
    name, page = engine
    # WebKitGTK cannot map party.test to this machine: it opens the page on 127.0.0.1 (see engines/webkit.py).
    url = f"http://127.0.0.1:{live_server.port}/" if name == "webkit" else phone_url(live_server.port)
    shots = screenshot_dir

    def shot(state: str) -> None:
        page.screenshot(shots / f"engine-{name}-{state}.png")

    page.viewport(390, 844)
    page.goto(url)
    # A device that has seen every coach hint (the coach's own tests are elsewhere): told before the page boots.
    page.js(f"(() => {{ {SEEN_EVERY_HINT} return true; }})()")
    page.reload()
    seat0 = q('#seat-list [data-seat="0"]')
    page.wait(f"{seat0} && !{seat0}.disabled", what="the seats")
    assert page.js("document.documentElement.clientWidth") == 390

    # Join: a name typed, a seat tapped.
    page.type("#name", "Zoé")
    page.tap('#seat-list [data-seat="0"]')
    page.wait(visible("#screen-wait"), what="the waiting room")
    token = page.js("localStorage.getItem('quatro.token')")
    assert token
    others = seat_phones(live_server, {1: "Bruno", 2: "Chloé", 3: "Dora"})
    screen = live_server.screen()
    assert screen.host("start_game")["type"] == "ok"

    # Sign: tap an emoji, lock it in, ready.
    page.wait(visible("#screen-sign"), what="the sign phase")
    fox = '#sign-body [data-emoji="🦊"]'
    page.wait(f"!!{q(fox)}", what="the signs")  # drawn by a module the page fetches when the phase comes
    page.tap(fox)
    page.tap("#btn-lock")
    page.wait(
        f"{q('.sign-big.fixed #team-sign')} && {q('.sign-big.fixed #team-sign')}.textContent === '🦊'",
        what="the sign fixed",
    )
    shot("sign")
    page.tap("#btn-ready")
    for c in others.values():
        assert c.act("ready")["type"] == "ok"
    page.wait(visible("#screen-play"), what="the round")

    # Swap: a card of the hand, then a centre place; the hand shows it (answered at the finger).
    live_server.table.set_position("AAKQ KKJJ QQJT TTJK | AAQT")
    page.wait(f"{ranks('#hand')} === 'A A K Q'", what="the laid-out hand")
    shot("play")
    page.tap('#hand [data-slot="2"]')
    slot2 = q('#hand [data-slot="2"]')
    page.wait(f"{slot2}.classList.contains('lifted')", what="the card lifted")
    page.tap('#centre [data-place="0"]')
    page.wait(f"{ranks('#hand')} === 'A A A Q' && {ranks('#centre')} === 'K A Q 10'", what="the swap")
    page.wait(f"{q('#finger')}.textContent === 'Swapped'", what="the finger's answer")
    # the table hears it too (its own socket, which may read it a moment after the page)
    others[1].wait_state(lambda v: [c["rank"] for c in v["centre"]] == ["K", "A", "Q", "10"], timeout=15)

    # Channel: the switch, an emoji, and the emoji goes out to the whole table (R17–R18).
    page.tap("#btn-channel")
    page.wait(f"{q('#btn-channel')}.checked && {visible('#tray')}", what="the channel held")
    page.tap('#tray-grid [data-emoji="🐙"]')
    others[3].expect(
        lambda m: m.get("type") == "state" and any(e["type"] == "emitted" and e["emoji"] == "🐙" for e in m["events"]),
        timeout=15,
    )
    lamp = q('#strip [data-seat="0"] .chip-emoji')
    page.wait(f"{lamp}.textContent === '🐙'", what="the emission on the strip")
    shot("channel")

    # A call: Quatro held until its ring has filled (a short tap would only say "Hold to call").
    page.js(FILLED_RING)
    page.hold("#btn-quatro", until="window.ringFilled", what="the hold's ring filled")
    page.wait(visible("#screen-reveal"), timeout=10, what="the reveal")
    page.wait(
        f"{q('#result-sentence')} && {q('#result-sentence')}.textContent.startsWith('Zoé called Quatro!')",
        what="the result",
    )
    shot("reveal")

    # Reload: the page resumes its seat (R33), no join screen.
    page.reload()
    page.wait(visible("#screen-reveal"), what="the resumed seat")
    assert page.js(visible("#screen-join")) is False
    assert page.js("localStorage.getItem('quatro.token')") == token
    others[1].wait_state(lambda v: v["seats"][0]["connected"] is True)
    shot("resumed")
    errors = getattr(page, "errors", [])
    assert errors == []
    for c in others.values():
        c.close()

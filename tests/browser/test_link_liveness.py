"""A socket that died without closing (flaky Wi-Fi: no close, no error, nothing passes) must be noticed by the page
itself: browsers never show the server's pings to JavaScript. ``Link`` (web/common/socket.js, phone and TV) says
hello again after a quiet spell and replaces the socket when nothing answers; a quiet but live socket (the lobby,
the pause) is kept, and the repeated hello changes nothing on the table (R33: the seat stays its player's).

The thresholds are shortened for the test through ``window.quatroLinkTiming`` (an init script), so nothing sleeps
for the real 10 s + 4 s. The sockets go through Playwright's WebSocket routing (``StateGate``): a "dead" socket
stays open in the browser but nothing passes either way.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from quatro_party.server.seats import HELLO_GAP

from ..timeouts import limit, limit_ms
from .conftest import phone_url
from .phone_helpers import StateGate, gated_page
from .screen_helpers import TV

#: A probe's answer travels server → page through this test process (the WebSocket routing): on a busy machine
#: that can take longer than a second (a full run beside two CPU-bound processes saw a quiet phone replace its live
#: socket three times with a 1.5 s window), and a live socket would be given up. So the answer window is the page's
#: own real 3 s, stretched by ``QUATRO_TEST_TIMEOUT_FACTOR``; only the quiet spell is shortened.
#: The quiet spell stays above the host's HELLO_GAP, as the real 10 s is: a probe sooner than that after the last
#: hello is answered only at the end of the gap (up to a second late), which ate into the answer window and, on a
#: loaded machine, had a live socket given up.
QUIET_MS, ANSWER_MS = round(HELLO_GAP * 1000) + 200, round(limit_ms(3.0))

#: How long a page may take to give up a dead socket: a whole quiet spell, the whole answer window, then a
#: margin for the new socket's hello and the banner (the waits below are derived from the window, not written
#: beside it, so a wider window cannot outgrow them).
GIVE_UP_MS = QUIET_MS + ANSWER_MS + round(limit_ms(3))

#: Short liveness thresholds, and a record of what the page showed: every state of its offline banner
#: (``null`` = hidden) and every notice the big screen added.
RECORDER = """
window.quatroLinkTiming = {quietMs: %d, answerMs: %d};
window.__banner = [];
window.__notices = [];
document.addEventListener('DOMContentLoaded', () => {
  const banner = document.querySelector('#status') || document.querySelector('#offline');
  const note = () => {
    const shown = banner.hidden ? null : banner.textContent;
    if (window.__banner[window.__banner.length - 1] !== shown) window.__banner.push(shown);
  };
  note();
  new MutationObserver(note).observe(banner, {attributes: true, childList: true, characterData: true, subtree: true});
  const list = document.querySelector('#notice-list');
  if (list) new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) window.__notices.push(n.textContent);
  }).observe(list, {childList: true});
});
""" % (QUIET_MS, ANSWER_MS)  # noqa: UP031 - a JavaScript template: its braces stay literal


def open_page(context: Any, url: str, path: str) -> tuple[Any, StateGate, list[str]]:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(RECORDER)
    gate = StateGate()
    gate.route(page, path)
    page.goto(url)
    return page, gate, errors


def banner_since_online(page: Any) -> list[str | None]:
    """What the offline banner showed since the page was first online (``None``: hidden)."""
    shown = page.evaluate("window.__banner")
    # The banner may start hidden while the page loads its words, then say "Connecting…": online is the first
    # hidden banner after that.
    first = next((i for i, b in enumerate(shown) if b is not None), None)
    if first is None:
        return shown[-1:]
    rest = shown[first:]
    return rest[rest.index(None) :] if None in rest else rest


def probes(gate: StateGate, connection: int = 1) -> list[dict[str, Any]]:
    """The liveness hellos the page sent on one of its sockets."""
    return [m for n, t in list(gate.sent) if n == connection and (m := json.loads(t)).get("id") == "probe"]


def seat_token(live_server: Any, context: Any, seat: int, name: str) -> None:
    """Take ``seat`` on a socket of the test's and leave its token in ``context``'s storage, so that its pages
    resume the seat with their first hello. Tapping the seat on the page raced the short quiet spell: beside two
    CPU-bound processes the page gave up its fresh socket with the join's reply in flight, and the seat stayed
    with an offline Ana (seen once). A hello with a token does the same on any socket, however many it takes."""
    phone = live_server.phone()
    phone.join(seat, name)
    context.add_init_script(f"localStorage.setItem('quatro.token', {json.dumps(phone.token)})")
    phone.close()


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r33_a_phone_replaces_a_socket_that_went_silent_and_shows_the_fresh_table(live_server, phone_context):
    seat_token(live_server, phone_context, 0, "Ana")
    page, gate, errors = open_page(phone_context, phone_url(live_server.port), "**/ws/phone")
    expect(page.locator("#screen-wait")).to_be_visible()
    expect(page.locator("#status")).to_be_hidden()
    first = gate.connections  # 1, unless a busy machine had the page replace a slow socket already

    alive = len(probes(gate, first))  # a slow machine may have had a quiet spell (answered) already
    gate.kill_current()  # the Wi-Fi went bad: the socket looks open, but nothing passes any more
    bob = live_server.phone()
    bob.join(1, "Bob")  # the table moves on meanwhile
    page.wait_for_timeout(300)
    expect(page.locator("#wait-body")).not_to_contain_text("Bob")  # stale, as it would be

    # No visibilitychange, no online event: the page finds out by itself (quiet → hello → no answer → new socket).
    page.wait_for_function("() => window.__banner.includes('Connection lost — reconnecting…')", timeout=GIVE_UP_MS)
    expect(page.locator("#wait-body")).to_contain_text("Bob", timeout=limit_ms(5))
    expect(page.locator("#status")).to_be_hidden()
    expect(page.locator("#screen-wait")).to_be_visible()  # the same seat, resumed by the new socket's hello
    assert gate.connections == first + 1
    assert len(probes(gate, first)) == alive + 1  # one hello on the dead socket, then it was given up
    seats = live_server.table.call(lambda: [(s.name, s.connected) for s in live_server.table.game.seats])
    assert seats[0] == ("Ana", True) and seats[1] == ("Bob", True)
    assert errors == []
    bob.close()


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r33_a_quiet_lobby_keeps_its_sockets_and_the_repeated_hello_changes_nothing(
    live_server, phone_context, chromium
):
    seat_token(live_server, phone_context, 0, "Ana")
    seated, seated_gate, errors = open_page(phone_context, phone_url(live_server.port), "**/ws/phone")
    expect(seated.locator("#screen-wait")).to_be_visible()
    other_phone = chromium.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="en-US"
    )  # its own storage: no token
    looking, looking_gate, errors2 = open_page(other_phone, phone_url(live_server.port), "**/ws/phone")
    expect(looking.locator("#seat-list")).to_be_visible()  # no token: it only looks at the table

    before_join = len(probes(seated_gate))  # a slow machine may have probed already
    # several quiet spells (two probes each; a loaded machine may take longer than 2 x 1.2 s: one full run saw a
    # single probe in 10 s): nothing happens
    for _ in range(int(limit(30) * 10)):
        if len(probes(seated_gate)) >= before_join + 2 and len(probes(looking_gate)) >= 2:
            break
        seated.wait_for_timeout(100)

    for page, gate in ((seated, seated_gate), (looking, looking_gate)):
        assert len(probes(gate)) >= 2, "the quiet socket was not checked"
        assert gate.connections == 1, "a quiet but live socket was replaced"
        assert banner_since_online(page) == [None], "the page showed itself offline"
    tokens = {m.get("token") is None for m in probes(seated_gate)[before_join:]}
    assert tokens == {False}  # the seated page's hello carries its token: its seat stays its own
    expect(seated.locator("#screen-wait")).to_be_visible()
    expect(looking.locator("#seat-list")).to_be_visible()
    seats = live_server.table.call(lambda: [(s.kind.value, s.name, s.connected) for s in live_server.table.game.seats])
    assert seats[0] == ("human", "Ana", True) and [s[0] for s in seats[1:]] == ["empty"] * 3
    assert errors == [] and errors2 == []
    other_phone.close()


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_the_tv_replaces_a_socket_that_went_silent_and_keeps_its_host_controls(live_server, chromium):
    context = chromium.new_context(viewport=TV, locale="en-US")
    page, gate, errors = open_page(context, live_server.screen_url(), "**/ws/screen")
    page.wait_for_function(
        "document.querySelectorAll('.seat').length === 4 && document.body.classList.contains('is-host')"
    )
    # quiet lobby: probed, answered, kept (a second probe on the same socket), still the host
    for _ in range(int(limit(10) * 10)):
        if len(probes(gate)) >= 2:
            break
        page.wait_for_timeout(100)
    assert len(probes(gate)) >= 1 and gate.connections == 1
    assert banner_since_online(page) == [None]
    assert page.evaluate("document.body.classList.contains('is-host')")

    online = len(page.evaluate("window.__banner"))
    gate.kill_current()
    ana = live_server.phone()
    ana.join(0, "Ana")
    page.wait_for_function(
        f"() => window.__banner.slice({online}).some((b) => b !== null)", timeout=GIVE_UP_MS
    )  # offline
    page.wait_for_function(
        "document.querySelector('.seat[data-seat=\"0\"]').textContent.includes('Ana')", timeout=limit_ms(5)
    )
    expect(page.locator("#offline")).to_be_hidden()
    assert gate.connections == 2
    assert page.evaluate("document.body.classList.contains('is-host')")
    page.click('.seat[data-seat="1"] .add-bot')  # the host controls work on the new socket
    page.wait_for_function("document.querySelector('.seat[data-seat=\"1\"]').classList.contains('kind-bot')")
    assert errors == []
    ana.close()
    context.close()


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_a_watching_screen_with_a_wrong_host_link_is_told_once_not_at_every_check(live_server, chromium):
    context = chromium.new_context(viewport=TV, locale="en-US")
    page, gate, errors = open_page(context, live_server.screen_url(host=False) + "#host=not-the-secret", "**/ws/screen")
    # Said once, in a banner that stays (with how to get the controls back), not in a notice at every check.
    page.wait_for_function("(b => b && !b.hidden)(document.querySelector('#lost-rights'))")
    for _ in range(int(limit(10) * 10)):  # at least two quiet spells (a loaded machine may take longer than 2 x 1.2 s)
        if len(probes(gate)) >= 2:
            break
        page.wait_for_timeout(100)
    assert len(probes(gate)) >= 2 and gate.connections == 1  # the probes were answered (with the same error)
    assert "no longer has the host’s controls" in page.inner_text("#lost-rights")
    assert not [n for n in page.evaluate("window.__notices") if "host link" in n.lower()]
    assert errors == []
    context.close()


@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=4.0)
def test_r33_a_page_frozen_for_30_s_gets_its_seat_and_hand_back_within_2_s_of_thawing(live_server, phone_context):
    """A phone put to sleep as WebKit does it: the page's scripts stop (Chromium's frozen lifecycle state, what a
    backgrounded tab gets) and its socket stays 'open' with nothing flowing. Thawed after 30 s, the page must not
    wait for a probe to time out: a new socket, the seat and the fresh hand within 2 s. The real liveness timings
    are kept (no ``quatroLinkTiming``): they must not stand between a thawed page and its seat."""
    import time

    from .phone_helpers import everybody_ready, hand_ids, latest_view, seat_phones

    page, gate, errors = gated_page(phone_context, live_server.port)
    page.fill("#name", "Ana")
    page.locator('#seat-list [data-seat="0"]').tap()
    expect(page.locator("#screen-wait")).to_be_visible()
    others = seat_phones(live_server, {1: "Bruno", 2: "Chloé", 3: "Dora"})
    assert live_server.screen().host("start_game")["type"] == "ok"
    expect(page.locator("#screen-sign")).to_be_visible()
    everybody_ready(page, others)
    live_server.table.set_position("AAKQ KKJJ QQJT TTJK | AAQT")
    expect(page.locator("#hand .card .rank")).to_have_text(["A", "A", "K", "Q"])

    cdp = phone_context.new_cdp_session(page)
    cdp.send("Page.setWebLifecycleState", {"state": "frozen"})
    gate.kill_current()  # the socket stays open in the browser, but nothing passes any more
    # The table moves on meanwhile: the page's hand changes (the host lays out a new position).
    live_server.table.set_position("KKJJ AAKQ QQJT TTJK | AAQT")
    time.sleep(30)
    assert gate.connections == 1
    thawed = time.monotonic()
    cdp.send("Page.setWebLifecycleState", {"state": "active"})
    expect(page.locator("#hand .card .rank")).to_have_text(["K", "K", "J", "J"], timeout=limit_ms(2))
    back = time.monotonic() - thawed
    assert back < limit(2.0), back
    expect(page.locator("#screen-play")).to_be_visible()
    assert gate.connections == 2  # a new socket, at once
    view = latest_view(others[1])
    assert view["seats"][0]["connected"] is True and view["seats"][0]["name"] == "Ana"
    assert hand_ids(others[1])  # the other phones still play
    assert errors == []
    for c in others.values():
        c.close()


#: The page goes to the background and comes back (what iOS does when the phone is locked): visibilityState is
#: what the page reads, so it is set for the page, then the event fires.
SET_VISIBILITY = """(state) => {
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => state === 'hidden'});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r33_back_from_the_background_a_zombie_socket_is_replaced_at_once_not_probed(live_server, phone_context):
    """Back from the background after longer than a probe's answer window, the page does not ask its old socket
    first (iOS keeps it looking open with nothing flowing): it opens a new one at once. Here the old socket is a
    zombie and the answer window is 10 s: the seat is back long before a probe could have given up."""
    page = phone_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script("window.quatroLinkTiming = {quietMs: 60000, answerMs: 10000};")
    gate = StateGate()
    gate.route(page)
    page.goto(phone_url(live_server.port))
    page.fill("#name", "Ana")
    page.locator('#seat-list [data-seat="0"]').tap()
    expect(page.locator("#screen-wait")).to_be_visible()
    page.evaluate(SET_VISIBILITY, "hidden")
    gate.kill_current()
    bob = live_server.phone()
    bob.join(1, "Bob")  # the table moved on while the phone was away
    page.wait_for_timeout(10_500)  # away for longer than the answer window
    page.evaluate(SET_VISIBILITY, "visible")
    expect(page.locator("#wait-body")).to_contain_text("Bob", timeout=limit_ms(2))  # fresh view, far inside 10 s
    assert gate.connections == 2
    assert not probes(gate, 1), "the zombie was probed first"
    expect(page.locator("#screen-wait")).to_be_visible()  # the same seat
    assert errors == []
    bob.close()

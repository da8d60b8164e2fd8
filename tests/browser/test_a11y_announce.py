"""What a screen reader hears does not flood (R18): with three channels held and flashing every emission period,
the phone says the flashes worth telling in one polite sentence at a time — at most about one sentence an emission
period (the view's timing), each naming every seat that flashed — never one sentence a flash. In French, too."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .phone_helpers import everybody_ready, game_with_page, latest_view

#: Every sentence the log adds, with when (performance.now(), ms), recorded by the page itself.
RECORD = """() => { window.heard = []; const log = document.querySelector('[role="log"]');
  new MutationObserver((changes) => { for (const c of changes) for (const n of c.addedNodes)
    window.heard.push([performance.now(), n.textContent]); }).observe(log, { childList: true }); }"""


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=0.4)
def test_r18_an_emission_periods_flashes_are_said_in_one_sentence(live_server, phone_context, lang):
    page, errors, others, screen = game_with_page(live_server, phone_context)
    if lang == "fr":
        page.evaluate("localStorage.setItem('quatro.lang', 'fr')")
        page.reload()
        expect(page.locator("#screen-sign")).to_be_visible()
    everybody_ready(page, others)
    period = latest_view(others[1])["timing"]["emission_period"]
    sign = latest_view(others[2])["you"]["sign"]
    page.evaluate(RECORD)
    for seat, emoji in ((2, sign), (1, "🐙"), (3, "🌙" if sign != "🌙" else "🦊")):
        assert others[seat].act("take_channel")["type"] == "ok"
        assert others[seat].act("choose_emoji", emoji=emoji)["type"] == "ok"
    page.wait_for_function(
        "window.heard.length >= 4 && window.heard.some(([, s]) => s.includes('Dora'))", timeout=30000
    )
    heard = page.evaluate("window.heard")
    screen.drain(0.3)
    span = (heard[-1][0] - heard[0][0]) / 1000
    emitted = sum(
        1 for m in screen.messages if m.get("type") == "state" for e in m.get("events", ()) if e["type"] == "emitted"
    )
    # one sentence a period at most (a partner's sign may be said a gather sooner: one more), many flashes in each
    assert len(heard) <= span / period + 2, (span, period, heard)
    assert emitted >= 2 * len(heard), (emitted, heard)
    last = heard[-1][1]
    assert all(name in last for name in ("Chloé", "Bruno", "Dora")), heard
    partner = "ton partenaire, montre votre signe" if lang == "fr" else "your partner, flashes your sign"
    assert f"Chloé, {partner} {sign}." in last
    assert errors == []

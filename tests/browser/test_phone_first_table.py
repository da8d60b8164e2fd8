"""The phone for a first-time table: it teaches instead of trapping.

* R10: a tap on last round's crossed-out sign says why, at the finger; so does a tap once the team's sign is fixed;
* a practice round says so on the phone (sign phase, the top bar in play), and scores no point;
* on a locked table the join page offers no "Watch" that would do nothing;
* the Contre! result names who held the carré, and the host ending the game early says so and who led;
* on small phones (360×640, 360×740, and sideways): the tray's tiles are a fingertip (44 px) on their short side,
  a tap's answer never lies over the hand, the seat strip or help, and neither does a coach's tip.

Screenshots: ``screenshots/phone-first-<what>-<size>.png``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .phone_helpers import (
    COVERS,
    KEEP_FINGER,
    SETTLED,
    everybody_ready,
    game_with_page,
    latest_view,
    set_position,
    shot,
)
from .pictures import snap

#: The tray's tiles, their short side.
TILES = """() => [...document.querySelectorAll('#tray-grid .emoji-tile')].map((e) => e.getBoundingClientRect())
  .filter((r) => r.width).map((r) => Math.min(r.width, r.height))"""


@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=2.0)
def test_r10_a_tap_on_a_sign_that_cannot_be_picked_says_why_at_the_finger(live_server, phone_context, screenshot_dir):
    page, errors, others, screen = game_with_page(live_server, phone_context)
    page.locator('#sign-body [data-emoji="🦊"]').tap()
    page.locator("#btn-lock").tap()
    expect(page.locator("#team-sign")).to_have_text("🦊")
    expect(page.locator("#btn-lock")).to_have_count(0)  # the host took it: until then a tap picks another sign
    page.locator('#sign-body [data-emoji="🐙"]').tap(force=True)  # fixed for this round (aria-disabled): told why
    expect(page.locator("#finger")).to_be_visible()
    expect(page.locator("#finger")).to_contain_text("fixed")
    expect(page.locator("#team-sign")).to_have_text("🦊")
    everybody_ready(page, others)
    assert others[1].act("call_quatro", confirmed=True)["type"] == "ok"  # the round ends; the next one's signs
    expect(page.locator("#screen-reveal")).to_be_visible()
    assert screen.host("next_round")["type"] == "ok"
    expect(page.locator("#screen-sign")).to_be_visible()
    last = page.locator('#sign-body [data-emoji="🦊"]')
    expect(last).to_have_class(re.compile(r"\blast\b"))
    expect(last).to_have_attribute("aria-disabled", "true")
    last.tap(force=True)  # aria-disabled: a finger still lands on it
    finger = page.locator("#finger")
    expect(finger).to_be_visible()
    expect(finger).to_have_text("🦊 was your team’s sign last round: pick another one.")
    # Both boxes in one look while the bubble shows (it fades after a moment: on a loaded machine two reads from
    # here could come after it went).
    at = page.wait_for_function(
        """(tile) => {
            const f = document.querySelector('#finger');
            const a = f && f.getBoundingClientRect(), b = tile.getBoundingClientRect();
            return a && a.width ? {finger: a.x + a.width / 2, width: a.width, tile: b.x + b.width / 2} : null;
        }""",
        arg=last.element_handle(),
    ).json_value()
    assert abs(at["finger"] - at["tile"]) < at["width"], ("not at the finger", at)
    expect(page.locator("#team-sign")).to_have_text("?")  # nothing picked
    shot(page, screenshot_dir, "first-crossed-out-sign")
    page.locator('#sign-body [data-emoji="🐙"]').tap()  # another one is picked as usual
    expect(page.locator("#team-sign")).to_have_text("🐙")
    assert errors == []


@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=2.0)
def test_a_practice_round_says_so_on_the_phone(live_server, phone_context, screenshot_dir):
    from .conftest import phone_url
    from .phone_helpers import join_on_page, seat_phones

    page, errors = join_on_page(phone_context, phone_url(live_server.port), 0, "Ana")
    others = seat_phones(live_server, {1: "Bruno"})
    screen = live_server.screen()
    assert screen.host("start_practice")["type"] == "ok"
    expect(page.locator("#sign-body .eyebrow")).to_have_text("Practice round — no points")
    page.locator("#btn-ready").tap()
    assert others[1].act("ready")["type"] == "ok"
    expect(page.locator("#screen-play")).to_be_visible()
    expect(page.locator("#practice-pill")).to_have_text("Practice")
    expect(page.locator("#scores .score")).to_have_count(0)  # no 0–0 that would never move
    shot(page, screenshot_dir, "first-practice-play")
    assert others[1].act("call_quatro", confirmed=True)["type"] == "ok"
    expect(page.locator("#screen-reveal .practice-tag")).to_be_visible()
    assert errors == []


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_a_locked_table_offers_no_watch_button_that_does_nothing(live_server, phone_page):
    screen = live_server.screen()
    phone = phone_page(live_server)
    expect(phone.page.locator("#btn-watch")).to_be_visible()
    assert screen.host("lock", locked=True)["type"] == "ok"
    expect(phone.page.locator("#btn-watch")).to_be_hidden()
    expect(phone.page.locator("#join-msg")).to_contain_text("locked")
    assert screen.host("lock", locked=False)["type"] == "ok"
    expect(phone.page.locator("#btn-watch")).to_be_visible()
    assert phone.errors == []


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=2.0)
def test_r24_the_contre_result_names_who_held_the_carre_and_the_host_ending_says_who_led(
    live_server, phone_page, screenshot_dir, lang
):
    """R24, R35: Bruno cracks Chloé's carré; then the host ends the game at 0–1."""
    from .phone_helpers import seat_phones

    ana = phone_page(live_server, 0, "Ana", lang=lang)
    others = seat_phones(live_server, {1: "Bruno", 2: "Chloé", 3: "Dora"})
    screen = live_server.screen()
    assert screen.host("start_game")["type"] == "ok"
    everybody_ready(ana.page, others)
    set_position(live_server, "KQJT KQJT AAAA KQJT | KQJT")
    latest_view(others[1])
    assert others[1].act("call_contre", team=0)["type"] == "ok"
    sentence = ana.page.locator("#result-sentence")
    if lang == "en":
        expect(sentence).to_have_text("Bruno called Contre! on Blue ● — Chloé had a carré. Orange ▲ scores.")
    else:
        expect(sentence).to_have_text("Bruno a annoncé Contre ! contre Bleu ● — Chloé avait un carré. Orange ▲ marque.")
    assert screen.host("end_game")["type"] == "ok"
    said = ana.page.locator("#over-winners")
    if lang == "en":
        expect(said).to_have_text("The host ended the game: Orange ▲ led with 1 point.")
    else:
        expect(said).to_have_text("L’hôte a terminé la partie : Orange ▲ menait avec 1 point.")
    snap(ana.page, screenshot_dir / f"phone-first-host-ended-{lang}.png")
    assert ana.errors == []


@pytest.mark.parametrize("size", [(360, 640), (360, 740), (844, 390)], ids=["360x640", "360x740", "844x390"])
@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=2.0)
def test_on_small_phones_fingertip_tiles_and_no_bubble_over_the_hand_the_strip_or_help(
    live_server, phone_page, screenshot_dir, size
):
    """A phone that never played (the coach speaks), at 360 px wide and sideways."""
    w, h = size
    phone = phone_page(live_server, 0, "Ana", size=size, fresh=True)
    page = phone.page
    from .phone_helpers import seat_phones

    others = seat_phones(live_server, {1: "Bruno", 2: "Chloé Marie-Anne", 3: "Dora"})
    screen = live_server.screen()
    assert screen.host("start_game")["type"] == "ok"
    expect(page.locator('.coach[data-hint="sign"]')).to_be_visible()
    page.locator(".coach .coach-ok").tap()
    everybody_ready(page, others)
    set_position(live_server, "AAKQ KKJJ QQJT TTJK | AAQT")
    tips = 0
    for _ in range(3):  # the first hints of play (the centre, the cooldown, the channel): none hides what matters
        coach = page.locator(".coach")
        if coach.count() == 0:
            page.locator("#hand .card").first.tap()
            page.locator("#centre .card").first.tap()
            page.wait_for_timeout(600)
        if coach.count() == 0 or not coach.is_visible():
            continue
        page.wait_for_timeout(300)  # placed again once its stylesheet applies
        covers = page.evaluate(COVERS, ".coach")
        hint = coach.get_attribute("data-hint")
        snap(page, screenshot_dir / f"phone-first-tip-{hint}-{w}x{h}.png")
        assert covers == [], f"the {hint} tip covers {covers} at {w}x{h}"
        tips += 1
        coach.locator(".coach-ok").tap()
    assert tips >= 1, "no coach tip came"
    page.evaluate(KEEP_FINGER)
    page.locator("#btn-channel").tap()  # its answer at the finger: beside the hand, never over it
    expect(page.locator("#tray")).to_be_visible()
    page.wait_for_function("window.__finger !== null")
    # Where the bubble showed, against the hand, strip and help once the tray has finished opening (a 2 px overlap
    # was once measured while it still moved).
    covers = page.evaluate(f"async () => {{ await ({SETTLED})(); return ({COVERS})(window.__finger); }}")
    snap(page, screenshot_dir / f"phone-first-tray-{w}x{h}.png")
    assert covers == [], f"the channel's answer covers {covers} at {w}x{h}"
    tiles = page.evaluate(TILES)
    assert len(tiles) == 24
    if h > w:  # sideways the tray has a narrow column of its own, and the cards keep their size
        assert min(tiles) >= 44, f"tray tiles {min(tiles):.1f} px on their short side at {w}x{h}"
    assert phone.errors == []


def test_r11_the_first_sign_phase_keeps_its_time_while_the_coachs_tip_is_read(live_server_factory, phone_page):
    """R11 on an injected clock: a first-timer reads the sign tip for 45 s (past the 30 s of later rounds); the sign
    phase is still open, the tip still there; at 60 s the round opens anyway."""
    from quatro_party.server.testing import FakeClock

    from .phone_helpers import seat_phones

    clock = FakeClock()
    server = live_server_factory(seats=4, public_host="party.test", clock=clock)
    phone = phone_page(server, 0, "Ana", fresh=True)
    others = seat_phones(server, {1: "Bruno"})
    assert server.screen().host("start_game")["type"] == "ok"
    tip = phone.page.locator('.coach[data-hint="sign"]')
    expect(tip).to_be_visible()
    assert others[1].wait_state(lambda v: v["phase"] == "sign")["clock"] == 60.0
    clock.advance(45.0)
    server.table.poke()
    assert server.summary()["view"]["phase"] == "sign"
    expect(phone.page.locator("#screen-sign")).to_be_visible()
    expect(tip).to_be_visible()
    clock.advance(15.0)
    server.table.poke()
    expect(phone.page.locator("#screen-play")).to_be_visible()  # R11: at 60 s the round opens, R12 signs drawn
    assert phone.errors == []

"""A first-time table learns Quatro from the app itself, across the TV page and real phone pages of one real game
(tests/browser/test_first_game_*.py: the coach, the help sheet, the attract loop, the round's story and the recap,
the practice round).

A phone that never played (a fresh browser context) at 390×844, 360×640 and 844×390 (turned sideways), in English
and French, sees each coach hint at its moment in a real game: the sign phase, the first play, the first cooldown,
the channel, its partner flashing the team's sign (a socket phone), an opponent's repeated flash, a call; no bubble
lies over the hand or the centre, and a calm hint waits rather than lie over the open emoji tray. A dismissed hint
stays dismissed after a reload.

Screenshots: ``screenshots/qa-first-coach-*.png``.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from ..clocks import StoppableClock
from ..timeouts import limit_ms
from .phone_helpers import COVERS, KEEP_FINGER, SETTLED, entered, seat_phones
from .qa_helpers import (
    PUBLIC,
    SIZES,
    emitted,
    ready_pages,
)

WORDS = {
    "sign": ("everybody sees your flashes", "tout le monde voit ce que tu émets"),
    "hand": ("Tap one of yours", "Touche une des tiennes"),
    "cooldown": ("After a swap you wait", "Après un échange, tu attends"),
    "channel": ("Take the channel", "Prends la main"),
    "partner_sign": ("your sign", "votre signe"),
    "contre": ("keeps flashing", "fait sans cesse"),
    "one_call": ("One call ends the round", "La première annonce termine la manche"),
    "vote": ("silence means no", "sans réponse, c’est non"),
}

#: The hint bubble is on the screen, its words fit in it, and it leaves the cards in play in sight (lying over the
#: seat strip instead, its control glowing, where no place beside the control would).
FITS = """() => {
  const b = document.querySelector('.coach');
  if (!b || b.hidden) return ['no bubble'];
  const bad = [];
  const r = b.getBoundingClientRect();
  if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) bad.push('off the screen');
  for (const e of b.querySelectorAll('.coach-text, .coach-ok, .coach-label'))
    if (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1) bad.push('overflow ' + e.className);
  for (const id of ['hand-zone', 'centre']) {
    const z = document.getElementById(id);
    if (!z || !z.getClientRects().length) continue;
    const q = z.getBoundingClientRect();
    if (r.left < q.right - 1 && q.left < r.right - 1 && r.top < q.bottom - 1 && q.top < r.bottom - 1) bad.push('covers #' + id);
  }
  if (b.dataset.side === 'over' && b.dataset.hint !== 'sign' && !document.querySelector('.coach-target'))
    bad.push('over the strip, but its control does not glow');
  return bad;
}"""


def hint_shows(page, key: str, lang: str, timeout: float = 15) -> None:
    bubble = page.locator(f'.coach[data-hint="{key}"]')
    expect(bubble).to_be_visible(timeout=limit_ms(timeout))
    said = bubble.locator(".coach-text").inner_text().replace("\xa0", " ")
    assert WORDS[key][0 if lang == "en" else 1].lower() in said.lower(), (key, said)
    entered(bubble)  # the fade-in
    assert page.evaluate(FITS) == [], key


def dismiss(page, key: str) -> None:
    page.locator(f'.coach[data-hint="{key}"] .coach-ok').tap()
    expect(page.locator(f'.coach[data-hint="{key}"]')).to_have_count(0)


#: Which of the elements with the given ids the shown hint bubble lies over; ``null`` when no bubble is in sight.
OVER = """(ids) => {
  const b = document.querySelector('.coach');
  if (!b || b.hidden || getComputedStyle(b).visibility === 'hidden') return null;
  const r = b.getBoundingClientRect();
  return ids.filter((id) => {
    const z = document.getElementById(id);
    if (!z || z.closest('[hidden]') || !z.getClientRects().length) return false;
    const q = z.getBoundingClientRect();
    return r.left < q.right - 1 && q.left < r.right - 1 && r.top < q.bottom - 1 && q.top < r.bottom - 1;
  });
}"""
TRAY_OR_HAND = ["hand-zone", "tray"]
CALLS = ["btn-quatro", "btn-contre"]


def first_play(live_server_factory, phone_page, size: str):
    """A fresh phone (a device that never played) on seat 0 at ``size``, socket phones on the other seats, the game
    started, the sign hint read and everybody ready: the first play begins. Returns (server, Ana's page, phones)."""
    live_server = live_server_factory(seats=4, public_host=PUBLIC, time_scale=0.6)
    ana = phone_page(live_server, 0, "Ana", size=SIZES[size], fresh=True)
    others = seat_phones(live_server, {1: "Bruno", 2: "Chloé", 3: "Dora"})
    assert live_server.screen().host("start_game")["type"] == "ok"
    hint_shows(ana.page, "sign", "en")
    dismiss(ana.page, "sign")
    ready_pages([ana], list(others.values()))
    return live_server, ana, others


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_phone_that_never_played_sees_each_hint_at_its_moment_in_a_real_game(
    live_server_factory, screenshot_dir, phone_page, lang, size
):
    # The table's clock stops while a phase with a timer of its own (the sign phase, the pause after the call) is
    # looked at, so that it lasts as long as its checks take; it runs in between (cooldowns, emission periods).
    clock = StoppableClock()
    live_server = live_server_factory(seats=4, public_host=PUBLIC, time_scale=0.6, clock=clock)
    ana = phone_page(live_server, 0, "Ana", size=SIZES[size], lang=lang, fresh=True)
    page = ana.page
    others = seat_phones(live_server, {1: "Bruno", 2: "Chloé", 3: "Dora"})
    assert live_server.screen().host("start_game")["type"] == "ok"
    clock.stop()
    expect(page.locator("#screen-sign")).to_be_visible()
    tag = f"{lang}-{size}"
    # the sign phase
    hint_shows(page, "sign", lang)
    ana.shot(screenshot_dir, f"first-coach-sign-{tag}")
    dismiss(page, "sign")
    page.reload()  # a dismissed hint stays dismissed
    expect(page.locator("#screen-sign")).to_be_visible()
    page.wait_for_timeout(600)
    expect(page.locator(".coach")).to_have_count(0)
    view = others[1].wait_state(lambda v: v["phase"] == "sign")
    partner = view["seats"][0]["team"]
    seat_of = {s["seat"]: s["team"] for s in view["seats"]}
    mate = next(s for s, t in seat_of.items() if t == partner and s != 0)
    rival = next(s for s, t in seat_of.items() if t != partner)
    clock.start()
    ready_pages([ana], list(others.values()))
    # the first play: the hand and the centre
    hint_shows(page, "hand", lang)
    ana.shot(screenshot_dir, f"first-coach-hand-{tag}")
    dismiss(page, "hand")
    # the first swap: the cooldown
    page.locator("#hand .card").first.tap()
    page.locator("#centre .card").first.tap()
    hint_shows(page, "cooldown", lang)
    ana.shot(screenshot_dir, f"first-coach-cooldown-{tag}")
    dismiss(page, "cooldown")
    # the channel (it waits for the next frame: an opponent's swap, say)
    others[rival].act("take_channel")
    hint_shows(page, "channel", lang)
    ana.shot(screenshot_dir, f"first-coach-channel-{tag}")
    dismiss(page, "channel")
    # the partner flashes the team's sign
    sign = others[mate].wait_state(lambda v: v["phase"] == "play")["you"]["sign"]
    assert others[mate].act("take_channel")["type"] == "ok"
    assert others[mate].act("choose_emoji", emoji=sign)["type"] == "ok"
    emitted(others[mate], mate, sign)
    hint_shows(page, "partner_sign", lang)
    assert sign in page.locator(".coach .coach-text").inner_text()
    ana.shot(screenshot_dir, f"first-coach-partner-sign-{tag}")
    dismiss(page, "partner_sign")
    assert others[mate].act("release_channel")["type"] in ("ok", "refused")
    # an opponent flashes the same emoji again and again
    decoy = next(e for e in view["signs"] if e != sign)
    assert others[rival].act("choose_emoji", emoji=decoy)["type"] == "ok"
    emitted(others[rival], rival, decoy)
    emitted(others[rival], rival, decoy)
    hint_shows(page, "contre", lang)
    ana.shot(screenshot_dir, f"first-coach-contre-{tag}")
    dismiss(page, "contre")
    # a call ends the round
    assert others[rival].act("call_contre", team=partner)["type"] == "ok"
    clock.stop()
    expect(page.locator("#screen-reveal")).to_be_visible()
    hint_shows(page, "one_call", lang)
    ana.shot(screenshot_dir, f"first-coach-one-call-{tag}")
    dismiss(page, "one_call")
    seen = json.loads(page.evaluate("localStorage.getItem('quatro.coach.seen')"))
    assert set(WORDS) - {"vote"} <= set(seen)  # every hint of this game (no vote in it)
    assert ana.errors == []


#: Every tile in sight in the open emoji tray (its rows scroll sideways) can be tapped: what lies at its centre is
#: the tile, not a hint bubble. Returns the tiles that cannot, and how many were in sight.
TRAY_FREE = """() => {
  const grid = document.querySelector('#tray-grid').getBoundingClientRect();
  const inSight = [...document.querySelectorAll('#tray-grid .emoji-tile')].filter((t) => {
    const r = t.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    return x > grid.left && x < grid.right && y > grid.top && y < grid.bottom;
  });
  const covered = inSight.filter((t) => {
    const r = t.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !(hit && t.contains(hit));
  });
  return [covered.map((t) => t.dataset.emoji), inSight.length];
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_r17_r18_a_first_timer_who_takes_the_channel_as_its_hint_says_can_tap_the_sign(
    live_server_factory, screenshot_dir, phone_page, size
):
    """The channel hint says "take the channel and pick an emoji". A first-timer with a carré does just that, and
    the emoji tray that opens is theirs to tap: the hint was followed, so it goes, and never lies over the tray it
    sent them to (at 390x844 its bubble stayed over the tray's first row, and the tap on the sign hit the bubble)."""
    live_server, ana, others = first_play(live_server_factory, phone_page, size)
    page = ana.page
    expect(page.locator("#screen-play")).to_be_visible()
    live_server.table.set_position("AAAA KKJJ QQJT TTJK | KQQT")  # Ana's carré: the hints about it speak
    hint_shows(page, "channel", "en")
    ana.shot(screenshot_dir, f"first-coach-channel-carre-{size}")
    view = others[1].wait_state(lambda v: v["phase"] == "play")
    mate = next(s["seat"] for s in view["seats"] if s["team"] == view["seats"][0]["team"] and s["seat"] != 0)
    sign = others[mate].wait_state(lambda v: v["phase"] == "play")["you"]["sign"]
    page.evaluate(KEEP_FINGER)
    page.locator("#channel-toggle").tap()  # as the hint says
    tile = page.locator(f'#tray-grid [data-emoji="{sign}"]')
    expect(tile).to_be_visible()
    entered(page.locator("#tray"))
    expect(page.locator('.coach[data-hint="channel"]')).to_have_count(0)
    covered, in_sight = page.evaluate(TRAY_FREE)
    assert covered == [] and in_sight >= 8, (covered, in_sight)
    # "Channel taken ✓" at the finger: the page moved under it as the tray opened and the hint gave its room back
    # (at 360x640 the hand rose under it); where it ended, against the hand, strip and help once all has settled
    page.wait_for_function("window.__finger !== null")
    covers = page.evaluate(f"async () => {{ await ({SETTLED})(); return ({COVERS})(window.__finger); }}")
    assert covers == [], f"the channel's answer covers {covers} at {size}"
    ana.shot(screenshot_dir, f"first-coach-channel-taken-{size}")
    tile.tap()
    emitted(others[1], 0, sign)
    assert ana.errors == []


@pytest.mark.parametrize("size", list(SIZES))
def test_r17_r18_r21_a_hint_never_lies_over_the_open_tray_or_the_hand_it_waits_for_room(
    live_server_factory, screenshot_dir, phone_page, size
):
    """A first-timer who takes the channel before reading the first play's hint: the tray that opens is theirs to
    tap and the hand stays in sight. The hint about the centre found no room beside it (at 360x640 it lay over the
    tray's first row, at 844x390 over the whole hand): it waits, and comes back once the channel is released. The
    partner's sign, the one hint that must speak at once, still shows with the tray open, off the hand (on a small
    screen over part of the tray, until "Got it")."""
    _, ana, others = first_play(live_server_factory, phone_page, size)
    page = ana.page
    hint_shows(page, "hand", "en")
    page.locator("#channel-toggle").tap()  # not what the hint says: the channel first
    expect(page.locator("#tray")).to_be_visible()
    entered(page.locator("#tray"))
    # the page settled under the open tray; the coach places its bubble again now (as on any resize) rather than
    # at its next glance at the page
    page.evaluate(f"async () => {{ await ({SETTLED})(); window.dispatchEvent(new Event('resize')); }}")
    over = page.evaluate(OVER, TRAY_OR_HAND)
    ana.shot(screenshot_dir, f"first-coach-hand-tray-{size}")
    assert not over, f"the hint lies over {over} at {size}"
    covered, in_sight = page.evaluate(TRAY_FREE)
    assert covered == [] and in_sight >= 8, (covered, in_sight)
    # the partner flashes the team's sign: that hint speaks, beside Quatro!, with the tray still free
    view = others[1].wait_state(lambda v: v["phase"] == "play")
    mate = next(s["seat"] for s in view["seats"] if s["team"] == view["seats"][0]["team"] and s["seat"] != 0)
    sign = others[mate].wait_state(lambda v: v["phase"] == "play")["you"]["sign"]
    assert others[mate].act("take_channel")["type"] == "ok"
    assert others[mate].act("choose_emoji", emoji=sign)["type"] == "ok"
    emitted(others[mate], mate, sign)
    hint_shows(page, "partner_sign", "en")
    ana.shot(screenshot_dir, f"first-coach-partner-sign-tray-{size}")
    assert "hand-zone" not in page.evaluate(OVER, TRAY_OR_HAND)
    dismiss(page, "partner_sign")
    covered, in_sight = page.evaluate(TRAY_FREE)
    assert covered == [] and in_sight >= 8, (covered, in_sight)
    # the channel released (once its cooldown allows, R21): the tray closes and the hint about the centre, never
    # read, is back in its place
    expect(page.locator("#channel-ring")).not_to_have_class(re.compile(r"\bon\b"), timeout=limit_ms(15))
    page.locator("#channel-toggle").tap()
    expect(page.locator("#tray")).to_be_hidden()
    hint_shows(page, "hand", "en")
    assert ana.errors == []


@pytest.mark.parametrize("size", list(SIZES))
def test_r31_the_vote_hint_keeps_off_the_calls_and_the_cards(live_server_factory, screenshot_dir, phone_page, size):
    """A reshuffle vote in a first-timer's first play: its hint takes the place of the calmer one, off the cards and
    the calls (a tip over Quatro! when the partner flashes costs the round). At 360x640 the bar takes the room the
    strip lent: the hint finds no place off the seats' flashes and the cards and waits; the bar says the rule itself.
    The first swap's tip and the channel's keep off the calls too."""
    _, ana, others = first_play(live_server_factory, phone_page, size)
    page = ana.page
    hint_shows(page, "hand", "en")
    assert page.evaluate(OVER, CALLS) == []
    dismiss(page, "hand")
    assert others[2].act("request_reshuffle")["type"] == "ok"
    expect(page.locator("#vote-bar")).to_contain_text("Silence means no")
    if size == "360x640":
        expect(page.locator('.coach[data-hint="vote"]')).to_be_attached()
        page.evaluate(f"async () => {{ await ({SETTLED})(); window.dispatchEvent(new Event('resize')); }}")
        assert page.evaluate(OVER, CALLS) is None  # out of sight
    else:
        hint_shows(page, "vote", "en")
        assert page.evaluate(OVER, CALLS) == []
    ana.shot(screenshot_dir, f"first-coach-vote-{size}")
    page.locator('#vote-bar [data-action="refuse"]').tap()
    expect(page.locator("#vote-bar")).to_be_hidden()
    expect(page.locator('.coach[data-hint="vote"]')).to_have_count(0)  # answered: its moment passed
    page.locator("#hand .card").first.tap()
    page.locator("#centre .card").first.tap()
    hint_shows(page, "cooldown", "en")
    assert page.evaluate(OVER, CALLS) == []
    dismiss(page, "cooldown")
    others[1].act("take_channel")  # a frame: the channel's hint comes with it
    hint_shows(page, "channel", "en")
    assert page.evaluate(OVER, CALLS) == []
    assert ana.errors == []

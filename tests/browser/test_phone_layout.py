"""The phone in the hand, thumb first: at every common size (360×640, 375×667, 360×740 up to 430×932, and landscape
844×390) and in every phase (sign, play at 4 and 8 seats with the tray open and closed, a vote, the reveal, game
over):

* every play control's centre lies in the lower 65 % of a portrait screen (the thumb's reach);
* a finger at each control's centre touches that control (``elementFromPoint``), and every control is on screen;
* no element overlaps another, and no text is cut (a name may end in an ellipsis, but shows at least 6 characters;
  outside the strip only with its whole text in a title);
* names at 8 seats on 360 px show at least 6 characters, and no name breaks inside a word;
* turned sideways, the open tray leaves the cards their size (it opens in the other column);
* nothing pokes out sideways; the sign phase (English and French, 4 to 8 seats) and play fit without scrolling,
  also with a vote and the tray open at once;
* the coach's sign hint covers neither the title, the countdown, the grid nor Lock in / Ready;
* in portrait the emoji tray's tiles are at least 44 px on their short side (its rows scroll sideways).

One table per seat count, the viewport resized between checks (the page is responsive, it is not reloaded).
Screenshots: ``screenshots/phone-layout-<state>-<size>.png`` (where a check failed; all of them, to look at, with
``QUATRO_SWEEP_SHOTS=1``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from ..timeouts import limit_ms
from .i18n_helpers import MORE_LANGUAGES, pick_language
from .phone_helpers import everybody_ready, game_with_page, resize, set_position, shot
from .pictures import camera_of

PORTRAIT = [(360, 640), (375, 667), (360, 740), (390, 844), (412, 915), (430, 932)]
SIZES = [*PORTRAIT, (844, 390)]
#: The smallest phones, upright and sideways: every other language is swept there (German runs ~30 % longer).
SMALLEST = [(360, 640), (844, 390)]
NAMES4 = ("Bruno", "Chloé Marie-Anne", "Maximilien-Alexandre")  # the longest a name may be: 20 characters
NAMES8 = ("Bruno", "Chloé Marie-Anne", "Dora", "Emmanuelle", "Farid", "Gwendoline", "Hugo")

#: What the page shows, measured in the page: the controls of the visible screen (with their centre, whether a
#: finger there touches them, whether they are on screen), every pair of boxes that overlap, every text cut, and
#: how many characters of each seat name can be read. What is said and never shown (``.sr-only``) is left out.
REPORT = r"""(playOnly) => {
  const W = document.documentElement.clientWidth, H = document.documentElement.clientHeight;
  const shown = (el) => { const r = el.getBoundingClientRect(); const cs = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && !el.closest('[hidden], .sr-only'); };
  const screen = document.querySelector('main.screen:not([hidden])');
  const name = (el) => el.id ? '#' + el.id : (el.className && el.className.baseVal === undefined ? el.tagName.toLowerCase() + '.' + String(el.className).trim().split(/\s+/).join('.') : el.tagName.toLowerCase())
    + (el.dataset.slot ? `[slot=${el.dataset.slot}]` : el.dataset.place ? `[place=${el.dataset.place}]` : el.dataset.emoji ? `[${el.dataset.emoji}]` : el.dataset.seat ? `[seat=${el.dataset.seat}]` : el.dataset.action ? `[${el.dataset.action}]` : '');
  const controls = [...screen.querySelectorAll('button, input, [role=radio], summary')].filter(shown);
  const card = screen.querySelector('#hand .card');
  const out = {screen: screen.id, W, H, controls: [], overlaps: [], cut: [], names: [], wide: [],
    hand: card ? Math.round(card.getBoundingClientRect().height) : 0,
    // before any control is scrolled into view: how far the page and the screen would have to scroll
    scroll: {page: document.scrollingElement.scrollHeight - innerHeight, screen: screen.scrollHeight - screen.clientHeight,
      pageX: document.scrollingElement.scrollWidth - innerWidth, screenX: screen.scrollWidth - screen.clientWidth},
    // (the emoji tray's rows scroll sideways, like a phone's emoji keyboard: its tiles come into sight there)
    unseen: controls.filter((el) => { const r = el.getBoundingClientRect();
      return !el.closest('.emoji-grid.small') && (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5); }).map(name),
    tiles: [...screen.querySelectorAll('#tray-grid .emoji-tile')].filter(shown).map((el) => { const r = el.getBoundingClientRect(); return Math.min(r.width, r.height); }),
    // the heights of the screen's parts, to tell which one grew when something no longer fits
    parts: [...screen.querySelectorAll(':scope > * > *, :scope > .col > *')].filter(shown).map((el) => `${name(el)} ${Math.round(el.getBoundingClientRect().height)}`)};
  // Anything that pokes out sideways (the decorations and the transient bubbles aside), as far as it can be seen:
  // a box that clips its content (a name's ellipsis) hides the rest, the screen's own scrolling does not.
  for (const el of [...screen.querySelectorAll('*'), ...document.querySelectorAll('#top *')]) {
    if (!shown(el) || el.closest('#finger, #toast, .ring, #hold-ring, svg')) continue;
    let {left, right} = el.getBoundingClientRect();
    for (let a = el.parentElement; a && a !== screen && a.id !== 'top'; a = a.parentElement) {
      if (getComputedStyle(a).overflowX === 'visible') continue;
      const q = a.getBoundingClientRect(); left = Math.max(left, q.left); right = Math.min(right, q.right);
    }
    if (left < right && (left < -0.5 || right > W + 0.5)) out.wide.push([name(el), Math.round(left), Math.round(right)]);
  }
  for (const el of controls) {
    el.scrollIntoView({block: 'nearest'});
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    out.controls.push({name: name(el), x, y, hits: !!hit && (el === hit || el.contains(hit)),
      hit: hit ? name(hit) : null, inside: r.left >= -0.5 && r.top >= -0.5 && r.right <= W + 0.5 && r.bottom <= H + 0.5});
  }
  // Boxes that must not meet: controls, text blocks and the chips, outside the decorations (rings) and the
  // transient bubbles. A box inside another (a card in the hand) is not an overlap.
  const sel = 'button, input, label, .chip, .play-msg, .tray-line, .vote-text, p, h1, h2, li, .score, .clock, .top-sign, .carre-badge, .countdown, .sign-big';
  const boxes = [...document.querySelectorAll(sel)].filter((el) => shown(el) && !el.closest('#finger, #toast, .ring, #hold-ring')
    && (el.closest('main.screen:not([hidden])') || el.closest('#top')));
  // What can be seen of a box: a screen scrolls under the top bar, so clip to the screen's own box.
  const view = screen.getBoundingClientRect();
  const rects = boxes.map((el) => { const r = el.getBoundingClientRect(); if (!screen.contains(el)) return r;
    return {left: Math.max(r.left, view.left), right: Math.min(r.right, view.right), top: Math.max(r.top, view.top), bottom: Math.min(r.bottom, view.bottom)}; });
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.contains(b) || b.contains(a)) continue;
    const p = rects[i], q = rects[j];
    const w = Math.min(p.right, q.right) - Math.max(p.left, q.left), h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (w > 1 && h > 1) out.overlaps.push([name(a), name(b), Math.round(w), Math.round(h)]);
  }
  // Cut text: an element holding text whose content is wider or taller than its box (ellipsis or clipped).
  const texts = [...document.querySelectorAll('main.screen:not([hidden]) *, #top *')].filter((el) => shown(el)
    && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()));
  for (const el of texts) {
    const over = el.scrollWidth > el.clientWidth + 1 || (getComputedStyle(el).overflowY !== 'visible' && el.scrollHeight > el.clientHeight + 1);
    const r = el.getBoundingClientRect();
    const off = playOnly && !el.closest('.emoji-grid.small') && (r.left < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5);
    // A name may end in an ellipsis when its whole text is in a title (on it or its chip); text clipped mid-glyph
    // (text-overflow: clip) or without its full version never may. The strip's names are measured below.
    const titled = el.closest('[title]');
    const graceful = !off && getComputedStyle(el).textOverflow === 'ellipsis' && !!titled && titled.title.length > 0
      && el.textContent.includes(titled.title);
    if ((over && el.clientWidth > 0) || off) out.cut.push([name(el), el.textContent.slice(0, 30), graceful || !!el.closest('#strip .nm')]);
  }
  // Readable characters of each seat name in the strip: those whose glyph lies inside the name's clipping box and
  // its word's (a word may wear its own ellipsis), on a line the box shows. And no word broken across two lines
  // ("Emmanuel" / "le" reads as two names): every glyph of a word on one line, whatever the engine's clipping.
  for (const nm of document.querySelectorAll('#strip .chip .nm')) {
    if (!shown(nm)) continue;
    const box = nm.closest('.chip-name'), clip = box.getBoundingClientRect(), cs = getComputedStyle(box);
    const glyphs = [];
    const walk = document.createTreeWalker(nm, NodeFilter.SHOW_TEXT);
    for (let t; (t = walk.nextNode());) for (let i = 0; i < t.length; i++) {
      const range = document.createRange(); range.setStart(t, i); range.setEnd(t, i + 1);
      const right = Math.min(clip.right, t.parentElement.getBoundingClientRect().right);
      glyphs.push({ch: t.data[i], r: range.getBoundingClientRect(), right, last: i === t.length - 1});
    }
    const seeable = (g) => g.r.bottom <= clip.bottom + 0.5;
    let seen = glyphs.filter((g) => seeable(g) && (g.r.right <= g.right - 8 + 0.5 || (g.last && g.r.right <= g.right + 0.5))).length;  // room left for the ellipsis
    // a name that ends inside its box is whole (a short one such as "toi" ends within the ellipsis' width)
    const end = glyphs[glyphs.length - 1];
    if (end && seeable(end) && end.r.right <= end.right + 0.5) seen = glyphs.length;
    const broken = [];
    let word = [];
    for (const g of [...glyphs, {ch: ' '}]) {  // a word ends at a space; after a hyphen ("Marie-" / "Anne") a line may
      if (g.ch.trim()) word.push(g);
      if (g.ch.trim() && g.ch !== '-') continue;
      if (word.some((w) => Math.abs(w.r.top - word[0].r.top) > 2)) broken.push(word.map((w) => w.ch).join(''));
      word = [];
    }
    // and whole lines: a chip too short for its lamp and name squeezes the name's box below its lines (one, or the
    // two a tall strip allows), cutting glyphs or a line off without a mark
    const lines = cs.maxHeight !== 'none' ? Math.round(parseFloat(cs.maxHeight) / parseFloat(cs.lineHeight)) : 1;
    const feet = Math.min(box.scrollHeight, lines * parseFloat(cs.lineHeight)) - box.clientHeight;
    out.names.push({text: nm.textContent, seen, broken, feet: Math.round(feet)});
  }
  return out;
}"""

#: Play controls: what a player touches during a round (the top bar's help and language are not play controls).
PLAY = ("#btn-quatro", "#btn-contre", "#btn-channel", "#btn-reshuffle", "button.card", "button.emoji-tile", "#vote-bar")


def check(
    page: Any, screenshot_dir: Any, state: str, size: tuple[int, int], names_at_least: int = 0, lang: str = ""
) -> dict[str, Any]:
    """Resize, settle, measure (a screenshot where a rule fails); assert the acceptance's rules for this state and
    size. The sign phase and play must fit without scrolling (a first-timer never has to look for Ready or a
    call)."""
    width, height = size
    resize(page, width, height)
    page.evaluate("document.querySelector('#finger').hidden = true")
    name = f"layout-{state}{'-' + lang if lang else ''}-{width}x{height}"
    camera = camera_of(page)
    shot(page, screenshot_dir, name, camera)
    try:
        return _measured(page, state, size, names_at_least, lang)
    except AssertionError:
        camera.shoot(screenshot_dir / f"phone-{name}.png", failed=True)
        raise


def _measured(page: Any, state: str, size: tuple[int, int], names_at_least: int, lang: str) -> dict[str, Any]:
    width, height = size
    play = state.startswith(("play", "vote"))
    r = page.evaluate(REPORT, play)
    where = f"{state}{' ' + lang if lang else ''} at {width}x{height}"
    assert r["controls"] or state in ("reveal", "over"), f"no control found in {where}"
    assert r["scroll"]["pageX"] <= 0 and r["scroll"]["screenX"] <= 0, f"{where}: scrolls sideways {r['scroll']}"
    assert not r["wide"], f"{where}: out of the screen's width {r['wide']}"
    if play or state.startswith("sign"):
        assert r["scroll"]["page"] <= 0 and r["scroll"]["screen"] <= 0, (
            f"{where}: has to scroll {r['scroll']} {r['parts']}"
        )
        assert not r["unseen"], f"{where}: {r['unseen']} not on screen without scrolling"
    if r["tiles"] and height > width:  # the emoji tray: a fingertip on the short side, whatever the width
        assert min(r["tiles"]) >= 44, f"{where}: tray tiles {min(r['tiles']):.0f} px on their short side"
    thumb = ["btn-", "card", "emoji-tile", "[accept]", "[refuse]"]
    if state == "vote-tray":
        # A vote and the tray at once: below the line there is room for the tray, the cards and the calls, not for
        # the vote too (even at 430×932). Its two buttons, answered once, are what stays above.
        thumb = thumb[:3]
    for c in r["controls"]:
        assert c["hits"], f"{where}: a finger at the centre of {c['name']} touches {c['hit']}"
        assert c["inside"], f"{where}: {c['name']} is (partly) off screen"
        if play and height > width and any(p in c["name"] for p in thumb):
            assert c["y"] >= 0.35 * height, f"{where}: {c['name']} at y={c['y']:.0f}, above the thumb's reach"
    assert not r["overlaps"], f"{where}: overlapping boxes {r['overlaps']}"
    cut = [c[:2] for c in r["cut"] if not c[2]]
    assert not cut, f"{where}: text cut {cut}"
    for n in r["names"]:
        assert n["seen"] >= min(len(n["text"]), names_at_least), (
            f"{where}: name {n['text']!r} shows {n['seen']} characters"
        )
        assert not n["broken"], f"{where}: name {n['text']!r} breaks inside a word: {n['broken']}"
        assert n["feet"] <= 1, f"{where}: name {n['text']!r} cut {n['feet']} px at the bottom of its chip"
    return r


def in_both_languages(page: Any, screenshot_dir: Any, state: str, **kw: Any) -> None:
    """Check a state at every size in English, then in French (longer words), then every other catalog at the
    smallest sizes, then back in English. The language is picked from the script: in play the picker lives in the
    help sheet, which would cover the table."""
    for lang in ("en", "fr"):
        pick_language(page, lang)
        for size in SIZES:
            check(page, screenshot_dir, state, size, lang=lang, **kw)
    in_more_languages(page, screenshot_dir, state, **kw)


def in_more_languages(page: Any, screenshot_dir: Any, state: str, **kw: Any) -> None:
    """Check a state in every catalog beyond English and French at the smallest sizes, then back in English."""
    for lang in MORE_LANGUAGES:
        pick_language(page, lang)
        for size in SMALLEST:
            check(page, screenshot_dir, state, size, lang=lang, **kw)
    page.set_viewport_size({"width": 390, "height": 844})
    pick_language(page, "en")


@pytest.mark.timeout(360)  # every size in English and French, the smallest two in every other catalog
# ×3: the reshuffle vote (20 s) stays open for 60 s, while its state is checked in all five languages
@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=3.0)
def test_layout_at_every_size_four_seats_sign_play_tray_vote_reveal_and_game_over(
    live_server, phone_context, screenshot_dir
):
    page, errors, others, screen = game_with_page(live_server, phone_context, NAMES4)
    expect(page.locator("#btn-ready")).to_be_visible()
    in_both_languages(page, screenshot_dir, "sign")
    page.locator('#sign-body .emoji-tile[data-emoji="🦊"]').tap()  # picked, not locked in: the longest line
    expect(page.locator("#team-sign")).to_have_text("🦊")
    in_both_languages(page, screenshot_dir, "sign-picked")
    everybody_ready(page, others)
    set_position(live_server, "AAKQ KKJJ QQJT TTJK | AAQT")
    expect(page.locator("#hand .card .rank")).to_have_text(["A", "A", "K", "Q"])
    page.locator("#play-msg").evaluate("el => { el.textContent = ''; }")
    hand = {size: check(page, screenshot_dir, "play4", size, names_at_least=6)["hand"] for size in SIZES}
    in_more_languages(page, screenshot_dir, "play4", names_at_least=6)
    assert screen.host("pause")["type"] == "ok"  # "Paused by the host" takes a line: the rest still fits
    expect(page.locator("#paused-bar")).to_be_visible()
    for size in SIZES:
        check(page, screenshot_dir, "play4-paused", size, names_at_least=6)
    assert screen.host("resume")["type"] == "ok"
    expect(page.locator("#paused-bar")).to_be_hidden()
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#btn-channel").tap()
    expect(page.locator("#tray")).to_be_visible()
    for size in SIZES:
        r = check(page, screenshot_dir, "play4-tray", size, names_at_least=6)
        if size[0] > size[1]:  # sideways the tray opens in the other column: the cards keep their size
            assert r["hand"] == hand[size], f"play4-tray at {size}: cards {r['hand']} px tall, {hand[size]} closed"
    assert others[2].act("request_reshuffle")["type"] == "ok"  # a vote while the tray is open: both bars at once
    expect(page.locator("#vote-bar")).to_be_visible()
    in_both_languages(page, screenshot_dir, "vote-tray", names_at_least=6)
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator("#channel-ring")).not_to_have_class(re.compile(r"\bon\b"), timeout=limit_ms(15))  # R21
    page.locator("#btn-channel").tap()
    expect(page.locator("#tray")).to_be_hidden()
    expect(page.locator("#vote-bar")).to_be_visible()
    for size in SIZES:
        check(page, screenshot_dir, "vote", size, names_at_least=6)
    assert others[3].act("call_contre", team=0)["type"] == "ok"  # the longest name, in the story and the result
    expect(page.locator("#screen-reveal")).to_be_visible()
    for size in SIZES:
        check(page, screenshot_dir, "reveal", size)
    in_more_languages(page, screenshot_dir, "reveal")
    live_server.table.call(lambda: setattr(live_server.table.game.teams[0], "score", 4))
    assert screen.host("next_round")["type"] == "ok"
    for c in others.values():
        c.wait_state(lambda v: v["phase"] == "sign")
    everybody_ready(page, others)
    set_position(live_server, "AAKQ KKJJ QQJT TTJK | AAQT")
    others[1].wait_state(lambda v: v["phase"] == "play")
    assert others[1].act("call_contre", team=0)["type"] == "ok"
    expect(page.locator("#screen-over")).to_be_visible()
    for size in SIZES:
        check(page, screenshot_dir, "over", size)
    in_more_languages(page, screenshot_dir, "over")
    assert errors == []


@pytest.mark.parametrize("seats", [6, 8])
def test_layout_at_every_size_six_and_eight_seats_names_readable_tray_open_and_closed(
    live_server_factory, phone_context, screenshot_dir, seats
):
    live_server = live_server_factory(seats=seats, public_host="party.test", time_scale=4.0)
    page, errors, others, _ = game_with_page(live_server, phone_context, NAMES8[: seats - 1])
    expect(page.locator("#sign-body .ready-list li")).to_have_count(seats)
    for size in SIZES:  # every seat's chip in the ready list, and still no scrolling
        check(page, screenshot_dir, f"sign{seats}", size)
    everybody_ready(page, others)
    expect(page.locator("#strip .chip")).to_have_count(seats)
    assert others[5].act("take_channel")["type"] == "ok"  # one lamp lit: a chip with an emoji beside its name
    assert others[5].act("choose_emoji", emoji=others[5].state["view"]["signs"][0])["type"] == "ok"
    page.locator("#play-msg").evaluate("el => { el.textContent = ''; }")
    expect(page.locator('#strip [data-seat="5"] .chip-emoji')).not_to_be_empty()
    # the emission's burst is over (it may cover its neighbours while it lasts)
    page.wait_for_function(
        "document.querySelector('#strip .chip.burst .chip-emoji') !== null && "
        "document.querySelector('#strip .chip.burst .chip-emoji').getAnimations().length === 0"
    )
    for size in SIZES:
        check(page, screenshot_dir, f"play{seats}", size, names_at_least=6)
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#btn-channel").tap()
    expect(page.locator("#tray")).to_be_visible()
    for size in SIZES:
        check(page, screenshot_dir, f"play{seats}-tray", size, names_at_least=6)
    assert errors == []


#: What the coach's sign hint covers of what a player needs at the sign phase (and whether it is on screen).
SIGN_HINT_COVERS = r"""() => {
  const b = document.querySelector('.coach').getBoundingClientRect();
  const bad = [];
  if (b.top < 0 || b.left < 0 || b.bottom > innerHeight || b.right > innerWidth) bad.push('off the screen');
  for (const sel of ['#sign-body h2', '#sign-body .countdown', '#sign-body .emoji-grid', '#btn-lock', '#btn-ready']) {
    const r = document.querySelector(sel).getBoundingClientRect();
    if (Math.min(r.right, b.right) - Math.max(r.left, b.left) > 0 && Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top) > 0) bad.push(sel);
  }
  return bad;
}"""


@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=2.0)
def test_the_sign_hint_covers_neither_title_countdown_grid_nor_buttons_at_any_size(
    live_server, chromium, screenshot_dir
):
    context = chromium.new_context(  # a phone that never played: the coach's sign hint comes at the sign phase
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True, locale="en-US"
    )
    try:
        page, errors, _, _ = game_with_page(live_server, context, NAMES4)
        expect(page.locator('.coach[data-hint="sign"]')).to_be_visible()
        for lang in ("en", "fr"):
            for width, height in SIZES:
                resize(page, width, height)  # the bubble is placed again on resize
                name = f"layout-sign-hint-{lang}-{width}x{height}"
                shot(page, screenshot_dir, name, camera_of(page))
                covers = page.evaluate(SIGN_HINT_COVERS)
                if covers:
                    camera_of(page).shoot(screenshot_dir / f"phone-{name}.png", failed=True)
                assert covers == [], f"the sign hint in {lang} at {width}x{height}"
            pick_language(page, "fr" if lang == "en" else "en")
        assert errors == []
    finally:
        context.close()

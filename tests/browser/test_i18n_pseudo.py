"""No word outside the catalogs: the pages drawn in the pseudo-language (English with every catalog string wrapped in
``⟦…⟧``, served by the host as ``/i18n/pseudo.json``) show no bare word, on the TV (lobby, sign, play, reveal,
game over), on a phone (join, seated, sign, play, reveal, game over; the host's remote bar and its seats menu) and on the rules page's frame.

What may show unwrapped: the players' names, numbers, emoji, card faces, team shapes, the join address and the
game's brand (marked ``translate="no"``). The rules page's text is its own translated page (web/rules.<lang>.html):
there only the frame the pages draw from the catalogs is checked.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import phone_url
from .phone_helpers import SEEN_EVERY_HINT, everybody_ready, join_on_page, seat_phones
from .pictures import snap
from .test_phone_remote import _invite as invite

NAMES = {1: "Bruno", 2: "Chloé", 3: "Dora"}
PSEUDO = "try { localStorage.setItem('quatro.lang', 'pseudo'); } catch (e) {}"

#: The page's visible words outside ⟦…⟧, also in the accessible names and hints of visible elements.
BARE_WORDS = """(allowed) => {
  const strip = (text) => {
    let s = String(text || '');
    for (let before = null; before !== s;) { before = s; s = s.replace(/⟦[^⟦⟧]*⟧/g, ' '); }
    for (const a of allowed) s = s.split(a).join(' ');
    return s.match(/[\\p{L}]{2,}/gu) || [];
  };
  const visible = (el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden';
  // the language picker's options are each language's own name, in that language
  const kept = (el) => !el.closest('[translate="no"], [aria-hidden="true"], script, style, select');
  const balanced = (s) => (s.match(/⟦/g) || []).length === (s.match(/⟧/g) || []).length;
  const found = [];
  const judged = new Set();
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    let el = n.parentElement;
    if (!el || !n.textContent.trim() || !visible(el) || !kept(el)) continue;
    // a text node may be a piece of a wrapped sentence (a sentence with a coloured team inside): judge the
    // smallest element around it whose brackets balance
    while (el.parentElement && !balanced(el.textContent)) el = el.parentElement;
    if (judged.has(el)) continue;
    judged.add(el);
    const where = `<${el.tagName.toLowerCase()} ${el.id || el.className}>`;
    for (const w of strip(el.textContent)) found.push(`${w} in ${where}: ${el.textContent.trim().slice(0, 80)}`);
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [alt], [placeholder]')) {
    if (!visible(el) && el.tagName !== 'SELECT') continue;
    if (el.closest('[translate="no"], [aria-hidden="true"]')) continue;
    for (const attr of ['aria-label', 'title', 'alt', 'placeholder']) {
      for (const w of strip(el.getAttribute(attr))) found.push(`${w} in ${attr} of <${el.tagName.toLowerCase()} ${el.id || el.className}>`);
    }
  }
  return [...new Set(found)];
}"""


#: The attract loop's example players (screen/attract-scenes.js): names, not words.
EXAMPLE_NAMES = ["Ana", "Léa", "Nina", "Zoé", "Bruno", "Marc", "Omar", "Théo", "Chloé", "Inès", "Rose", "Lina", "Dev"]
EXAMPLE_NAMES += ["Sami", "Hugo", "Noé"]


def bare_words(page: Any, *allowed: str) -> list[str]:
    """The words `page` shows that no catalog gave it (its players' names and `allowed` apart)."""
    words: list[str] = page.evaluate(BARE_WORDS, [*NAMES.values(), *EXAMPLE_NAMES, *allowed])
    return words


@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=0.2)
def test_no_word_outside_the_catalogs_on_the_tv_and_a_phone_through_a_game(live_server, chromium, screenshot_dir):
    tv_context = chromium.new_context(viewport={"width": 1920, "height": 1080}, locale="en-US")
    phone_context = chromium.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True, locale="en-US"
    )
    for context in (tv_context, phone_context):
        context.add_init_script(PSEUDO)
    phone_context.add_init_script(SEEN_EVERY_HINT)
    join = f"party.test:{live_server.port}"
    found: dict[str, list[str]] = {}
    try:
        tv = tv_context.new_page()
        tv.goto(live_server.screen_url(host=True))
        tv.wait_for_function("document.body.dataset.phase === 'lobby'")
        page = phone_context.new_page()
        page.goto(phone_url(live_server.port))
        expect(page.locator("#screen-join")).to_be_visible()
        expect(page.locator("#name-label")).to_contain_text("⟦")
        found["phone join"] = bare_words(page)

        page.close()
        page, errors = join_on_page(phone_context, phone_url(live_server.port), 0, "Ana")
        others = seat_phones(live_server, NAMES)
        expect(page.locator("#screen-wait")).to_contain_text("⟦")
        tv.wait_for_function("document.querySelectorAll('.seat.kind-human').length === 4")
        found["phone seated"] = bare_words(page)
        found["tv lobby"] = bare_words(tv, join)

        # This phone becomes the host's remote: its bar (on every later state too) and its seats menu.
        page.goto(invite(live_server))
        expect(page.locator("#host-bar")).to_contain_text("⟦")
        expect(page.locator("#screen-wait")).to_be_visible()
        page.locator("#host-bar [data-host='seats']").click()
        expect(page.get_by_role("dialog")).to_be_visible()
        found["phone remote seats"] = bare_words(page)
        page.get_by_role("dialog").locator("button").last.click()  # cancel
        expect(page.get_by_role("dialog")).to_be_hidden()

        screen = live_server.screen()
        assert screen.host("start_game")["type"] == "ok"
        expect(page.locator("#screen-sign")).to_be_visible()
        tv.wait_for_function("document.body.dataset.phase === 'sign'")
        found["phone sign"] = bare_words(page)
        found["tv sign"] = bare_words(tv, join)

        everybody_ready(page, others)
        expect(page.locator("#screen-play")).to_be_visible()
        tv.wait_for_function("document.body.dataset.phase === 'play'")
        page.locator("#play-msg").evaluate("el => { el.textContent = ''; }")  # "Quatro Party" may flash there
        found["phone play"] = bare_words(page)
        found["tv play"] = bare_words(tv, join)

        assert others[1].act("call_contre", team=0)["type"] == "ok"
        expect(page.locator("#screen-reveal")).to_be_visible()
        expect(page.locator("#result-sentence")).to_contain_text("⟦")
        tv.wait_for_function("document.body.dataset.phase === 'pause'")
        tv.wait_for_timeout(1500)  # the call's splash has gone, the sentence is there
        found["phone reveal"] = bare_words(page)
        found["tv reveal"] = bare_words(tv, join)

        live_server.table.call(
            lambda: setattr(live_server.table.game.teams[0], "score", 4)
        )  # a wrong Contre on Blue: 5
        assert screen.host("next_round")["type"] == "ok"
        for c in others.values():
            c.wait_state(lambda v: v["phase"] == "sign")
        everybody_ready(page, others)
        others[1].wait_state(lambda v: v["phase"] == "play")
        assert others[1].act("call_contre", team=0)["type"] == "ok"
        expect(page.locator("#screen-over")).to_be_visible()
        tv.wait_for_function("document.body.dataset.phase === 'over'")
        tv.wait_for_timeout(1500)
        found["phone over"] = bare_words(page)
        found["tv over"] = bare_words(tv, join)
        snap(page, screenshot_dir / "pseudo-phone-over.png")
        snap(tv, screenshot_dir / "pseudo-tv-over.png")

        # The rules page: its text is the language's own page; its frame (title, the languages' list) is the catalogs'.
        rules = phone_context.new_page()
        rules.goto(f"{phone_url(live_server.port, '/rules')}?lang=pseudo")
        expect(rules.locator("nav.langs .lang-switch").first).to_be_visible()
        frame = [rules.title(), rules.locator("nav.langs").get_attribute("aria-label") or ""]
        found["rules frame"] = [f"bare: {s}" for s in frame if not (s.startswith("⟦") and s.endswith("⟧"))]
        assert errors == []
    finally:
        tv_context.close()
        phone_context.close()
    problems = {state: words for state, words in found.items() if words}
    assert problems == {}, "\n".join(f"{state}: {words}" for state, words in problems.items())

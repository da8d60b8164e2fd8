"""The players' rules at ``/rules``: one page per language, readable on a phone and on the TV.

Screenshots: ``screenshots/rules-<lang>-<width>x<height>.png`` (the whole page on the phone sizes, the screen on
the TV).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import phone_url
from .pictures import snap

SIZES = [(390, 844), (360, 640), (1920, 1080)]
WEB = Path(__file__).resolve().parents[2] / "web"
#: Every language with a rules page: web/rules.html (English) and web/rules.<lang>.html.
LANGUAGES = ["en", *sorted(p.name.split(".")[1] for p in WEB.glob("rules.*.html"))]

#: What each language's page must say (the words a first-timer is told at the table).
SAYS = {
    "en": ["Everybody sees your flashes", "Decoys are allowed", "One call ends the round", "silence means no"],
    "fr": ["Tout le monde voit ce que tu émets", "Les leurres sont permis", "La première annonce termine la manche"],
}


def open_rules(chromium, port: int, size: tuple[int, int], query: str = "", locale: str = "en-US"):
    width, height = size
    phone = width < 1000
    context = chromium.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=2 if phone else 1,
        is_mobile=phone,
        has_touch=phone,
        locale=locale,
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(phone_url(port, "/rules" + query))
    return context, page, errors


def overflowing(page) -> list[str]:
    """Elements of the visible article whose text runs out of their box (or off the screen)."""
    return page.evaluate(
        """() => {
          const out = [];
          const art = [...document.querySelectorAll('article')].find((a) => a.offsetParent !== null);
          for (const el of art.querySelectorAll('h1, h2, p, li, .btn, .lang-switch, .c')) {
            const r = el.getBoundingClientRect();
            if (el.scrollWidth > el.clientWidth + 1 || r.right > innerWidth + 0.5 || r.left < -0.5)
              out.push(el.textContent.trim().slice(0, 40));
          }
          if (document.documentElement.scrollWidth > innerWidth) out.push('page scrolls sideways');
          return out;
        }"""
    )


@pytest.mark.live_server(public_host="party.test")
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_page_reads_in_each_language_at_each_size(live_server, chromium, screenshot_dir, size, lang):
    width, height = size
    context, page, errors = open_rules(chromium, live_server.port, size, f"?lang={lang}")
    try:
        shown, hidden = page.locator(f'article[lang="{lang}"]'), page.locator("article:not([lang=" + lang + "])")
        expect(shown).to_be_visible()
        expect(hidden).to_be_hidden()
        assert page.evaluate("document.documentElement.lang") == lang
        for words in SAYS.get(lang, []):
            expect(shown).to_contain_text(words)
        snap(page, screenshot_dir / f"rules-{lang}-{width}x{height}.png")
        if width < 1400:
            page.screenshot(path=str(screenshot_dir / f"rules-{lang}-{width}x{height}-full.png"), full_page=True)
        assert overflowing(page) == []
        if width >= 1400:
            # on the TV every section is in view at once: nobody scrolls from the sofa
            bottoms = shown.locator("section").evaluate_all("els => els.map(e => e.getBoundingClientRect().bottom)")
            assert len(bottoms) == 8 and max(bottoms) <= height, bottoms
        else:
            sizes = shown.locator("p, li").evaluate_all("els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
            assert min(sizes) >= 16
        assert errors == []
    finally:
        context.close()


@pytest.mark.live_server(public_host="party.test")
def test_rules_page_follows_the_browser_and_switches_language(live_server, chromium):
    context, page, errors = open_rules(chromium, live_server.port, (390, 844), locale="fr-FR")
    try:
        expect(page.locator('article[lang="fr"]')).to_be_visible()  # no ?lang: the browser's language
        page.locator('article[lang="fr"] .lang-switch[hreflang="en"]').click()
        expect(page.locator('article[lang="en"]')).to_be_visible()
        expect(page.locator('article[lang="fr"]')).to_be_hidden()
        assert page.url.endswith("/rules?lang=en")
        # remembered like the game's pages remember it: a plain /rules now opens in English
        page.goto(phone_url(live_server.port, "/rules"))
        expect(page.locator('article[lang="en"]')).to_be_visible()
        assert page.evaluate("localStorage.getItem('quatro.lang')") == "en"
        assert errors == []
    finally:
        context.close()

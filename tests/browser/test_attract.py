"""The TV's attract loop (web/screen/attract.js) in a harness page, without any game server.

It draws a scripted round that changes over time, stops dead on stop(), ends on Skip, loops, switches language
at once, and under reduced motion uses fades only: no transform, ever. Screenshots of three frames in both
languages: ``screenshots/attract-<frame>-<lang>.png``.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from ..timeouts import limit_ms
from .pictures import snap
from .teach_helpers import static_server

SIGNATURE = """() => {
  const box = document.querySelector('.attract');
  if (!box) return null;
  const cards = [...box.querySelectorAll('.att-card')].map((c) => `${c.dataset.card}@${c.style.left},${c.style.top}${c.classList.contains('down') ? 'v' : '^'}`);
  return JSON.stringify({ scene: box.dataset.scene, caption: box.querySelector('.att-caption').textContent,
    cards: cards.sort(), fx: box.querySelector('.att-fx').innerHTML.length,
    held: [...box.querySelectorAll('.att-plate.held')].length });
}"""

NO_TRANSFORMS = """() => {
  const box = document.querySelector('.attract');
  const moved = [...box.querySelectorAll('*')].filter((e) => getComputedStyle(e).transform !== 'none')
    .map((e) => e.className);
  const animated = document.getAnimations().filter((a) => a.effect && a.effect.getKeyframes()
    .some((k) => 'transform' in k || 'rotate' in k || 'scale' in k || 'translate' in k)).length;
  return { moved, animated, animations: document.getAnimations().length };
}"""

FITS = """() => {
  const bad = [];
  const box = document.querySelector('.attract');
  const area = box.getBoundingClientRect();
  const texts = '.att-caption, .att-name, .att-team, .att-skip, .att-title, .att-score, .att-phone, .att-bubble';
  for (const e of box.querySelectorAll(texts + ', .att-sign, .att-burst, .att-card, .att-plate')) {
    if (e.closest('[hidden]') || e.getClientRects().length === 0) continue;
    const r = e.getBoundingClientRect();
    const over = e.scrollWidth > e.clientWidth + 1 || (e.scrollHeight > e.clientHeight + 1 && !e.matches('.att-caption'));
    if (e.matches(texts) && over)
      bad.push(`overflow: ${e.className} ${e.textContent}`);
    if (r.left < area.left - 1 || r.right > area.right + 1 || r.top < area.top - 1 || r.bottom > area.bottom + 1)
      bad.push(`outside: ${e.className} ${e.textContent}`);
  }
  const cap = box.querySelector('.att-caption').getBoundingClientRect();
  const band = box.querySelector('.att-band').getBoundingClientRect();
  if (cap.top < band.top || cap.bottom > band.bottom) bad.push(`caption out of its band ${cap.top},${cap.bottom} in ${band.top},${band.bottom}`);
  // the title block (title + scores) and the top plate must not meet
  const top = box.querySelector('.att-top').getBoundingClientRect();
  const plate = box.querySelector('.att-plate[data-seat="2"]').getBoundingClientRect();
  if (top.right > plate.left && top.bottom > plate.top) bad.push('title under the top plate');
  // the phone's tag meets neither the title block nor a card
  const phone = box.querySelector('.att-phone');
  if (phone && !phone.hidden) {
    const p = phone.getBoundingClientRect();
    for (const e of box.querySelectorAll('.att-top, .att-card')) {
      const r = e.getBoundingClientRect();
      if (r.left < p.right - 1 && p.left < r.right - 1 && r.top < p.bottom - 1 && p.top < r.bottom - 1)
        bad.push(`phone tag over ${e.className} ${e.textContent}`);
    }
  }
  // nothing drawn over the Skip button
  const skip = box.querySelector('.att-skip').getBoundingClientRect();
  for (const e of box.querySelectorAll('.att-bubble, .att-plate, .att-card, .att-sign, .att-phone')) {
    const r = e.getBoundingClientRect();
    if (r.width && r.left < skip.right && r.right > skip.left && r.top < skip.bottom && r.bottom > skip.top)
      bad.push(`over Skip: ${e.className}`);
  }
  return bad;
}"""


@pytest.fixture(scope="module")
def site():
    with static_server() as url:
        yield url


def open_loop(chromium, site, query: str, reduced: bool = False, size=(1920, 1080), still: bool = False):
    """The harness page running the loop. ``still``: the page's clock (Playwright's) stands still from the start,
    and the loop moves only when the test runs it (``page.clock.run_for``)."""
    context = chromium.new_context(
        viewport={"width": size[0], "height": size[1]}, reduced_motion="reduce" if reduced else "no-preference"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    if still:
        page.clock.install(time=1_000_000)
        # a second ahead: the installed clock runs until paused, and pausing at a moment already past is an error
        page.clock.pause_at(1_001_000)
    page.goto(f"{site}/fixtures/attract.html?{query}")
    page.wait_for_selector(".attract .att-card")
    return context, page, errors


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_loop_draws_a_round_that_changes_over_time(chromium, site, lang):
    # On the page's own clock, stepped by the test: on a machine loaded 20-fold the real one ran the swap scene past
    # before the first sample, and the test never saw it.
    context, page, errors = open_loop(chromium, site, f"lang={lang}&speed=4&scene=swap", still=True)

    def cards_moved(seen: list[str]) -> bool:
        """Real cards move: some card is drawn at two different places."""
        places: dict[str, set[str]] = {}
        for sig in seen:
            for card in json.loads(sig)["cards"]:
                name, _, where = card.partition("@")
                places.setdefault(name, set()).add(where.rstrip("^v"))
        return any(len(p) > 1 for p in places.values())

    def scenes(seen: list[str]) -> set[str]:
        return {json.loads(s)["scene"] for s in seen}

    try:
        seen: list[str] = []
        # 16 samples 250 ms of the page's time apart (4 s of the loop at speed 4), and up to 48 (12 s) until it has
        # shown the swap and the channel scenes
        while len(seen) < 16 or (
            len(seen) < 48 and not (len(set(seen)) >= 4 and cards_moved(seen) and scenes(seen) >= {"swap", "channel"})
        ):
            seen.append(page.evaluate(SIGNATURE))
            page.clock.run_for(250)
        assert len(set(seen)) >= 4, "the drawing hardly changed"
        assert cards_moved(seen)
        assert scenes(seen) >= {"swap", "channel"}
        assert page.evaluate("document.querySelector('.attract').lang") == lang
        assert errors == []
    finally:
        context.close()


FRAMES = [
    # (name, scene to start at, what shows the moment, extra wait in ms)
    ("flash", "channel", ".att-burst", 250),
    ("quatro", "quatro", ".att-bubble.quatro", 900),
    ("contre-reveal", "contre", ".att-sign", 900),
]


@pytest.mark.parametrize("box", ["table", "lobby"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_three_frames_in_each_language(chromium, site, screenshot_dir, lang, box):
    """In the whole table area (the TV's replay) and in the lobby's box between the TV's own seat plates."""
    context, page, errors = open_loop(chromium, site, f"lang={lang}&scene=intro&speed=2&box={box}")
    try:
        compact = page.evaluate("document.querySelector('.attract').classList.contains('compact')")
        assert compact == (box == "lobby")
        for name, scene, marker, wait in FRAMES:
            page.evaluate(f"window.attract.start('{scene}')")
            page.wait_for_selector(f".attract {marker}", timeout=limit_ms(8))
            page.wait_for_timeout(wait)
            suffix = "" if box == "table" else "-lobby"
            snap(page, screenshot_dir / f"attract-{name}-{lang}{suffix}.png")
            assert page.evaluate(FITS) == [], name
            sizes = page.evaluate(
                "[...document.querySelectorAll('.att-caption, .att-name')].map((e) => parseFloat(getComputedStyle(e).fontSize))"
            )
            assert min(sizes) >= 20, sizes  # read from the sofa
        assert errors == []
    finally:
        context.close()


def test_stop_stops_everything_and_skip_ends(chromium, site):
    context, page, errors = open_loop(chromium, site, "speed=6&scene=swap")
    try:
        page.wait_for_timeout(400)
        assert page.evaluate("document.getAnimations().length + document.querySelectorAll('.att-card').length") > 0
        page.evaluate(
            """() => { window.mutations = 0; new MutationObserver((m) => { window.mutations += m.length; })
                 .observe(document.getElementById('area'), { subtree: true, childList: true, attributes: true,
                 characterData: true }); window.attract.stop(); }"""
        )
        page.wait_for_timeout(1500)  # several scenes' worth at speed 6
        assert page.evaluate("document.getElementById('area').children.length") == 0
        assert page.evaluate("window.mutations") == 1  # only the removal itself
        assert page.evaluate("window.attract.running") is False
        assert page.evaluate("document.getAnimations().length") == 0

        page.evaluate("window.attract.start()")
        skip = page.locator(".att-skip")
        assert skip.is_visible() and skip.inner_text().startswith("Skip")
        skip.click()
        assert page.evaluate("window.ended") == 1
        assert page.evaluate("document.getElementById('area').children.length") == 0
        assert errors == []
    finally:
        context.close()


def test_the_loop_starts_again_after_the_last_scene(chromium, site):
    # The page's clock moves only when the test runs it: the short outro (speed 8) is seen whatever the machine.
    context, page, errors = open_loop(chromium, site, "speed=8&scene=outro", still=True)
    try:
        assert page.evaluate("window.attract.scene") == "outro"
        for _ in range(40):  # at most 10 s of the loop's time
            if page.evaluate("window.attract.scene") != "outro":
                break
            page.clock.run_for(250)
        assert page.evaluate("window.attract.scene") == "intro"
        assert page.locator(".att-caption").inner_text().startswith("Teams of two")
        assert errors == []
    finally:
        context.close()


def test_set_lang_switches_the_words_at_once(chromium, site):
    context, page, errors = open_loop(chromium, site, "lang=en&scene=quatro")
    try:
        page.wait_for_selector(".att-bubble")
        assert "Quatro!" in page.locator(".att-bubble").inner_text()
        page.evaluate("window.attract.setLang('fr')")  # the catalog comes first, then every word at once
        expect(page.locator(".att-caption")).to_have_text(re.compile(r"^Chloé maintient Quatro\s!"))
        assert "Quatro\u00a0!" in page.locator(".att-bubble").inner_text()
        assert page.locator(".att-skip").inner_text().startswith("Passer")
        assert page.locator(".att-plate .att-team").first.inner_text() == "Bleu ●"
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("how", ["media", "option"])
def test_reduced_motion_fades_only(chromium, site, how):
    """Under prefers-reduced-motion (or reducedMotion: true) nothing has a transform and no animation animates
    one, across every scene; with motion the same scenes do use transforms (so this check can fail)."""
    query = "speed=3&scene=swap" + ("&reduced=1" if how == "option" else "")
    context, page, errors = open_loop(chromium, site, query, reduced=how == "media")
    try:
        fades = 0
        for _ in range(40):  # ~ every scene from 'swap' on, sampled every 0.2 s
            got = page.evaluate(NO_TRANSFORMS)
            assert got["moved"] == [] and got["animated"] == 0, got
            fades += got["animations"]
            page.wait_for_timeout(200)
        assert fades > 0, "nothing faded either"
        assert page.evaluate("document.querySelector('.attract').classList.contains('reduced')")
        assert errors == []
    finally:
        context.close()

    context, page, errors = open_loop(chromium, site, "speed=3&scene=swap&reduced=0")
    try:
        used = 0
        for _ in range(20):
            used += page.evaluate(NO_TRANSFORMS)["animated"]
            page.wait_for_timeout(200)
        assert used > 0
    finally:
        context.close()


def test_text_fits_at_the_full_table_width_too(chromium, site):
    for size, query in [((1920, 1080), "full=1"), ((1280, 720), "")]:
        context, page, errors = open_loop(chromium, site, f"lang=fr&scene=decoy&{query}", size=size)
        try:
            page.wait_for_selector(".att-burst", timeout=limit_ms(8))
            assert page.evaluate(FITS) == [], size
        finally:
            context.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_caption_fits_in_the_lobby_box(chromium, site, lang):
    """The whole story, fast, sampled: every sentence stays within its band, in the smallest box the TV uses."""
    context, page, errors = open_loop(chromium, site, f"lang={lang}&speed=20&box=lobby")
    try:
        seen = set()
        for _ in range(120):
            got = page.evaluate(FITS)
            assert [b for b in got if "caption" in b] == [], got
            seen.add(page.evaluate("document.querySelector('.att-caption').dataset.key"))
            page.wait_for_timeout(40)
        assert len(seen) >= 12, seen
        assert errors == []
    finally:
        context.close()


# Each Blue flash in the 'channel' scene, as the page's (fake) clock saw it.
WATCH_BURSTS = """() => {
  window.flashes = [];
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes)
      if (n.nodeType === 1 && n.matches('.att-burst')) window.flashes.push(Date.now());
  }).observe(document.getElementById('attract'), { subtree: true, childList: true });
}"""


@pytest.mark.live_server(seats=4, time_scale=0.5)
def test_r18_the_lobby_loop_flashes_at_the_views_emission_period(live_server, chromium):
    """R18 as the host runs it: at time scale 0.5 the view's emission period is 2.5 s, and the lobby's loop
    says so and flashes Ana's sign at that pace (the page knows no period of its own). The page's clock is
    Playwright's fake one, stepped by hand, so the gaps are exact however busy the machine."""
    period = live_server.table.call(lambda: live_server.table.game.timing.emission_period)
    assert period == 2.5
    context = chromium.new_context(viewport={"width": 1920, "height": 1080}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.clock.install()
        page.goto(live_server.screen_url())
        page.wait_for_function(
            "window.quatroScreen?.view?.timing.emission_period === 2.5"
        )  # the page may not be up yet
        page.wait_for_selector("#attract.lobby .att-caption")
        page.clock.pause_at(page.evaluate("Date.now()") + 100)
        page.evaluate(WATCH_BURSTS)
        caption = page.locator("#attract .att-caption")
        for _ in range(60):  # intro, then swap: the channel scene opens within 20 s of the loop's time
            if caption.get_attribute("data-key") == "channel":
                break
            page.clock.run_for(500)
        assert caption.get_attribute("data-key") == "channel"
        assert "every 2.5 s" in caption.inner_text()
        page.clock.run_for(9000)
        flashes = page.evaluate("window.flashes")
        assert len(flashes) >= 2, flashes
        gaps = {b - a for a, b in zip(flashes, flashes[1:], strict=False)}
        assert gaps == {2500}, flashes
        assert errors == []
    finally:
        context.close()

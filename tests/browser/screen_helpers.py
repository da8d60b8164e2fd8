"""Helpers for the big-screen browser tests: open the page, record its frames, check its layout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

TV = {"width": 1920, "height": 1080}


class ScreenPage:
    """The big screen in a real Chromium page, with every WebSocket frame it received and every page error."""

    def __init__(self, context: Any, url: str) -> None:
        self.page: Page = context.new_page()
        self.frames: list[str] = []
        self.errors: list[str] = []
        self.page.on("websocket", self._on_socket)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url)

    def _on_socket(self, ws: Any) -> None:
        ws.on(
            "framereceived",
            lambda payload: self.frames.append(
                payload if isinstance(payload, str) else payload.decode("utf-8", "replace")
            ),
        )

    def messages(self) -> list[dict[str, Any]]:
        return [json.loads(f) for f in list(self.frames)]

    def wait_phase(self, phase: str, timeout: float = 10.0) -> None:
        self.page.wait_for_function(f"document.body.dataset.phase === {json.dumps(phase)}", timeout=timeout * 1000)

    def wait(self, js: str, timeout: float = 10.0) -> None:
        self.page.wait_for_function(js, timeout=timeout * 1000)

    def view(self) -> dict[str, Any]:
        return self.page.evaluate("window.quatroScreen.view")

    def text(self, selector: str) -> str:
        return self.page.locator(selector).first.inner_text()

    def shot(self, folder: Path, phase: str) -> Path:
        path = folder / f"screen-{phase}.png"
        self.page.screenshot(path=str(path))
        return path

    def freeze_fx(self, at_ms: float = 450) -> None:
        """Hold every burst and flying card at ``at_ms`` into its animation, for a picture that does not
        depend on how fast a busy machine draws frames. :meth:`thaw_fx` lets them run on."""
        self.page.evaluate(
            """(t) => { for (const a of document.querySelector('#fx').getAnimations({subtree: true})) {
                   a.currentTime = t; a.pause(); } }""",
            at_ms,
        )

    def thaw_fx(self) -> None:
        self.page.evaluate(
            "() => { for (const a of document.querySelector('#fx').getAnimations({subtree: true})) a.play(); }"
        )

    def assert_fits(self) -> None:
        """Nothing important leaves the 1920×1080 viewport, and no name or sentence is cut off."""
        problems = self.page.evaluate(
            """() => {
              const out = [];
              const W = innerWidth, H = innerHeight;
              if (document.documentElement.scrollWidth > W || document.documentElement.scrollHeight > H)
                out.push('page scrolls: ' + document.documentElement.scrollWidth + 'x' + document.documentElement.scrollHeight);
              const sel = '#bar > *, .score, .seat, #places .card, .sentence, .notice:not([hidden]), #join-url, #qr, ' +
                          '#host-bar button, #start-slot button, .pause-row, .sign-row, .howto, #over';
              for (const e of document.querySelectorAll(sel)) {
                const r = e.getBoundingClientRect();
                if (!r.width || !r.height) continue;
                if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1)
                  out.push('outside: ' + (e.id || e.className) + ' ' + JSON.stringify([r.left, r.top, r.right, r.bottom]));
              }
              for (const e of document.querySelectorAll('.seat .name, .score .tname, .sentence, #join-url, button')) {
                if (e.scrollWidth > e.clientWidth + 1) out.push('cut: ' + e.textContent);
              }
              for (const e of document.querySelectorAll('.seat .name')) {  // a name on two lines: not a third
                if (e.scrollHeight > e.clientHeight + 1) out.push('cut (lines): ' + e.textContent);
              }
              return out;
            }"""
        )
        assert problems == [], problems
        clash = self.overlaps(
            "#centre .sentence, #places, .pause-row > *, .sign-row > *, .sign-title, .sign-sub, "
            ".howto, .notice:not([hidden])",
            ".seat, .seat .sign-badge, .seat .caller-badge",
        )
        assert clash == [], clash
        lines = self.page.evaluate("document.querySelector('#round').getBoundingClientRect().height")
        assert lines < 50, "the round number wraps"

    def name_chars_shown(self) -> dict[str, int]:
        """For each seat plate, its name and how many of its characters are drawn inside the name's box (an
        ellipsis hides the characters it covers; a clamped second line hides the rest)."""
        pairs = self.page.evaluate(
            """() => [...document.querySelectorAll('.seat .name')].map((e) => {
              const box = e.getBoundingClientRect();
              const ellipsis = e.scrollWidth > e.clientWidth + 1 ? parseFloat(getComputedStyle(e).fontSize) : 0;
              const text = e.firstChild;
              let shown = 0;
              if (text && text.nodeType === Node.TEXT_NODE) {
                const r = document.createRange();
                for (let i = 0; i < text.length; i++) {
                  r.setStart(text, i); r.setEnd(text, i + 1);
                  const q = r.getBoundingClientRect();
                  if (q.width && q.left >= box.left - 1 && q.right <= box.right - ellipsis + 1 &&
                      q.top >= box.top - 1 && q.bottom <= box.bottom + 1) shown++;
                }
              }
              return [e.textContent, shown];
            })"""
        )
        return {name: shown for name, shown in pairs}

    def text_colour(self, selector: str, needle: str) -> str:
        """The computed colour of the element that draws ``needle`` (the first text node holding it) in
        ``selector``."""
        return self.page.evaluate(
            """([sel, needle]) => {
              const root = document.querySelector(sel);
              const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
              for (let n = walk.nextNode(); n; n = walk.nextNode())
                if (n.data.includes(needle)) return getComputedStyle(n.parentElement).color;
              return null;
            }""",
            [selector, needle],
        )

    def overlaps(self, a: str, b: str) -> list[tuple[str, str]]:
        """Pairs of elements matching ``a`` and ``b`` whose boxes overlap (for layout checks)."""
        return self.page.evaluate(
            """([a, b]) => {
              const out = [];
              for (const x of document.querySelectorAll(a)) for (const y of document.querySelectorAll(b)) {
                if (x === y || x.contains(y) || y.contains(x)) continue;
                const p = x.getBoundingClientRect(), q = y.getBoundingClientRect();
                if (p.left < q.right - 2 && q.left < p.right - 2 && p.top < q.bottom - 2 && q.top < p.bottom - 2)
                  out.push([x.className + ' ' + x.textContent.slice(0, 30), y.className + ' ' + y.textContent.slice(0, 30)]);
              }
              return out;
            }""",
            [a, b],
        )


def without_sign_list(raw: str) -> str:
    """A frame's text without the view's public list of the 24 emojis (R8), which names every sign."""
    msg = json.loads(raw)
    if isinstance(msg.get("view"), dict):
        assert len(msg["view"].pop("signs", [])) in (0, 24)
    return json.dumps(msg, ensure_ascii=False)


#: The screens the big screen must fit (CSS pixels, device pixel ratio): laptops to a 4K TV at no scaling, a 4:3
#: projector, a 5:4 monitor, a 16:10 laptop, and the most common laptop screen inside a browser window (1366×768
#: less its tabs and address bar: the launcher opens the page in the default browser, full screen only once
#: somebody presses F11).
SIZES: list[tuple[int, int, int]] = [
    (1024, 768, 1),
    (1280, 1024, 1),
    (1280, 720, 1),
    (1280, 800, 1),
    (1366, 657, 1),
    (1366, 768, 1),
    (1536, 864, 1),
    (1920, 1080, 1),
    (2560, 1440, 1),
    (3840, 2160, 1),
    (1920, 1080, 2),
]

#: The layout self-check, run in the page: what lies outside the viewport, overlaps, is cut, or cannot be clicked.
SELF_CHECK = """() => {
  const out = [];
  const W = innerWidth, H = innerHeight;
  const visible = (e) => {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) return false;
    for (let x = e; x; x = x.parentElement) {
      const s = getComputedStyle(x);
      if (s.display === 'none' || s.visibility === 'hidden' || +s.opacity === 0) return false;
    }
    return true;
  };
  const all = (sel) => [...document.querySelectorAll(sel)].filter(visible);
  // under an open panel or the pause (a modal: inert), controls are out of reach by design
  const reachable = (e) => !e.closest('[inert]');
  const name = (e) => (e.id ? '#' + e.id : '') + '.' + String(e.className).split(' ').join('.') + ' "' +
    e.textContent.trim().slice(0, 24) + '"';
  const de = document.documentElement;
  if (de.scrollWidth > W || de.scrollHeight > H) out.push('page scrolls: ' + de.scrollWidth + 'x' + de.scrollHeight);
  // nothing outside the viewport
  const parts = '#bar > *, .score, .seat, #places .card, .sentence, .notice, #join-url, #qr, button, .pause-row, ' +
    '.sign-row, .howto, #over, #panel, #paused > *, .story, .recap, #splash .splash-inner, #house';
  for (const e of all(parts)) {
    const r = e.getBoundingClientRect();
    if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1)
      out.push('outside: ' + name(e) + ' ' + JSON.stringify([r.left, r.top, r.right, r.bottom].map(Math.round)));
  }
  // no text cut
  const texts = '.seat .name, .score .tname, .score .points, .sentence, .notice, #join-url, button, #clock, #round, ' +
    '.final .tname, .over-winners, .sign-title, .sign-sub, .ready-count, .pause-count, .voter, #house, .story-row, ' +
    '.recap-row, .award, #paused h2, #panel h2, #panel label';
  for (const e of all(texts)) {
    if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflow !== 'visible')
      out.push('cut: ' + name(e));
    else if (e.scrollWidth > e.clientWidth + 1 && e.matches('button, .seat .name, .score .tname'))
      out.push('cut: ' + name(e));
  }
  for (const e of all('.seat .name'))
    if (e.scrollHeight > e.clientHeight + 1) out.push('cut (lines): ' + e.textContent);
  // a name on two lines breaks at a space or after a hyphen: "Maximilien" / "-Alexandre" reads as a mistake
  for (const e of all('.seat .name')) {
    const node = e.firstChild;
    if (!node || node.nodeType !== Node.TEXT_NODE) continue;
    const text = node.data;
    const top = (i) => { const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
      const q = [...r.getClientRects()].find((x) => x.width > 0); return q ? Math.round(q.top) : null; };
    for (let i = 1; i < text.length; i++) {
      if (/\\s/.test(text[i]) || /[\\s-]/.test(text[i - 1])) continue;
      const a = top(i - 1), b = top(i);
      if (a !== null && b !== null && b > a + 2) { out.push(`name broken inside a word: "${text.slice(0, i)}" / "${text.slice(i)}"`); break; }
    }
  }
  // no unwanted overlap
  const boxes = (sel) => all(sel).map((e) => [e, e.getBoundingClientRect()]);
  const meet = (p, q) => p.left < q.right - 2 && q.left < p.right - 2 && p.top < q.bottom - 2 && q.top < p.bottom - 2;
  const clash = (a, b, label) => {
    for (const [x, p] of boxes(a)) for (const [y, q] of boxes(b)) {
      if (x === y || x.contains(y) || y.contains(x)) continue;
      if (meet(p, q)) out.push('overlap ' + label + ': ' + name(x) + ' / ' + name(y));
    }
  };
  const panelOpen = all('#panel, #paused').length > 0;
  if (!panelOpen) {
    clash('.seat', '.seat', 'plates');
    clash('#centre .sentence, #places, .pause-row > *, .sign-row > *, .sign-title, .sign-sub, .howto, .notice, .story',
          '.seat, .seat .sign-badge, .seat .caller-badge', 'centre/plates');
    clash('#over', '.seat', 'game over/plates');
    clash('#bar > *', '#bar > *', 'top bar');
    clash('#host-bar > *', '.seat', 'host bar/plates');
  }
  // every visible button can be clicked at its centre
  for (const b of all('button').filter(reachable)) {
    const r = b.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === b || b.contains(hit))) out.push('not clickable: ' + name(b) + ' (under ' + (hit ? name(hit) : 'nothing') + ')');
  }
  // the centre cards are read from the sofa: rank at least 11 % of the screen's height, a 16:9 height on a taller
  // screen (16:10: the same width is the same physical card, the extra height is a band)
  // (a card still moving in, a swap's transform on it or its place, is measured once it has landed)
  const moving = (el) => document.getAnimations().some((a) => a.playState === 'running' && a.effect && a.effect.target
    && a.effect.target.contains(el) && a.effect.getKeyframes().some((k) => 'transform' in k || 'scale' in k));
  if (!panelOpen) for (const r of all('#places .card:not(.empty) .rank').filter((el) => !moving(el))) {
    const h = r.getBoundingClientRect().height;
    if (h < 0.11 * Math.min(H, W * 9 / 16) - 0.5) out.push('rank too small: ' + Math.round(h) + ' px of ' + H);
  }
  return out;
}"""


def self_check(page: Page) -> list[str]:
    """The layout self-check's findings (empty when the page fits)."""
    return page.evaluate(SELF_CHECK)


#: The lobby's attract loop, read from the sofa: its caption at least CAPTION_LEAST of the window's height, its
#: title TITLE_LEAST, the words and points of its score chips CHIP_LEAST, the little table's names NAME_LEAST; the
#: title clear of the little table and Skip, the chips inside the caption band, and the box clear of every seat
#: plate, the QR code, the join column, the lobby's controls and the top bar.
CAPTION_LEAST = 0.024
TITLE_LEAST = 0.021
CHIP_LEAST = 0.019
NAME_LEAST = 0.018
ATTRACT_CHECK = """([captionLeast, titleLeast, chipLeast, nameLeast]) => {
  const out = [];
  const box = document.querySelector('#attract');
  if (!box || box.hidden || !box.querySelector('.att-caption')) return ['no attract loop'];
  const W = innerWidth, H = innerHeight;
  const S = Math.min(H, W * 9 / 16);  // sizes are shares of a 16:9 height: see the self-check's cards
  const size = (e) => parseFloat(getComputedStyle(e).fontSize);
  const caption = box.querySelector('.att-caption');
  if (size(caption) < captionLeast * S - 0.01)
    out.push(`caption ${size(caption).toFixed(1)} px < ${(captionLeast * 100).toFixed(1)} % of ${Math.round(S)}`);
  for (const n of box.querySelectorAll('.att-name'))
    if (size(n) < nameLeast * S - 0.01) out.push(`name ${n.textContent} ${size(n).toFixed(1)} px < ${(nameLeast * 100).toFixed(1)} % of ${Math.round(S)}`);
  const title = box.querySelector('.att-title');
  if (!title || size(title) < titleLeast * S - 0.01)
    out.push(`title ${title ? size(title).toFixed(1) : 'missing'} px < ${(titleLeast * 100).toFixed(1)} % of ${Math.round(S)}`);
  const chips = box.querySelectorAll('.att-score');
  if (chips.length !== 2) out.push(`${chips.length} score chips`);
  for (const n of box.querySelectorAll('.att-score .att-tname, .att-score .att-points'))
    if (size(n) < chipLeast * S - 0.01) out.push(`score chip ${n.textContent} ${size(n).toFixed(1)} px < ${(chipLeast * 100).toFixed(1)} % of ${Math.round(S)}`);
  const r = box.getBoundingClientRect();
  if (r.width < 100 || r.height < 100) out.push('attract box too small: ' + JSON.stringify([r.width, r.height]));
  if (r.left < 0 || r.top < 0 || r.right > W || r.bottom > H) out.push('attract box outside the window');
  const meet = (p, q) => p.left < q.right - 1 && q.left < p.right - 1 && p.top < q.bottom - 1 && q.top < p.bottom - 1;
  const others = '.seat, .qr-frame, #join > *, #start-slot > *, #host-bar > *, #corner > *, #bar > *';
  for (const e of document.querySelectorAll(others)) {
    const q = e.getBoundingClientRect();
    if (q.width && q.height && meet(r, q)) out.push(`attract over ${e.id || e.className} "${e.textContent.trim().slice(0, 20)}"`);
  }
  const band = box.querySelector('.att-band').getBoundingClientRect();
  const cap = caption.getBoundingClientRect();
  if (cap.top < band.top - 1 || cap.bottom > band.bottom + 1 || cap.right > band.right + 1 || cap.left < band.left - 1)
    out.push('caption out of its band');
  if (band.top < r.top - 1 || band.bottom > r.bottom + 1 || band.left < r.left - 1 || band.right > r.right + 1)
    out.push('band out of the attract box');
  for (const c of chips) {
    const q = c.getBoundingClientRect();
    if (q.top < band.top - 1 || q.bottom > band.bottom + 1 || q.left < band.left - 1 || q.right > band.right + 1 || meet(q, cap))
      out.push(`score chip out of the band, or over the caption: "${c.textContent}"`);
  }
  // the title (and the chips, wherever they are) clear of the little table, its phone tag and Skip
  const table = [...box.querySelectorAll('.att-plate, .att-card, .att-phone:not([hidden]), .att-skip')];
  for (const t of [title, ...chips].filter(Boolean)) {
    const p = t.getBoundingClientRect();
    for (const e of table) {
      const q = e.getBoundingClientRect();
      if (q.width && q.height && meet(p, q)) out.push(`"${t.textContent.trim()}" over ${e.className} "${e.textContent.trim()}"`);
    }
    if (p.left < r.left - 1 || p.top < r.top - 1 || p.right > r.right + 1 || p.bottom > r.bottom + 1)
      out.push(`"${t.textContent.trim()}" out of the attract box`);
  }
  return out;
}"""


def attract_check(page: Page) -> list[str]:
    """What keeps the lobby's attract loop from being read from the sofa (empty when it can be)."""
    return page.evaluate(ATTRACT_CHECK, [CAPTION_LEAST, TITLE_LEAST, CHIP_LEAST, NAME_LEAST])


#: The round's story, read from the sofa like the lobby loop's names: every word of it at least STORY_LEAST of the
#: window's height, every name whole (no ellipsis), the panel inside the table's felt (its plates are the
#: self-check's: the story is in its centre/plates clash).
STORY_LEAST = 0.018
STORY_CHECK = """(least) => {
  const out = [];
  const box = document.querySelector('.story');
  if (!box) return ['no story'];
  const S = Math.min(innerHeight, innerWidth * 9 / 16);  // sizes are shares of a 16:9 height: see the self-check's cards
  // the stage is scaled to the window (a transform): a computed font size is in the stage's pixels
  const k = box.getBoundingClientRect().width / box.offsetWidth;
  const words = [...box.querySelectorAll('*')].filter((e) =>
    [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.data.trim()));
  if (!words.length) out.push('a story without words');
  for (const e of words) {
    const px = parseFloat(getComputedStyle(e).fontSize) * k;
    if (px < least * S - 0.01)
      out.push(`story ${e.className} "${e.textContent.trim().slice(0, 20)}" ${px.toFixed(1)} px < ${(least * 100).toFixed(1)} % of ${Math.round(S)}`);
  }
  for (const n of box.querySelectorAll('.story-name'))
    if (n.scrollWidth > n.clientWidth + 1) out.push(`story name cut: "${n.textContent}"`);
  // the legend may wrap, but only between its items: "★" at a line's end and "carré" on the next reads as broken
  const legend = box.querySelector('.legend');
  if (legend) {
    const nodes = [];
    const walk = document.createTreeWalker(legend, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) nodes.push(n);
    const at = (i) => { for (const n of nodes) { if (i <= n.data.length) return [n, i]; i -= n.data.length; } };
    let start = 0;
    for (const item of legend.textContent.split(' · ')) {
      const range = document.createRange();
      range.setStart(...at(start));
      range.setEnd(...at(start + item.length));
      const tops = new Set([...range.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top)));
      if (tops.size > 1) out.push(`story legend item broken over two lines: "${item.trim()}"`);
      start += item.length + 3;
    }
  }
  const r = box.getBoundingClientRect();
  const felt = document.querySelector('#felt').getBoundingClientRect();
  if (r.left < felt.left - 1 || r.top < felt.top - 1 || r.right > felt.right + 1 || r.bottom > felt.bottom + 1)
    out.push('story outside the table: ' + JSON.stringify([r.left, r.top, r.right, r.bottom].map(Math.round)));
  return out;
}"""


def story_check(page: Page) -> list[str]:
    """What keeps the round's story from being read from the sofa (empty when it can be)."""
    return page.evaluate(STORY_CHECK, STORY_LEAST)


def story_marks(page: Page) -> list[list[Any]]:
    """The round's story as the TV draws it: ``[seat, kind, t, sign]`` for each mark, row by row."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.story-row')].flatMap((row) =>
             [...row.querySelectorAll('.story-mark')].map((m) =>
               [+row.dataset.seat, m.dataset.kind, +m.dataset.t, m.dataset.sign || null]))"""
    )


def recorded_marks(story: list[dict[str, Any]]) -> list[list[Any]]:
    """The same shape from the story the server recorded (``result.story.events``): what the TV must draw."""
    return [
        [e["seat"], e["kind"], e["t"], None if e["kind"] != "emit" else ("true" if e["sign"] else "false")]
        for e in story
    ]

"""The big screen's layout checks, run in the page: the self-check (nothing outside the window, overlapping, cut
or out of reach; the centre cards big enough), the lobby's attract loop and the round's story read from the sofa;
the screens they are run at, and :func:`settle`, which lets a resized page come to rest before a check.

Re-exported by tests/browser/screen_helpers.py, where the tests have always found them.
"""

from __future__ import annotations

from playwright.sync_api import Page

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
ATTRACT_CHECK = """async ([captionLeast, titleLeast, chipLeast, nameLeast]) => {
  const out = [];
  const box = document.querySelector('#attract');
  if (!box || box.hidden || !box.querySelector('.att-caption')) return ['no attract loop'];
  // the little table's cards are measured where they land: a swap flies a card across the table for 650 ms
  // (attract-draw.js), and a check that falls in that flight would find it over the title (at most 2 s)
  const flights = () => document.getAnimations().filter((a) => a.playState === 'running' && a.effect
    && a.effect.target && a.effect.target.matches && a.effect.target.matches('#attract .att-card'));
  const end = performance.now() + 2000;
  for (let now = flights(); now.length && performance.now() < end; now = flights())
    await Promise.race([Promise.all(now.map((a) => a.finished.catch(() => null))),
      new Promise((done) => setTimeout(done, end - performance.now()))]);
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


#: Resolves when what moves on the big screen now (a notice's entrance, a plate's pop, a card's flight, a burst)
#: has ended, or after ``atMostMs``, whichever comes first: a check or a picture then sees the page at rest as
#: soon as it is, and never later than a fixed pause of ``atMostMs`` would have. The lobby's attract loop, which
#: never rests, is left out, and so is whatever loops for ever.
AT_REST = """async (atMostMs) => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  await frame();
  await frame();
  const attract = document.querySelector('#attract');
  const moving = document.getAnimations().filter((a) => {
    const timing = a.effect && a.effect.getComputedTiming();
    const target = a.effect && a.effect.target;
    return a.playState === 'running' && timing && Number.isFinite(timing.endTime)
      && !(attract && target && attract.contains(target));
  });
  await Promise.race([Promise.all(moving.map((a) => a.finished.catch(() => null))),
    new Promise((done) => setTimeout(done, atMostMs))]);
}"""

#: A resized big screen comes to rest: its stage scaled to the window, the splash gone, what moves now at its end
#: (``AT_REST``, at most 450 ms) and the page no longer overflowing the window (a real overflow stays: the check
#: then says so). Waited for in the page, frame by frame, in one call.
SETTLE = (
    """async ([w, h, limitMs, overflowMs]) => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  const until = async (ok, ms, what) => {
    const end = performance.now() + ms;
    while (!ok()) {
      if (performance.now() > end) {
        if (what) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
        return;
      }
      await frame();
    }
  };
  const de = document.documentElement;
  const scale = Math.min(w / 1920, h / 1080);
  await until(() => Math.abs(parseFloat(de.style.getPropertyValue('--stage-scale')) - scale) < 1e-6, limitMs,
    `the stage's scale at ${w}x${h}`);
  await until(() => document.querySelector('#splash').hidden, limitMs, 'the splash to end');
  await until(() => !document.querySelector('#attract [data-styling]'), limitMs, "the attract loop's stylesheet");
  await ("""
    + AT_REST
    + """)(450);
  await until(() => de.scrollWidth <= innerWidth && de.scrollHeight <= innerHeight, overflowMs);
}"""
)


def settle(page: Page, width: int, height: int) -> None:
    """Let the big screen, just resized to ``width``×``height``, come to rest before a check (see ``SETTLE``)."""
    from ..timeouts import limit_ms

    page.evaluate(SETTLE, [width, height, limit_ms(30), limit_ms(2)])


def at_rest(page: Page, at_most: float) -> None:
    """Until what moves on the big screen now has ended, at most ``at_most`` seconds (see ``AT_REST``)."""
    page.evaluate(AT_REST, at_most * 1000)

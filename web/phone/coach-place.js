// Where the coach's bubble goes (phone/coach.js): beside the control it is about, never over what the player must
// keep seeing. Three kinds of zone, each a function returning elements:
//   keep   never covered (the seat strip, the help button, your hand, the calls): a partner's flash, a card or
//          Quatro! is never hidden;
//   clear  covered only when nothing better exists (the centre, the emoji tray), as little as possible;
//   spare  a zone the bubble may lie over instead of beside its control (its control then glows).
// And `room(h)`: the page may make room for a bubble `h` px tall (the play screen lends the strip's spare height)
// and return that empty zone, or null when it has none.
// The bubble is placed beside its control (above or below) when that covers nothing kept nor clear; else in the
// room the page makes (a room shorter than the bubble lets it lie over what follows, if that is nothing kept) or
// over the spare zone; else wherever on the screen covers nothing kept and the least of the
// rest; failing everything, nowhere: the bubble waits out of sight until the page has room for it (a player who
// opened the tray on a small screen is busy; a bubble over the emoji or the cards they tap would cost them). The
// coach decides what counts as clear for each hint (coach.js: a calm hint keeps off the clear zones too).

const MARGIN = 8;
const GAP = 10; // room for the arrow

const shown = (z) => z && z.isConnected && z.getClientRects().length > 0 && !z.closest('[hidden]');
const area = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
  * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

/**
 * Place `el` (position: fixed) for `target`; returns `{ side, glow }`: side is 'above', 'below' or 'over' (lying
 * over a zone, not pointing), or null when no place covers nothing kept (then `el` is not moved); glow whether
 * the target should glow (no arrow points at it).
 */
export function placeBubble(el, target, { keep = () => [], clear = () => [], spare = () => null, room = null } = {}) {
  if (room) room(0); // measure the page as it is without the bubble
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  el.style.maxWidth = `${Math.min(360, vw - 2 * MARGIN)}px`;
  el.style.left = '0px';
  el.style.top = '0px';
  const w = el.offsetWidth;
  const h = el.offsetHeight;
  const r = target.getBoundingClientRect();
  const cx = r.left + r.width / 2;
  const within = (x) => Math.min(Math.max(MARGIN, x), vw - w - MARGIN);
  const put = (side, top, left, glow) => {
    el.style.left = `${Math.round(left)}px`;
    el.style.top = `${Math.round(Math.max(MARGIN, Math.min(top, vh - h - MARGIN)))}px`;
    el.dataset.side = side;
    el.style.setProperty('--arrow-x', `${Math.round(Math.min(Math.max(18, cx - left), w - 18))}px`);
    return { side, glow };
  };
  // A page may offer a zone the hint lies over (data-coach-place="over": text the hint repeats).
  if (target.dataset && target.dataset.coachPlace === 'over') {
    return put('over', Math.min(r.top, vh - h - MARGIN), within(cx - w / 2), false);
  }
  const rects = (list) => list.filter((z) => shown(z) && !z.contains(target) && !target.contains(z))
    .map((z) => z.getBoundingClientRect());
  const keptNow = () => rects(keep()).concat([target.getBoundingClientRect()]); // and never over its own control
  const kept = keptNow();
  const soft = rects(clear());
  const box = (left, top) => ({ left, top, right: left + w, bottom: top + h });
  const blocked = (b, zones = kept) => zones.some((k) => area(b, k) > 0);
  const cost = (b) => soft.reduce((sum, z) => sum + area(b, z), 0);

  const left = within(cx - w / 2);
  const beside = [{ side: 'above', top: r.top - h - GAP }, { side: 'below', top: r.bottom + GAP }]
    .filter((p) => p.top >= MARGIN && p.top + h <= vh - MARGIN);
  for (const p of beside) {
    const b = box(left, p.top);
    if (!blocked(b) && cost(b) === 0) return put(p.side, p.top, left, false);
  }
  // A zone made for it (if shorter, the rest over nothing kept), or one it may lie over.
  const made = room ? room(h) : null;
  if (made && shown(made)) {
    const z = made.getBoundingClientRect();
    const b = box(within(z.left + (z.width - w) / 2), Math.max(MARGIN, Math.min(z.top, vh - h - MARGIN)));
    if (!blocked(b, keptNow())) return put('over', b.top, b.left, true); // the strip gave its room: measure again
    room(0);
  }
  const zone = spare();
  if (shown(zone) && zone !== target) {
    const z = zone.getBoundingClientRect();
    const b = box(within(z.left + (z.width - w) / 2), Math.max(MARGIN, Math.min(z.top, vh - h - MARGIN)));
    if (!blocked(b) && cost(b) === 0) return put('over', b.top, b.left, true);
  }
  // Anywhere on the screen: nothing kept covered, the least of the rest, nearest to its control; in line with it,
  // else at its edges or the screen's (sideways, the hand fills the left half under a control on the right).
  let best = null;
  for (const p of beside) {
    const b = box(left, p.top);
    if (!blocked(b)) best = pick(best, { ...p, left, cost: cost(b), far: 0 });
  }
  const lefts = [...new Set([left, within(r.left), within(r.right - w), MARGIN, within(vw)])];
  for (const x of lefts) {
    for (let top = MARGIN; top + h <= vh - MARGIN; top += 4) {
      const b = box(x, top);
      const far = Math.abs(top + h / 2 - (r.top + r.height / 2)) + Math.abs(x + w / 2 - cx);
      if (!blocked(b)) best = pick(best, { side: 'over', top, left: x, cost: cost(b), far });
    }
  }
  if (best) return put(best.side, best.top, best.left, best.side === 'over');
  return { side: null, glow: false };
}

function pick(best, p) {
  if (!best || p.cost < best.cost - 1 || (Math.abs(p.cost - best.cost) <= 1 && p.far < best.far)) return p;
  return best;
}

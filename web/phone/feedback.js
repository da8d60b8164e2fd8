// Feedback at the finger: every tap is answered where the thumb is (accepted, refused with the reason, lost the
// race), with a haptic where the platform has one. iOS has no script vibration: there the channel's native switch
// gives the system's own tick. Table notices (a re-deal, a vote's end) go to the message line above the centre.
import { $ } from './dom.js';

let lastPointer = null; // {x, y, at}: where the last tap started
document.addEventListener('pointerdown', (e) => {
  lastPointer = { x: e.clientX, y: e.clientY, at: performance.now() };
}, { capture: true, passive: true });

const canVibrate = typeof navigator.vibrate === 'function';
const PATTERNS = { ok: 15, refused: [30, 60, 30], lost: [20, 40, 20], call: 30 };

/** A haptic tick where the platform has one (feature-detected: never on iOS, fine without). */
export function haptic(kind) {
  if (!canVibrate) return;
  try { navigator.vibrate(PATTERNS[kind] ?? 10); } catch { /* not allowed here: fine */ }
}

let fingerTimer = null;
// The bubble follows the page moving under it (the tray opens, a hint leaves: frames later on a busy phone).
let placeFinger;
const moved = new ResizeObserver(() => $('finger').hidden || placeFinger());
/**
 * Show `text` in a bubble just above where the finger last touched (or over `anchor`, an element, when the tap came
 * from a keyboard). kind: 'ok' | 'refused' | 'lost' | 'info' | 'hold'.
 */
export function atFinger(text, kind = 'info', { anchor = null, ms = 1600 } = {}) {
  const el = $('finger');
  if (!el) return;
  el.textContent = text;
  el.className = `finger ${kind}`;
  el.hidden = false;
  const W = document.documentElement.clientWidth;
  const H = document.documentElement.clientHeight;
  let x;
  let y;
  const p = lastPointer;
  if (p && performance.now() - p.at < 8000) { x = p.x; y = p.y; } else if (anchor) {
    const r = anchor.getBoundingClientRect();
    x = r.left + r.width / 2;
    y = r.top + r.height / 2;
  } else { x = W / 2; y = H / 2; }
  const w = el.offsetWidth;
  const hgt = el.offsetHeight;
  const place = () => {
    const at = bubbleAt(x, y, w, hgt, W, H);
    el.style.left = `${at.left}px`;
    el.style.top = `${at.top}px`;
  };
  place();
  el.dataset.kind = kind;
  clearTimeout(fingerTimer);
  el.classList.remove('pop');
  void el.offsetWidth;
  el.classList.add('pop');
  fingerTimer = setTimeout(() => { el.hidden = true; }, ms);
  placeFinger = place;
  for (const id of ['coach-room', 'tray', 'hand-zone']) moved.observe($(id));
}

// A bubble leaves your cards, the seats' lamps, help and the emoji tray (what a player who just took the channel
// taps next) in sight: above the thumb, else below, else nearer, else wherever it covers the least of them; centred
// on the finger, or slid sideways (the finger still under it) where that clears them.
const KEEP_CLEAR = ['hand-zone', 'strip', 'help', 'tray'];

function bubbleAt(x, y, w, hgt, W, H) {
  const keep = KEEP_CLEAR.map((id) => $(id)).filter((e) => e && !e.closest('[hidden]') && e.getClientRects().length)
    .map((e) => e.getBoundingClientRect());
  const covered = ({ left, top }) => keep.reduce((sum, r) => sum
    + Math.max(0, Math.min(left + w, r.right) - Math.max(left, r.left))
    * Math.max(0, Math.min(top + hgt, r.bottom) - Math.max(top, r.top)), 0);
  const fits = (left) => left >= 6 && left <= W - w - 6;
  const centred = Math.min(Math.max(6, x - w / 2), W - w - 6);
  const slid = keep.flatMap((r) => [r.right + 6, r.left - w - 6]).filter((l) => fits(l) && l <= x && x <= l + w);
  const tops = [y - hgt - 44, y + 44, y - hgt - 16, y + 16].filter((top) => top >= 6 && top <= H - hgt - 6);
  if (!tops.length) return { left: centred, top: Math.max(6, Math.min(y - hgt - 44, H - hgt - 6)) };
  const places = tops.flatMap((top) => [centred, ...slid].map((left) => ({ left, top })));
  return places.reduce((best, at) => (covered(at) < covered(best) ? at : best));
}

export function hideFinger() {
  const el = $('finger');
  if (el) el.hidden = true;
  clearTimeout(fingerTimer);
}

let toastTimer = null;
export function toast(text, kind = 'info', ms = 2200) {
  if (document.body.dataset.screen === 'play') { playMsg(text, kind === 'ok' ? 'ok' : kind, ms); return; }
  const el = $('toast');
  el.textContent = text;
  el.className = `toast ${kind}`;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, ms);
}

export function hideToast() {
  $('toast').hidden = true;
}

let playMsgTimer = null;
/** The message line of the play screen (table notices and hints); ms 0 keeps it until the next one. */
export function playMsg(text, kind = 'info', ms = 2500) {
  const el = $('play-msg');
  el.textContent = text;
  el.className = `play-msg ${kind}`;
  clearTimeout(playMsgTimer);
  if (ms) playMsgTimer = setTimeout(() => { el.textContent = ''; el.className = 'play-msg'; }, ms);
}

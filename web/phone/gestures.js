// Gestures: the calls are pressed and held (no stray touch lasts that long), with a ring that fills at the finger;
// a short tap is answered there ("Hold to call"); a double tap asks first. Everything is Pointer Events: WebKitGTK
// and desktop browsers send mouse pointers, phones touch pointers, and the page treats them alike.
import { $ } from './dom.js';
import { atFinger, haptic, hideFinger } from './feedback.js';

// Long enough that no brush of the thumb calls, short enough for a race: a guard of the page, not a rule duration.
export const HOLD_MS = 550;

// After the last finger lifts, some browsers still make a click of the touch: a question waits this long more.
const LIFT_SETTLE_MS = 250;

// A double tap's two taps, wide enough for two presses of VoiceOver (it makes a tap of its own double tap).
const TWICE_MS = 800;

const down = new Set(); // the pointers on the screen now
const onLift = [];
document.addEventListener('pointerdown', (e) => down.add(e.pointerId), { capture: true, passive: true });
for (const type of ['pointerup', 'pointercancel']) {
  document.addEventListener(type, (e) => {
    down.delete(e.pointerId);
    if (down.size || !onLift.length) return;
    const waiting = onLift.splice(0);
    setTimeout(() => waiting.forEach((fn) => fn()), LIFT_SETTLE_MS);
  }, { capture: true, passive: true });
}

// A page that loses the focus mid-press may never hear the release.
window.addEventListener('blur', () => {
  down.clear();
  onLift.splice(0).forEach((fn) => fn());
});

/** Run `fn` once no finger is on the screen (and the release has settled): a question never opens under a thumb. */
export function whenLifted(fn) {
  if (down.size) onLift.push(fn);
  else fn();
}

function ringAt(x, y) {
  const ring = $('hold-ring');
  ring.style.left = `${x}px`;
  ring.style.top = `${y}px`;
  ring.style.setProperty('--hold', `${HOLD_MS}ms`);
  ring.classList.remove('filling', 'done');
  ring.removeAttribute('hidden'); // an SVG element: the attribute, not the HTML hidden property
  ring.getBoundingClientRect(); // an SVG has no offsetWidth: this applies the empty ring before it fills
  ring.classList.add('filling');
  return ring;
}

/**
 * Press and hold `btn`: onFire after HOLD_MS. A short tap says `holdText()` at the finger. A double tap (once its
 * release has settled) or a click with no pointer (a keyboard, a screen reader) runs onAsk: a question.
 */
export function holdButton(btn, { onFire, onAsk, holdText, refusedText }) {
  let timer = null;
  let ring = null;
  let pressed = 0; // the press's own time (event.timeStamp): a starved page may hear the release before its timer
  let tapped = -1e9; // when the last short tap ended
  const fire = () => {
    clearTimeout(timer);
    timer = null;
    btn.classList.remove('holding');
    if (ring) {
      ring.classList.add('done');
      const r = ring;
      setTimeout(() => r.setAttribute('hidden', ''), 250);
      ring = null;
    }
    haptic('call');
    onFire();
  };
  const stop = (e) => {
    if (!timer) return;
    if (e && e.type === 'pointerup' && e.timeStamp - pressed >= HOLD_MS) { fire(); return; } // held: the thumb's time
    clearTimeout(timer);
    timer = null;
    btn.classList.remove('holding');
    if (ring) { ring.setAttribute('hidden', ''); ring = null; }
    if (!e || e.type !== 'pointerup') return;
    const now = performance.now();
    if (now - tapped < TWICE_MS) { tapped = -1e9; hideFinger(); setTimeout(onAsk, LIFT_SETTLE_MS); return; }
    tapped = now;
    atFinger(holdText(), 'hold', { anchor: btn, ms: 1400 });
    haptic('refused');
  };
  btn.addEventListener('pointerdown', (e) => {
    if (timer) return;
    if (e.button != null && e.button > 0) return;
    e.preventDefault();
    if (btn.getAttribute('aria-disabled') === 'true') {
      const why = refusedText && refusedText();
      if (why) { atFinger(why, 'refused', { anchor: btn }); haptic('refused'); }
      return;
    }
    try { btn.setPointerCapture(e.pointerId); } catch { /* a synthetic pointer */ }
    hideFinger();
    btn.classList.add('holding');
    ring = ringAt(e.clientX, e.clientY);
    pressed = e.timeStamp;
    timer = setTimeout(fire, HOLD_MS);
  });
  btn.addEventListener('pointerup', stop);
  btn.addEventListener('pointercancel', stop);
  btn.addEventListener('contextmenu', (e) => e.preventDefault());
  btn.addEventListener('click', (e) => {
    if (e.detail === 0 && btn.getAttribute('aria-disabled') !== 'true') onAsk();
  });
}

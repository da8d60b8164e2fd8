// What moves on the table, drawn on its own layer (#fx) with transform and opacity only: a swap's cards sliding
// between the seat and the place (R14), an emission's burst at its seat (R18), and the moment of a call — the
// QUATRO!/CONTRE! splash naming the caller and the accused, and the +1 flying to the score.
import { $, el, reducedMotion, teamAfter } from './dom.js';
import { store, playedBy } from './state.js';
import { stageBox } from './layout.js';
import { cardEl } from './cards.js';
import { plateOf, flash } from './seats.js';
import { placeOf } from './table.js';
import { t } from './strings.js';
import * as sound from './sound.js';

const SWAP_MS = 450;
const MARK_MS = 1600; // the highlight a swap leaves on the seat and the place
const BURST_MS = 1500; // .burst-emoji in screen.css
const BURST_RADIUS = 120; // the ring at rest (.burst .ring: 240 px); the 180 px emoji sits inside it
const SPLASH_MS = 1900;

// R14: the room sees who took what. The card put down slides from the seat to its place, the card taken slides
// from the place to the seat and fades; both the seat and the place keep a highlight for a moment.
export function animateSwap(e) {
  const plate = plateOf(e.seat);
  const card = placeOf(e.place);
  if (!plate || !card) return;
  const fx = $('#fx');
  const from = stageBox(plate.getBoundingClientRect(), fx);
  const to = stageBox(card.getBoundingClientRect(), fx);
  const dx = from.x - to.x;
  const dy = from.y - to.y;
  card.classList.remove('just-swapped');
  void card.offsetWidth; // restart the highlight
  card.classList.add('just-swapped');
  clearTimeout(card.__mark);
  card.__mark = setTimeout(() => card.classList.remove('just-swapped'), MARK_MS);
  flash(e.seat, 'swapping', MARK_MS);
  if (reducedMotion()) {
    card.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 300, easing: 'ease-out' });
    return;
  }
  card.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(0.45)`, opacity: 0.6 },
    { transform: 'translate(0, 0) scale(1)', opacity: 1 },
  ], { duration: SWAP_MS, easing: 'cubic-bezier(.2,.8,.2,1)' });
  const ghost = cardEl(e.took, 'big');
  ghost.classList.add('ghost');
  ghost.style.left = `${to.left}px`;
  ghost.style.top = `${to.top}px`;
  fx.append(ghost);
  const anim = ghost.animate([
    { transform: 'translate(0, 0) scale(1)', opacity: 1 },
    { transform: `translate(${dx}px, ${dy}px) scale(0.4)`, opacity: 0 },
  ], { duration: SWAP_MS + 150, easing: 'ease-in' });
  anim.onfinish = () => ghost.remove();
}

const meets = (x, y, r, q) => Math.max(0, Math.min(x + r, q.right) - Math.max(x - r, q.left)) *
  Math.max(0, Math.min(y + r, q.bottom) - Math.max(y - r, q.top));

// R18: each emission bursts at its seat, big, with a soft ring, for ~1.5 s — beside the plate, toward the
// table's centre, so that the emitter's name stays readable, and off the notice line (re-deal, vote…).
export function burst(seat, emoji) {
  const view = store.view;
  if (!view || view.phase !== 'play') return; // the reveal is not the time for signals
  const plate = plateOf(seat);
  const fx = $('#fx');
  if (!plate) return;
  const p = stageBox(plate.getBoundingClientRect(), fx);
  const name = stageBox(plate.querySelector('.seat-head').getBoundingClientRect(), fx);
  // A notice may still be sliding in (10 px): keep a margin around each.
  const grow = (q, m) => ({ left: q.left - m, right: q.right + m, top: q.top - m, bottom: q.bottom + m });
  const notes = [...document.querySelectorAll('#notices .notice:not([hidden])')]
    .map((n) => grow(stageBox(n.getBoundingClientRect(), fx), 14));
  const others = [...document.querySelectorAll('.seat .seat-head')].filter((h) => !plate.contains(h))
    .map((h) => stageBox(h.getBoundingClientRect(), fx));
  // The emoji stays on the screen (the fading ring may spill over the table's edge).
  const root = stageBox($('#root').getBoundingClientRect(), fx);
  const W = fx.clientWidth;
  const H = fx.clientHeight;
  const cx = W / 2;
  const cy = H / 2;
  const dist = Math.hypot(cx - p.x, cy - p.y) || 1;
  const base = Math.atan2(cy - p.y, cx - p.x);
  const R = BURST_RADIUS;
  const e = R * 0.8;
  // Toward the centre first, then turning aside (a bottom seat's burst may have to go beside its plate to keep
  // off the notices); the nearest spot that covers nothing wins. Its own name counts most, others' names least.
  let best = null;
  for (const turn of [0, 0.4, -0.4, 0.8, -0.8, 1.2, -1.2, 1.6, -1.6]) {
    const a = base + turn;
    for (let d = 0; d <= 520; d += 20) {
      const x = p.x + Math.cos(a) * d;
      const y = p.y + Math.sin(a) * d;
      const inside = x - e >= root.left && x + e <= root.right && y - e >= root.top && y + e <= root.bottom;
      const cost = meets(x, y, R, name) * 4 + notes.reduce((sum, q) => sum + meets(x, y, R, q), 0) +
        others.reduce((sum, q) => sum + meets(x, y, R, q) * 0.5, 0) + (inside ? 0 : 1e6);
      if (!best || cost < best.cost - 1) best = { x, y, cost };
      if (!cost) break;
    }
    if (!best.cost) break;
  }
  for (const old of fx.querySelectorAll(`.burst[data-seat="${seat}"]`)) old.remove();
  const b = el('div', `burst team-${view.seats[seat] ? view.seats[seat].team : 0}`);
  b.dataset.seat = String(seat);
  b.dataset.cost = String(Math.round(best.cost));
  b.style.transform = `translate(${Math.round(best.x)}px, ${Math.round(best.y)}px)`;
  b.append(el('span', 'ring'), el('span', 'ring ring2'), el('span', 'burst-emoji emoji', emoji));
  fx.append(b);
  flash(seat, 'emitting', BURST_MS);
  // Gone when its animation ends (a busy machine may start it late), or after 4 s at the latest.
  b.querySelector('.burst-emoji').addEventListener('animationend', () => b.remove());
  setTimeout(() => b.remove(), 4000);
  document.body.dataset.bursts = String(Number(document.body.dataset.bursts || 0) + 1);
}

export function clearBursts() {
  for (const b of document.querySelectorAll('#fx .burst')) b.remove();
}

// --- the moment of a call ----------------------------------------------------------------------------
export const splashes = []; // for tests and debugging: every splash shown, {kind, correct, caller, text}
let splashTimer = null;

export function callSplash(result) {
  if (!result || (result.end !== 'quatro' && result.end !== 'contre')) return;
  const view = store.view;
  const box = $('#splash');
  const caller = view.seats[result.caller];
  const team = caller ? caller.team : 0;
  const word = t(result.end).toLocaleUpperCase(document.documentElement.lang); // the call, shouted: QUATRO! (French: QUATRO !)
  const on = result.end === 'quatro' ? playedBy(result, result.target) : t('team', { team: teamAfter(result.target) });
  box.replaceChildren();
  box.className = `team-${team} ${result.correct ? 'right' : 'wrong'} ${reducedMotion() ? 'fade' : 'zoom'}`;
  const inner = el('div', 'splash-inner');
  inner.append(el('div', 'splash-word', word),
    el('div', 'splash-who', t('splash_who', { caller: playedBy(result, result.caller), on })),
    el('div', 'splash-verdict', result.correct ? `✓ ${t('call_right')}` : `✗ ${t('call_wrong')}`));
  box.append(inner);
  box.hidden = false;
  splashes.push({ kind: result.end, correct: !!result.correct, caller: playedBy(result, result.caller), text: box.textContent });
  sound.cue(result.correct ? 'right' : 'wrong');
  clearTimeout(splashTimer);
  splashTimer = setTimeout(() => { box.hidden = true; box.replaceChildren(); }, SPLASH_MS);
  setTimeout(() => flyPoints(result.scorers || []), 700);
}

// The +1 leaves the middle of the screen for each scoring team's chip in the top bar.
function flyPoints(teams) {
  const root = $('#root');
  for (const team of teams) {
    const chip = document.querySelector(`.score[data-team="${team}"] .points`);
    if (!chip) continue;
    const to = stageBox(chip.getBoundingClientRect(), root);
    const x0 = root.clientWidth / 2;
    const y0 = root.clientHeight / 2;
    const plus = el('div', `fly-plus team-${team}`, '+1');
    plus.setAttribute('aria-hidden', 'true'); // a flourish: the score it flies to is what is read
    plus.style.left = `${x0}px`;
    plus.style.top = `${y0}px`;
    root.append(plus);
    const frames = reducedMotion()
      ? [{ opacity: 0 }, { opacity: 1, offset: 0.3 }, { opacity: 0 }]
      : [{ transform: 'translate(-50%, -50%) scale(1.6)', opacity: 0 },
        { transform: 'translate(-50%, -50%) scale(1.6)', opacity: 1, offset: 0.2 },
        { transform: `translate(calc(${to.x - x0}px - 50%), calc(${to.y - y0}px - 50%)) scale(0.6)`, opacity: 1,
          offset: 0.85 },
        { transform: `translate(calc(${to.x - x0}px - 50%), calc(${to.y - y0}px - 50%)) scale(0.5)`, opacity: 0 }];
    const a = plus.animate(frames, { duration: 1300, easing: 'cubic-bezier(.5,0,.3,1)', fill: 'forwards' });
    a.onfinish = () => plus.remove();
    setTimeout(() => plus.remove(), 3000);
  }
}

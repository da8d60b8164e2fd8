// The phone's one dialog: a question over the table (R23's reminder, the accused team, the seat link…). Its
// answers ignore input for a beat (common/guard.js); one about a control (`avoid`) opens away from it.
import { S } from './state.js';
import { $, h } from './dom.js';
import { arm, ARM_MS } from '../common/guard.js';

export function openModal(kind, { title, text = '', actions = [], until = null, cls = '', extra = null, avoid = null }) {
  S.modal = kind;
  const m = $('modal');
  m.className = `modal ${cls}`;
  m.setAttribute('aria-modal', kind === 'vote' ? 'false' : 'true'); // a vote never stops play (R31)
  m.dataset.kind = kind;
  $('modal-title').textContent = title;
  $('modal-text').textContent = text;
  dropModalExtra();
  if (extra) { extra.classList.add('modal-extra'); $('modal-text').before(extra); }
  const box = $('modal-actions');
  box.replaceChildren(...actions.map((a) => h('button', {
    type: 'button', class: `btn ${a.cls || ''}`, 'data-action': a.id || '', style: a.style || null,
    'aria-label': a.aria || null,
    onclick: () => { if (a.keep !== true) closeModal(); if (a.run) a.run(); },
  }, a.label)));
  const count = $('modal-count');
  count.hidden = until == null;
  m._until = until;
  m.hidden = false;
  placeAway(m, avoid);
  tickModal();
  const buttons = [...box.querySelectorAll('button')];
  arm(buttons);
  const dialog = m.querySelector('.modal-box');
  dialog.focus({ preventScroll: true }); // its answers take focus once they are armed
  setTimeout(() => {
    if (!m.hidden && document.activeElement === dialog && buttons[0] && buttons[0].isConnected) buttons[0].focus({ preventScroll: true });
  }, ARM_MS);
  overlayChanged();
}

const meet = (p, q) => p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom;

// Away from the control the question is about: on the other half of the screen (sideways, the other column when
// the top or bottom is not enough), so that no answer lies where the thumb was.
function placeAway(m, avoid) {
  m.classList.remove('at-top', 'at-left', 'at-right');
  if (!avoid || !avoid.isConnected) return;
  const r = avoid.getBoundingClientRect();
  const W = document.documentElement.clientWidth;
  const H = document.documentElement.clientHeight;
  const clear = () => ![...m.querySelectorAll('.modal-actions button')].some((b) => meet(b.getBoundingClientRect(), r));
  const vertical = r.top + r.height / 2 > H / 2 ? 'at-top' : null;
  if (vertical) m.classList.add(vertical);
  if (clear() || W <= H) return;
  m.classList.add(r.left + r.width / 2 > W / 2 ? 'at-left' : 'at-right');
}

/** A question or a sheet opened or closed over the table (the coach's hint steps aside meanwhile). */
export function overlayChanged() {
  document.dispatchEvent(new Event('quatro:overlay'));
}

export function closeModal(kind = null) {
  if (kind && S.modal !== kind) return;
  S.modal = null;
  $('modal').hidden = true;
  dropModalExtra();
  overlayChanged();
}

function dropModalExtra() {
  // Whatever a modal added beside its text (the seat link's QR code); its image's object URL goes with it.
  for (const el of $('modal').querySelectorAll('.modal-extra')) {
    for (const img of el.querySelectorAll('img[src^="blob:"]')) URL.revokeObjectURL(img.src);
    el.remove();
  }
  $('modal-text').classList.remove('selectable');
}

export function tickModal() {
  const m = $('modal');
  if (m.hidden || m._until == null) return;
  const { total, secs } = m._until();
  const count = $('modal-count');
  count.firstElementChild.textContent = `${Math.ceil(secs)} s`;
  count.style.setProperty('--frac', String(total > 0 ? Math.max(0, Math.min(1, secs / total)) : 0));
}

// The phone's one dialog: a question over the table (R23's reminder, the accused team, a vote, the seat link).
import { S } from './state.js';
import { $, h } from './dom.js';

export function openModal(kind, { title, text = '', actions = [], until = null, cls = '', extra = null }) {
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
  tickModal();
  const first = box.querySelector('button');
  if (first) first.focus({ preventScroll: true });
  overlayChanged();
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

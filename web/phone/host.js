// The host's remote (VIP): a phone opened with the TV's ?vip=… link holds the host controls too, without giving up
// its seat. A bar under the top strip offers what the host may do now (all decided by the server: a control that
// does not fit the moment comes back refused, with the reason at the finger).
import { S } from './state.js';
import { $, h } from './dom.js';
import { t, loadLaterWords } from './strings.js';
import { send } from './net.js';
import { openModal } from './modal.js';
import { styles } from './later.js';

await styles('host'); // its own stylesheet, applied before it draws

await loadLaterWords(); // the remote's words are among the rarer screens' (only a VIP phone needs them)
const w = (key, vars = {}) => t(`remote_${key}`, vars);

function hostSend(action, fields = {}, anchor = null) {
  send({ type: 'host', action, ...fields }, { kind: 'host', anchor });
}

function button(label, action, fields = {}, cls = '') {
  const b = h('button', { type: 'button', class: `btn ${cls}`, 'data-host': action });
  b.textContent = label;
  b.addEventListener('click', () => hostSend(action, fields, b));
  return b;
}

/** Draw the host bar from the view (nothing when this phone does not hold the host's rights). */
export function renderHost() {
  const bar = $('host-bar');
  const v = S.view;
  if (!S.host || !v) { bar.hidden = true; bar.replaceChildren(); return; }
  const phase = v.phase;
  const kids = [h('span', { class: 'host-tag', text: w('tag') })];
  if (phase === 'lobby') kids.push(button(w('start'), 'start_game', {}, 'primary'), button(w('practice'), 'start_practice'));
  if (['sign', 'play', 'pause'].includes(phase)) {
    kids.push(v.paused ? button(w('resume'), 'resume', {}, 'primary') : button(w('pause'), 'pause', {}, 'primary'));
    if (phase === 'pause') kids.push(button(w('next'), 'next_round'));
    // Ending is final and sits next to Pause: it asks first, as the TV does.
    const end = h('button', { type: 'button', class: 'btn', 'data-host': 'end_game', onclick: () => confirmEnd(end) }, w('end'));
    kids.push(end);
  }
  if (phase === 'over') kids.push(button(w('new_game'), 'new_game', {}, 'primary'));
  const locked = !!(S.table && S.table.locked);
  kids.push(button(locked ? w('unlock') : w('lock'), 'lock', { locked: !locked }));
  const seatsBtn = h('button', { type: 'button', class: 'btn', 'data-host': 'seats', onclick: seatsMenu }, w('seats'));
  kids.push(seatsBtn);
  bar.replaceChildren(...kids);
  bar.hidden = false;
}

function confirmEnd(anchor) {
  openModal('host_end', {
    title: w('end'), text: w('end_confirm'),
    actions: [
      { id: 'end-yes', label: w('end_yes'), cls: 'primary', run: () => hostSend('end_game', {}, anchor) },
      { id: 'cancel', label: t('cancel'), cls: 'ghost' },
    ],
  });
}

// The seats, each with what the host may do to it: a player's seat to a bot (it keeps the hand), or given away.
function seatsMenu() {
  const v = S.view;
  const actions = [];
  for (const s of v.seats) {
    if (s.kind !== 'human') continue;
    actions.push({ id: `bot-${s.seat}`, label: w('to_bot', { name: s.name }), run: () => hostSend('replace_with_bot', { seat: s.seat }) });
    actions.push({ id: `kick-${s.seat}`, label: w('kick', { name: s.name }), cls: 'ghost', run: () => hostSend('kick', { seat: s.seat }) });
  }
  actions.push({ id: 'cancel', label: t('cancel'), cls: 'ghost' });
  openModal('host_seats', { title: w('seats'), text: w('seats_text'), cls: 'pick', actions });
}

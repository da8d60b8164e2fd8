// The join screen (a name, a seat, or "Watch") and the waiting room of a seated phone in the lobby.
import { S, me, teamName, team, teamAfter, changed, NAME_KEY, TOKEN_KEY, JOIN_KEY } from './state.js';
import { $, h } from './dom.js';
import { t } from './strings.js';
import { send } from './net.js';
import { atFinger } from './feedback.js';
import { openModal } from './modal.js';
import { keepAwake } from './awake.js';
import { TEAM_SHAPES } from '../common/teams.js';

function seatFreed(s) {
  // A player's seat the host freed (table.freed): its hand waits for the next phone to join it (R33).
  return s.kind === 'human' && (S.table.freed || []).includes(s.seat);
}

/** A seat a newcomer may take now: the server says which (`table.offered`, in every state). */
export function seatOffered(s) {
  return (S.table.offered || []).includes(s.seat);
}

export function seatNotFreed(seat) {
  const s = S.view && S.view.seats[seat];
  return !!s && s.kind === 'human' && !s.connected && !seatFreed(s);
}

export function renderJoin() {
  const v = S.view;
  if (!changed('join', v && v.phase, v && v.seats.map((s) => [s.kind, s.name, s.connected]), S.table.freed,
    S.table.offered, S.table.locked, S.joinMsg, S.kicked)) return;
  $('name-label').textContent = t('name_label');
  $('name').placeholder = t('name_placeholder');
  $('pick-seat-title').textContent = t('pick_seat');
  $('seats-hint').textContent = t('seats_hint');
  $('join-msg').textContent = S.joinMsg;
  const kicked = $('kicked');
  kicked.hidden = !S.kicked;
  kicked.textContent = S.kicked || '';
  const list = $('seat-list');
  const watch = $('btn-watch');
  watch.textContent = t('watch');
  watch.hidden = !v || !!S.table.locked; // a locked table lets nobody new watch: no button that does nothing
  if (!v) { list.replaceChildren(); return; }
  const rows = v.teams.map((tm) => h('div', { class: `team-row team-${tm.team}` },
    h('div', { class: 'team-name' }, h('b', { class: 'shape', text: TEAM_SHAPES[tm.team] }), teamName(tm.team)),
    h('div', { class: 'pair' }, tm.seats.map((i) => seatButton(v.seats[i], tm.team)))));
  list.replaceChildren(...rows);
  const free = v.seats.some(seatOffered);
  const offline = v.seats.some((s) => seatNotFreed(s.seat));
  if (!free && !S.joinMsg) {
    $('join-msg').textContent = S.table.locked ? t('table_locked')
      : offline ? t('ask_host_free') : v.phase === 'lobby' ? t('no_free_seat') : t('game_running');
  }
}

function seatButton(s, tm) {
  const free = seatOffered(s);
  const label = s.kind === 'empty' ? t('free') : s.name;
  return h('button', {
    type: 'button', class: `seat ${free ? 'free' : 'held'}${s.connected ? '' : ' gone'}`, 'data-seat': s.seat,
    disabled: !free, 'aria-label': free ? t('sit_here_label', { n: s.seat + 1, team: teamAfter(tm) })
      : t('held_by', { n: s.seat + 1, name: s.name }),
    onclick: () => join(s.seat),
  }, h('span', { class: 'seat-no', text: `${s.seat + 1}` }),
  h('span', { class: 'seat-text' }, h('span', { class: 'seat-name', text: label }),
    free ? h('small', { text: s.kind === 'empty' ? t('sit_here') : s.kind === 'bot' ? t('take_over_bot') : t('take_over') }) : null,
    !free && s.kind === 'human' && !s.connected ? h('small', { text: t('offline_ask_host') }) : null,
    !free && s.kind === 'bot' ? h('small', { text: t('bot') }) : null));
}

export function join(seat) {
  const input = $('name');
  const name = input.value.trim();
  if (!name) {
    S.joinMsg = t('name_needed');
    renderJoin();
    if ($('screen-join').hidden) atFinger(t('name_needed'), 'refused');
    else input.focus();
    return;
  }
  localStorage.setItem(NAME_KEY, name);
  keepAwake();
  S.joinMsg = '';
  S.kicked = null;
  // Its key: a join whose reply is lost goes again (messages.js), after a reload too.
  const msg = { type: 'join', seat, name, key: crypto.getRandomValues(new Uint8Array(16)).join('-') };
  if (send(msg, { seat, name, msg }) != null) localStorage.setItem(JOIN_KEY, JSON.stringify({ at: Date.now(), msg }));
}

export function setupJoin() {
  const input = $('name');
  input.value = localStorage.getItem(NAME_KEY) || '';
  input.addEventListener('change', () => localStorage.setItem(NAME_KEY, input.value.trim()));
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') input.blur(); });
  $('btn-watch').addEventListener('click', () => {
    keepAwake();
    S.kicked = null;
    send({ type: 'watch' });
  });
}

function seatLine(i) {
  const s = S.view.seats[i];
  const you = me();
  return h('li', { class: `seat-line team-${s.team}${s.connected ? '' : ' gone'}` },
    h('b', { class: 'shape', text: TEAM_SHAPES[s.team] }),
    h('span', { class: 'nm', text: s.kind === 'empty' ? t('partner_empty') : s.name }),
    s.kind === 'bot' ? h('small', { text: t('bot') }) : null,
    you && i === you.seat ? h('small', { class: 'you', text: t('you_tag') }) : null,
    s.kind === 'human' && !s.connected ? h('small', { text: t('offline') }) : null);
}

export function renderWait() {
  const v = S.view;
  const you = me();
  if (!changed('wait', you.seat, v.seats.map((s) => [s.kind, s.name, s.connected]), v.practice)) return;
  $('screen-wait').className = `screen team-${you.team}`;
  $('wait-body').replaceChildren(
    h('h1', { class: 'brand', translate: 'no' }, 'Quatro ', h('span', { text: 'Party' })),
    h('div', { class: 'me-card' },
      h('p', { class: 'eyebrow', text: t('waiting_title') }),
      h('p', { class: 'me-name', text: v.seats[you.seat].name }),
      h('p', { class: 'me-team' }, h('b', { class: 'shape', text: TEAM_SHAPES[you.team] }), ' ', teamName(you.team)),
      h('p', { class: 'eyebrow', text: t('your_partner') }),
      h('ul', { class: 'seat-lines' }, seatLine(you.partner))),
    h('p', { class: 'waiting pulse', text: t('waiting_host') }),
    h('ul', { class: 'seat-lines all' }, v.seats.map((s) => seatLine(s.seat))),
    h('button', { type: 'button', class: 'btn ghost', id: 'btn-leave', onclick: (e) => askLeave(e.currentTarget) },
      t('leave_seat')));
}

// Leaving gives the seat away: asked first.
function askLeave(button) {
  openModal('leave', {
    title: t('leave_title'), text: t('leave_text'), avoid: button,
    actions: [
      { id: 'cancel', label: t('cancel'), cls: 'ghost' },
      { id: 'leave-yes', label: t('leave_yes'), cls: 'danger', run: () => { send({ type: 'leave' }); localStorage.removeItem(TOKEN_KEY); } },
    ],
  });
}

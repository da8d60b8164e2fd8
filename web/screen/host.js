// The host's controls on the big screen (only on the screen that proved the host secret): the lobby's bar
// (seats, bot level, fill with bots, start), each seat's buttons, "Next round now", "New game".
// Every control sends one message; the state that follows shows its effect.
import { $, el, button, patch } from './dom.js';
import { store, isHost } from './state.js';
import { t } from './strings.js';

let send = () => {};
export function connect(sender) { send = sender; }

const cmd = (msg) => () => send(msg);

// The buttons of one seat's plate, as [{label, cls, onClick}].
export function seatControls(s, freed) {
  const view = store.view;
  if (!isHost()) return [];
  const lobby = view.phase === 'lobby';
  const out = [];
  const b = (label, cls, msg) => out.push({ label, cls, onClick: cmd(msg) });
  if (lobby) {
    if (s.kind === 'empty' || freed) b(t('add_bot'), 'add-bot', { type: 'add_bot', seat: s.seat });
    if (s.kind === 'bot') b(t('remove_bot'), 'remove-bot', { type: 'remove_bot', seat: s.seat });
    if (s.kind === 'human') b(t('free'), 'free-seat', { type: 'free_seat', seat: s.seat });
    // A player can move to another device: their phone gets a one-time seat link.
    if (s.kind === 'human' && s.connected) b(t('allow_move'), 'allow-move', { type: 'allow_move', seat: s.seat });
  } else if (freed && view.phase !== 'over') {
    // A freed seat in a game: a bot can play its hand until (unless) a phone takes it over.
    b(t('add_bot'), 'add-bot', { type: 'add_bot', seat: s.seat });
  } else if (s.kind === 'human' && !s.connected && view.phase !== 'over') {
    b(t('free'), 'free-seat', { type: 'free_seat', seat: s.seat });
  }
  return out;
}

function segmented(label, cls, options, current, onPick) {
  const seg = el('div', `segmented ${cls}`);
  seg.setAttribute('role', 'group');
  seg.append(el('span', 'seg-label', label));
  for (const [value, text, bcls] of options) {
    const b = button(text, () => onPick(value), bcls);
    const on = value === current;
    b.classList.toggle('on', on);
    b.setAttribute('aria-pressed', on ? 'true' : 'false');
    seg.append(b);
  }
  return seg;
}

export function renderHostBar() {
  const view = store.view;
  const bar = $('#host-bar');
  const slot = $('#start-slot');
  const show = isHost() && view.phase === 'lobby';
  const level = (store.table.settings && store.table.settings.bot_level) || 'normal';
  patch(bar, show ? `${view.seat_count}|${level}|${document.documentElement.lang}` : '', () => {
    bar.replaceChildren();
    if (!show) return;
    bar.append(segmented(t('seats_label'), 'seats', [4, 6, 8].map((n) => [n, String(n), `seats-${n}`]),
      view.seat_count, (n) => send({ type: 'set_seats', count: n })));
    bar.append(segmented(t('bot_level'), 'levels',
      ['easy', 'normal', 'hard'].map((l) => [l, t(`level_${l}`), `level-${l}`]), level,
      (l) => send({ type: 'settings', bot_level: l })));
    bar.append(button(t('fill_bots'), cmd({ type: 'fill_bots' }), 'fill-bots'));
  });
  patch(slot, show ? `start|${document.documentElement.lang}` : '', () => {
    slot.replaceChildren();
    if (show) slot.append(button(t('start'), cmd({ type: 'start_game' }), 'primary start-game'));
  });
}

export function nextRoundButton() {
  if (!isHost()) return null;
  return { label: t('next_now'), node: () => button(t('next_now'), cmd({ type: 'next_round' }), 'primary next-round') };
}

export function newGameButton() {
  if (!isHost()) return null;
  return () => button(t('new_game'), cmd({ type: 'new_game' }), 'primary new-game');
}

// --- the host's rights across a restart, and what the journal set aside ------------------------------------
// A screen that proves the host secret is given a key of its own (`host_key`), kept for this tab: after a host
// restart the secret is new, and this key alone makes the same tab the host's screen again. A screen told
// `bad_host_secret` says so in plain words, with how to get the controls back: never a silent spectator screen.
const HOST_KEY = 'quatro.screen.key';
export const hostKey = () => sessionStorage.getItem(HOST_KEY);
export function keepHostKey(key) { sessionStorage.setItem(HOST_KEY, key); }

let lostRights = false;
let damageSeen = null; // the journal damage the host dismissed on this screen
export function rightsRefused() {
  lostRights = true;
  sessionStorage.removeItem(HOST_KEY); // a key the host does not know any more
  renderPowers();
}

function banner(id, cls) {
  let box = document.getElementById(id);
  if (!box) {
    box = el('div', `powers-banner ${cls}`);
    box.id = id;
    box.setAttribute('role', 'alert');
    document.body.append(box);
  }
  return box;
}

/** The banners of the host's powers: lost rights (until this screen is the host's again), journal damage. */
export function renderPowers() {
  if (isHost()) lostRights = false;
  const lost = banner('lost-rights', 'lost-rights');
  lost.hidden = !lostRights;
  patch(lost, lostRights ? `lost|${document.documentElement.lang}` : '', () => {
    lost.replaceChildren();
    if (lostRights) lost.append(el('strong', 'powers-title', t('host_lost_title')), el('p', 'powers-text', t('host_lost_text')));
  });
  const damage = store.table && store.table.journal_damage;
  const sig = damage ? JSON.stringify(damage) : '';
  const box = banner('journal-damage', 'journal-damage');
  box.hidden = !damage || damageSeen === sig;
  patch(box, box.hidden ? '' : `${sig}|${document.documentElement.lang}`, () => {
    box.replaceChildren();
    if (box.hidden) return;
    const words = { ...damage, line: String(damage.line) }; // a line number, not a quantity: no 1,234
    box.append(el('p', 'powers-text', t(damage.resumed ? 'host_damage_resumed' : 'host_damage_fresh', words)),
      button(t('host_damage_ok'), () => { damageSeen = sig; renderPowers(); }, 'damage-ok'));
  });
}

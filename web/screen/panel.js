// The host's panel on the TV (host screen only): during a game, pause/resume, end the game, a human seat given
// to a bot or taken away, the table locked, the VIP remote; between games, the settings of the next game (points
// to win, relaxed timers, language, seat count, bot level per seat). Every picker shows the current choice.
// Controls appear as the server offers them (the view's `paused`, `house_rules`, the table's `locked`).
import { TEAM_SHAPES } from '../common/teams.js';
import { language, setLanguage } from '../common/i18n.js';
import { $, el, button, patch } from './dom.js';
import { store, isHost } from './state.js';
import { qrSvg } from './qr.js';
import { t } from './strings.js';

let send = () => {};
let open = false;
let confirming = null; // {text, yes, msg}
let vipUrl = null;
const WINNING_SCORES = [3, 4, 5, 6, 7, 8, 9, 10];
const TIMER_FACTORS = [1, 1.5, 2];
const RULE_SCORE = 5; // only to label the rules' own choice: the view's house_rules says what is in force

let onClose = () => {};
export function connect(sender, closed = () => {}) { send = sender; onClose = closed; }
export const isOpen = () => open;

export function setVipLink(url) {
  vipUrl = url;
  render();
}

export function toggle(on = !open) {
  open = on && isHost();
  confirming = null;
  render();
}

const inGame = () => ['sign', 'play', 'pause'].includes(store.view.phase);
const houseRules = () => store.view.house_rules || store.table.house_rules || null;

function segmented(label, cls, options, current, onPick) {
  const row = el('div', `panel-row ${cls}`);
  row.append(el('label', 'panel-label', label));
  const seg = el('div', 'segmented');
  seg.setAttribute('role', 'group');
  for (const [value, text, bcls] of options) {
    const b = button(text, () => onPick(value), bcls);
    const on = value === current;
    b.classList.toggle('on', on);
    b.setAttribute('aria-pressed', on ? 'true' : 'false');
    seg.append(b);
  }
  row.append(seg);
  return row;
}

function confirmBox() {
  const box = el('div', 'panel-confirm');
  box.append(el('p', 'confirm-text', confirming.text));
  const row = el('div', 'panel-buttons');
  row.append(button(confirming.yes, () => { send(confirming.msg); confirming = null; render(); }, 'primary confirm-yes'),
    button(t('cancel'), () => { confirming = null; render(); }, 'confirm-no'));
  box.append(row);
  return box;
}

function tableRow() {
  const row = el('div', 'panel-buttons');
  if ('locked' in store.table) {
    const locked = !!store.table.locked;
    row.append(button(locked ? t('unlock') : t('lock'), () => send({ type: 'lock', locked: !locked }),
      `lock-table${locked ? ' on' : ''}`));
    row.append(el('span', 'panel-help', locked ? t('lock_help_on') : t('lock_help_off')));
  }
  return row;
}

function vipBlock() {
  const box = el('div', 'panel-vip');
  if (!('locked' in store.table)) return box; // a server without the remote
  const row = el('div', 'panel-buttons');
  row.append(button(t('vip'), () => send({ type: 'vip_link' }), 'vip-link'));
  if (vipUrl) row.append(button(t('vip_revoke'), () => { send({ type: 'revoke_vip' }); vipUrl = null; render(); }, 'vip-revoke'));
  box.append(row);
  if (vipUrl) {
    const qr = el('div', 'vip-qr');
    qr.innerHTML = qrSvg(vipUrl); // our own SVG, drawn from the server's link
    box.append(qr, el('p', 'panel-help', t('vip_help')));
  }
  return box;
}

function gameBody(body) {
  const view = store.view;
  const cols = el('div', 'panel-cols game');
  const left = el('div', 'panel-col');
  const row = el('div', 'panel-buttons');
  if ('paused' in view) {
    row.append(view.paused
      ? button(t('resume'), () => send({ type: 'resume' }), 'primary resume')
      : button(t('pause'), () => send({ type: 'pause' }), 'pause-game'));
    row.append(button(t('end_game'), () => {
      confirming = { text: t('end_game_confirm'), yes: t('end_game_yes'), msg: { type: 'end_game' } };
      render();
    }, 'end-game'));
  }
  left.append(row);
  if ('locked' in store.table) {
    left.append(el('h3', 'panel-sub', t('seats_now')));
    const list = el('div', 'panel-seats');
    for (const s of view.seats) {
      if (s.kind !== 'human') continue;
      const line = el('div', `panel-seat team-${s.team}`);
      line.dataset.seat = String(s.seat);
      line.append(el('span', 'shape', TEAM_SHAPES[s.team]), el('span', 'pname', s.name));
      line.append(button(t('to_bot'), () => send({ type: 'replace_with_bot', seat: s.seat }), 'to-bot'));
      line.append(button(t('kick'), () => {
        confirming = { text: t('kick_confirm', { name: s.name }), yes: t('kick_yes'), msg: { type: 'kick', seat: s.seat } };
        render();
      }, 'kick'));
      list.append(line);
    }
    left.append(list);
  }
  const right = el('div', 'panel-col');
  right.append(tableRow(), vipBlock());
  cols.append(left, right);
  body.append(cols);
}

function settingsBody(body) {
  const view = store.view;
  const h = houseRules();
  const cols = el('div', 'panel-cols');
  const left = el('div', 'panel-col');
  if (h) {
    left.append(segmented(t('points_to_win'), 'win-score',
      WINNING_SCORES.map((n) => [n, n === RULE_SCORE ? t('rules_default', { n }) : String(n), `score-${n}`]),
      h.winning_score, (n) => send({ type: 'settings', winning_score: n })));
    left.append(segmented(t('timers'), 'timer-factor',
      TIMER_FACTORS.map((f) => [f, t(`timer_${f}`), `timer-${String(f).replace('.', '-')}`]),
      Number(h.timer_factor), (f) => send({ type: 'settings', timer_factor: f })));
  }
  left.append(segmented(t('language'), 'language', [['en', 'English', 'lang-en'], ['fr', 'Français', 'lang-fr']],
    (store.table.settings && store.table.settings.language) || language(),
    (l) => { send({ type: 'settings', language: l }); setLanguage(l); }));
  left.append(segmented(t('seats_label'), 'seats', [4, 6, 8].map((n) => [n, String(n), `seats-${n}`]),
    view.seat_count, (n) => send({ type: 'set_seats', count: n })));
  const level = (store.table.settings && store.table.settings.bot_level) || 'normal';
  left.append(segmented(t('bot_level'), 'levels', ['easy', 'normal', 'hard'].map((l) => [l, t(`level_${l}`), `level-${l}`]),
    level, (l) => send({ type: 'settings', bot_level: l })));
  cols.append(left);
  const right = el('div', 'panel-col');
  const bots = store.table.bots || {};
  const botSeats = view.seats.filter((s) => s.kind === 'bot');
  if (botSeats.length) {
    right.append(el('h3', 'panel-sub', t('bot_levels')));
    for (const s of botSeats) {
      const current = bots[s.seat] || bots[String(s.seat)] || level;
      const row = segmented(`${TEAM_SHAPES[s.team]} ${s.name}`, `bot-seat team-${s.team}`,
        ['easy', 'normal', 'hard'].map((l) => [l, t(`level_${l}`), `seat-level-${l}`]), current,
        (l) => send({ type: 'add_bot', seat: s.seat, level: l }));
      row.dataset.seat = String(s.seat);
      right.append(row);
    }
  }
  right.append(tableRow(), vipBlock());
  if (view.phase === 'lobby' && 'practice' in view) {
    right.append(button(t('practice'), () => { send({ type: 'start_practice' }); toggle(false); onClose(); }, 'start-practice'));
  }
  cols.append(right);
  body.append(cols);
}

export function render() {
  const box = $('#panel');
  const menu = $('#host-menu');
  const host = isHost() && store.view;
  menu.hidden = !host;
  if (host && menu.textContent !== t('host_menu')) menu.textContent = t('host_menu');
  menu.classList.toggle('on', open);
  if (!host) open = false;
  box.hidden = !open;
  document.body.classList.toggle('panel-open', open);
  if (!open) { box.__sig = ''; return; }
  const view = store.view;
  const sig = JSON.stringify([view.phase, view.paused, view.seats.map((s) => [s.kind, s.name, s.team]), store.table.bots,
    store.table.settings, store.table.locked, houseRules(), view.seat_count, vipUrl, confirming && confirming.text,
    language()]);
  patch(box, sig, () => {
    box.replaceChildren();
    const head = el('div', 'panel-head');
    head.append(el('h2', '', inGame() ? t('game_title') : t('settings_title')),
      button(t('close'), () => { toggle(false); onClose(); }, 'panel-close'));
    const body = el('div', 'panel-body');
    if (confirming) body.append(confirmBox());
    else if (inGame()) gameBody(body);
    else settingsBody(body);
    box.append(head, body);
  });
}

// The host's panel on the TV (host screen only): a drawer on the right, beside the table, which makes room for it
// (the table, the centre and the channels stay in view while the host clicks). During a game: pause/resume in one
// click at its top, end the game, a human seat given to a bot or taken away (whole names, with their number), the
// table locked, the VIP remote; between games, the settings of the next game (points to win, relaxed timers,
// language, seat count, bot level per seat). Every picker shows the current choice. Controls appear as the server
// offers them (the view's `paused`, `house_rules`, the table's `locked`). "Pause while this panel is open" is the
// house's own preference, kept on this screen: it sends the same `pause` (and, on closing, `resume`) as the
// buttons; whether the table may pause is the server's call.
import { TEAM_SHAPES } from '../common/teams.js';
import { language, languages, setLanguage } from '../common/i18n.js';
import { $, el, button, patch } from './dom.js';
import { store, isHost } from './state.js';
import { qrSvg } from './qr.js';
import { t } from './strings.js';

let send = () => {};
let open = false;
let confirming = null; // {text, yes, msg}
let vipUrl = null;
let pausedByPanel = false; // this panel paused the game when it opened (the house setting): it resumes on closing
const PAUSE_KEY = 'quatro.screen.panelPause';
const pauseWithPanel = () => localStorage.getItem(PAUSE_KEY) === '1';

const WINNING_SCORES = [3, 4, 5, 6, 7, 8, 9, 10];
const TIMER_FACTORS = [1, 1.5, 2];
const RULE_SCORE = 5; // only to label the rules' own choice: the view's house_rules says what is in force

let onClose = () => {};
export function connect(sender, closed = () => {}) { send = sender; onClose = closed; }
export const isOpen = () => open;

export function setVipLink(url) {
  vipUrl = url;
  vipHolder = JSON.stringify(store.table.remote || null); // the QR goes once another phone takes the remote
  render();
}
let vipHolder = null;

export function toggle(on = !open) {
  const was = open;
  open = on && isHost();
  confirming = null;
  // At once, before the table is drawn again: the table lays itself out in the room the drawer leaves.
  document.body.classList.toggle('panel-open', open);
  if (open && !was) pauseForPanel();
  if (!open && was) resumeAfterPanel();
  if (!open) vipUrl = null; // a one-time invitation: opening the panel again asks for a fresh one
  render();
}

const inGame = () => ['sign', 'play', 'pause'].includes(store.view.phase);
const canPause = () => store.view && 'paused' in store.view && inGame() && !store.view.paused;

function pauseForPanel() {
  if (pauseWithPanel() && canPause()) {
    pausedByPanel = true;
    send({ type: 'pause' });
  }
}

function resumeAfterPanel() {
  const p = store.view && store.view.paused;
  if (pausedByPanel && p && p.by === 'host') send({ type: 'resume' });
  pausedByPanel = false;
}
const houseRules = () => store.view.house_rules || store.table.house_rules || null;

function segmented(label, cls, options, current, onPick) {
  const row = el('div', `panel-row ${cls}`);
  row.append(el('label', 'panel-label', label));
  const seg = el('div', 'segmented');
  seg.setAttribute('role', 'group');
  for (const [value, text, bcls, name] of options) {
    const b = button(text, () => onPick(value), bcls);
    if (name) { b.title = name; b.setAttribute('aria-label', name); } // a short face (EN), its full name said
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

function pauseSetting() {
  const row = el('label', 'panel-check pause-with-panel');
  const box = el('input');
  box.type = 'checkbox';
  box.checked = pauseWithPanel();
  box.addEventListener('change', () => {
    localStorage.setItem(PAUSE_KEY, box.checked ? '1' : '0');
    if (box.checked) pauseForPanel();
    render();
  });
  const words = el('span', 'panel-check-words');
  words.append(el('span', 'panel-check-title', t('panel_pause_open')), el('span', 'panel-help', t('panel_pause_open_help')));
  row.append(box, words);
  return row;
}

function pauseRow() {
  const view = store.view;
  const row = el('div', 'panel-buttons panel-pause');
  if (!('paused' in view)) return row;
  row.append(view.paused
    ? button(t('resume'), () => send({ type: 'resume' }), 'primary resume')
    : button(t('pause'), () => send({ type: 'pause' }), 'primary pause-game'));
  return row;
}

function vipBlock() {
  const box = el('div', 'panel-vip');
  if (!('locked' in store.table)) return box; // a server without the remote
  const remote = store.table.remote || null;
  // The invitation was taken (the table says who holds the remote now): its QR is spent.
  if (vipUrl && JSON.stringify(remote) !== vipHolder) vipUrl = null;
  if (remote) {
    const who = remote.name ? `${remote.name} (#${remote.seat + 1})` : t('host_remote_watching');
    box.append(el('p', 'vip-holder', `${t('host_remote_by', { who })}${remote.connected ? '' : ` — ${t('host_remote_away')}`}`));
  }
  const row = el('div', 'panel-buttons');
  row.append(button(t('vip'), () => send({ type: 'vip_link' }), 'vip-link'));
  if (vipUrl || remote) row.append(button(t('vip_revoke'), () => { send({ type: 'revoke_vip' }); vipUrl = null; render(); }, 'vip-revoke'));
  box.append(row);
  if (vipUrl) {
    const qr = el('div', 'vip-qr');
    qr.innerHTML = qrSvg(vipUrl); // our own SVG, drawn from the server's link
    const side = el('div', 'vip-side');
    side.append(el('p', 'panel-help', t('vip_help')), el('p', 'panel-help vip-once', t('host_remote_once')),
      button(t('panel_vip_done'), () => { vipUrl = null; render(); }, 'vip-done'));
    const shown = el('div', 'vip-shown');
    shown.append(qr, side);
    box.append(shown);
  }
  return box;
}

function gameBody(body) {
  const view = store.view;
  if ('paused' in view) {
    const row = el('div', 'panel-buttons');
    row.append(button(t('end_game'), () => {
      confirming = { text: t('end_game_confirm'), yes: t('end_game_yes'), msg: { type: 'end_game' } };
      render();
    }, 'end-game'));
    body.append(row);
  }
  if ('locked' in store.table) {
    body.append(el('h3', 'panel-sub', t('seats_now')));
    const list = el('div', 'panel-seats');
    for (const s of view.seats) {
      if (s.kind !== 'human') continue;
      const line = el('div', `panel-seat team-${s.team}`);
      line.dataset.seat = String(s.seat);
      // The whole name, with the number that tells two look-alikes apart ("Alex 2"): it wraps, it is never cut.
      line.append(el('span', 'shape', TEAM_SHAPES[s.team]), el('span', 'pname', s.name));
      const toBot = button(t('panel_to_bot'), () => send({ type: 'replace_with_bot', seat: s.seat }), 'to-bot');
      toBot.title = t('panel_to_bot_of', { name: s.name });
      toBot.setAttribute('aria-label', toBot.title);
      const kick = button(t('panel_kick'), () => {
        confirming = { text: t('kick_confirm', { name: s.name }), yes: t('kick_yes'), msg: { type: 'kick', seat: s.seat } };
        render();
      }, 'kick');
      kick.title = t('panel_kick_of', { name: s.name });
      kick.setAttribute('aria-label', kick.title);
      line.append(toBot, kick);
      list.append(line);
    }
    body.append(list);
  }
  body.append(tableRow(), vipBlock(), pauseSetting());
}

function settingsBody(body) {
  const view = store.view;
  const h = houseRules();
  if (h) {
    body.append(segmented(t('points_to_win'), 'win-score',
      WINNING_SCORES.map((n) => [n, n === RULE_SCORE ? t('rules_default', { n }) : String(n), `score-${n}`]),
      h.winning_score, (n) => send({ type: 'settings', winning_score: n })));
    body.append(segmented(t('timers'), 'timer-factor',
      TIMER_FACTORS.map((f) => [f, t(`timer_${f}`), `timer-${String(f).replace('.', '-')}`]),
      Number(h.timer_factor), (f) => send({ type: 'settings', timer_factor: f })));
  }
  const pair = el('div', 'panel-pair');
  pair.append(segmented(t('language'), 'language', languages().map(({ code, name }) => [code, code.toUpperCase(), `lang-${code}`, name]),
    (store.table.settings && store.table.settings.language) || language(),
    (l) => { send({ type: 'settings', language: l }); setLanguage(l); }));
  pair.append(segmented(t('seats_label'), 'seats', [4, 6, 8].map((n) => [n, String(n), `seats-${n}`]),
    view.seat_count, (n) => send({ type: 'set_seats', count: n })));
  body.append(pair);
  const level = (store.table.settings && store.table.settings.bot_level) || 'normal';
  body.append(segmented(t('bot_level'), 'levels', ['easy', 'normal', 'hard'].map((l) => [l, t(`level_${l}`), `level-${l}`]),
    level, (l) => send({ type: 'settings', bot_level: l })));
  const bots = store.table.bots || {};
  const botSeats = view.seats.filter((s) => s.kind === 'bot');
  if (botSeats.length) {
    body.append(el('h3', 'panel-sub', t('bot_levels')));
    for (const s of botSeats) {
      const current = bots[s.seat] || bots[String(s.seat)] || level;
      const row = segmented(`${TEAM_SHAPES[s.team]} ${s.name}`, `bot-seat team-${s.team}`,
        ['easy', 'normal', 'hard'].map((l) => [l, t(`level_${l}`), `seat-level-${l}`]), current,
        (l) => send({ type: 'add_bot', seat: s.seat, level: l }));
      row.dataset.seat = String(s.seat);
      body.append(row);
    }
  }
  body.append(tableRow(), vipBlock(), pauseSetting());
  if (view.phase === 'lobby' && 'practice' in view) {
    body.append(button(t('practice'), () => { send({ type: 'start_practice' }); toggle(false); onClose(); }, 'start-practice'));
  }
}

export function render() {
  const box = $('#panel');
  const menu = $('#host-menu');
  const host = isHost() && store.view;
  menu.hidden = !host;
  if (host && menu.textContent !== t('host_menu')) menu.textContent = t('host_menu');
  menu.classList.toggle('on', open);
  menu.setAttribute('aria-expanded', open ? 'true' : 'false');
  if (!host) open = false;
  box.hidden = !open;
  box.setAttribute('aria-modal', 'false'); // a drawer beside the table, not over it
  if (document.body.classList.contains('panel-open') !== open) {
    // The host rights went away with the drawer open: the table gets its room back on the next frame.
    document.body.classList.toggle('panel-open', open);
    requestAnimationFrame(() => onClose());
  }
  if (!open) { box.__sig = ''; return; }
  const view = store.view;
  const sig = JSON.stringify([view.phase, view.paused, view.seats.map((s) => [s.kind, s.name, s.team]), store.table.bots,
    store.table.settings, store.table.locked, houseRules(), view.seat_count, vipUrl, store.table.remote,
    confirming && confirming.text,
    language(), pauseWithPanel()]);
  patch(box, sig, () => {
    box.replaceChildren();
    const head = el('div', 'panel-head');
    head.append(el('h2', '', inGame() ? t('game_title') : t('settings_title')),
      button(t('close'), () => { toggle(false); onClose(); }, 'panel-close'));
    const body = el('div', 'panel-body');
    if (confirming) body.append(confirmBox());
    else if (inGame()) gameBody(body);
    else settingsBody(body);
    box.append(head);
    if (inGame() && !confirming) box.append(pauseRow()); // one click, always at the top of the drawer
    box.append(body);
  });
}

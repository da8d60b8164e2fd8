// The phone controller: join by QR, sign, hand, channel, calls, votes (issue 5). Plain ES modules, no build step.
import { Link } from './shared/socket.js';
import { language, setLanguage, onLanguageChange } from './shared/i18n.js';
import { TEAM_NAMES, TEAM_SHAPES, SUIT_RED } from './shared/teams.js';
import { t } from './phone/strings.js';
import { keepAwake, awakeMode } from './phone/awake.js';

const TOKEN_KEY = 'quatro.token';
const NAME_KEY = 'quatro.name';
const HOLD_MS = 550; // press-and-hold for the calls: short, but no stray touch lasts that long

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------------------------------------- state

const S = {
  view: null, // last view from the server
  table: {}, // server's public part
  at: 0, // performance.now() when the view arrived (all durations are "seconds remaining" then)
  status: 'connecting',
  everOnline: false,
  selected: null, // id of the hand card lifted
  pending: null, // {id, card, place, expected}: a swap sent, not answered yet
  sent: new Map(), // message id → {kind, ...}
  swapCoolEnd: 0, // performance.now() ms
  channelCoolEnd: 0,
  callBusy: false,
  lastEmitAt: 0,
  modal: null, // kind of the open modal
  signPick: null, // emoji chosen in the grid, not locked in yet
  joinMsg: '',
  nameNote: null, // "Ana is already at the table…": told once, with the state that follows our join
};

function takeTokenFromUrl() {
  // Seat link: /?seat=<token> or /#token=<token>. Save it, then clean the address bar.
  const q = new URLSearchParams(location.search);
  const h = new URLSearchParams(location.hash.replace(/^#/, ''));
  const tok = q.get('seat') || h.get('token') || h.get('seat');
  if (tok) {
    localStorage.setItem(TOKEN_KEY, tok);
    history.replaceState(null, '', location.pathname);
  }
}
takeTokenFromUrl();

const me = () => (S.view && S.view.you ? S.view.you : null);
const mySeat = () => (me() ? S.view.seats[me().seat] : null);
const left = (secs) => (secs == null ? null : Math.max(0, secs - (performance.now() - S.at) / 1000));
const lang = () => language();
const teamName = (i) => (TEAM_NAMES[lang()] || TEAM_NAMES.en)[i];
const team = (i) => `${teamName(i)} ${TEAM_SHAPES[i]}`;
const seatName = (i) => (S.view && S.view.seats[i] ? S.view.seats[i].name || `#${i + 1}` : `#${i + 1}`);

// ------------------------------------------------------------------------------------------ helpers

function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const kid of kids.flat()) if (kid != null && kid !== false) el.append(kid.nodeType ? kid : String(kid));
  return el;
}

function cardText(c) {
  return c ? `${c.rank}${c.suit}` : '—';
}

function fillCard(el, c) {
  el.replaceChildren();
  el.classList.toggle('red', !!c && SUIT_RED.has(c.suit));
  el.classList.toggle('empty', !c);
  if (!c) { delete el.dataset.card; return; }
  el.append(h('span', { class: 'rank', text: c.rank }), h('span', { class: 'suit', text: c.suit }));
  el.dataset.card = c.id;
}

const sentAt = {}; // message type → performance.now() when the last one went out

function send(msg, meta = {}) {
  const id = link.send(msg);
  if (id != null) {
    S.sent.set(id, { kind: msg.type, ...meta });
    sentAt[msg.type] = performance.now();
  } else toast(t('reconnecting'), 'warn');
  return id;
}

// Double-tap guard: one of these messages is still unanswered, or went out less than 0.6 s ago (its new view may
// not be here yet). A second one would only come back refused — "Not now", "A vote is already running" — although
// the first did what the player wanted.
function justSent(...kinds) {
  const now = performance.now();
  if (kinds.some((k) => now - (sentAt[k] ?? -1e9) < 600)) return true;
  for (const w of S.sent.values()) if (kinds.includes(w.kind)) return true;
  return false;
}

let toastTimer = null;
function toast(text, kind = 'info', ms = 2200) {
  if (document.body.dataset.screen === 'play') { playMsg(text, kind === 'ok' ? 'ok' : kind, ms); return; }
  const el = $('toast');
  el.textContent = text;
  el.className = `toast ${kind}`;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, ms);
}

let playMsgTimer = null;
function playMsg(text, kind = 'info', ms = 2500) {
  const el = $('play-msg');
  el.textContent = text;
  el.className = `play-msg ${kind}`;
  clearTimeout(playMsgTimer);
  if (ms) playMsgTimer = setTimeout(() => { el.textContent = ''; el.className = 'play-msg'; }, ms);
}

function fmtClock(s) {
  const c = Math.ceil(s);
  return `${Math.floor(c / 60)}:${String(c % 60).padStart(2, '0')}`;
}

function vibrate(ms) {
  if (typeof navigator.vibrate === 'function') {
    try { navigator.vibrate(ms); } catch { /* not allowed: fine */ }
  }
}

// A ring that drains around an element: an SVG rect whose stroke shrinks from `fraction` to nothing.
function drainRing(svg, seconds, total) {
  const rect = svg.querySelector('rect');
  if (svg._anim) svg._anim.cancel();
  if (!(seconds > 0)) {
    svg.classList.remove('on');
    return;
  }
  const start = 100 * (1 - Math.min(1, seconds / total));
  svg.classList.add('on');
  svg._anim = rect.animate([{ strokeDashoffset: start }, { strokeDashoffset: 100 }],
    { duration: seconds * 1000, easing: 'linear', fill: 'forwards' });
  svg._anim.onfinish = () => svg.classList.remove('on');
}

// Press and hold: fires after HOLD_MS; a short tap only says "hold to call". Keyboard users get a confirm instead.
function holdButton(btn, onFire, onKeyboard) {
  let timer = null;
  const stop = () => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
      btn.classList.remove('holding');
      toast(t('hold_to_call'), 'info', 1200);
    }
  };
  btn.addEventListener('pointerdown', (e) => {
    if (btn.disabled || timer) return;
    e.preventDefault();
    try { btn.setPointerCapture(e.pointerId); } catch { /* synthetic pointer */ }
    btn.classList.add('holding');
    timer = setTimeout(() => {
      timer = null;
      btn.classList.remove('holding');
      vibrate(30);
      onFire();
    }, HOLD_MS);
  });
  btn.addEventListener('pointerup', stop);
  btn.addEventListener('pointercancel', stop);
  btn.addEventListener('contextmenu', (e) => e.preventDefault());
  btn.addEventListener('click', (e) => { if (e.detail === 0 && !btn.disabled) onKeyboard(); });
}

// ------------------------------------------------------------------------------------------- modal

function openModal(kind, { title, text = '', actions = [], until = null, cls = '', extra = null }) {
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
    onclick: () => { if (a.keep !== true) closeModal(); a.run && a.run(); },
  }, a.label)));
  const count = $('modal-count');
  count.hidden = until == null;
  m._until = until;
  m.hidden = false;
  tickModal();
  const first = box.querySelector('button');
  if (first) first.focus({ preventScroll: true });
}

function closeModal(kind = null) {
  if (kind && S.modal !== kind) return;
  S.modal = null;
  $('modal').hidden = true;
  dropModalExtra();
}

function dropModalExtra() {
  // Whatever a modal added beside its text (the seat link's QR code); its image's object URL goes with it.
  for (const el of $('modal').querySelectorAll('.modal-extra')) {
    for (const img of el.querySelectorAll('img[src^="blob:"]')) URL.revokeObjectURL(img.src);
    el.remove();
  }
  $('modal-text').classList.remove('selectable');
}

function tickModal() {
  const m = $('modal');
  if (m.hidden || m._until == null) return;
  const { total, secs } = m._until();
  const count = $('modal-count');
  count.firstElementChild.textContent = `${Math.ceil(secs)} s`;
  count.style.setProperty('--frac', String(Math.max(0, Math.min(1, secs / total))));
}

// --------------------------------------------------------------------------------------- networking

const link = new Link('/ws/phone', {
  hello: () => ({ type: 'hello', token: localStorage.getItem(TOKEN_KEY) || null }),
  onMessage,
  onStatus: (status) => {
    // 'open' is only the socket: the banner stays until the server's first answer to our hello (see onMessage).
    S.status = status === 'open' ? 'syncing' : status;
    if (status === 'open') {
      S.callBusy = false;
      S.pending = null;
      S.sent.clear(); // replies to what the old socket sent never come
    }
    renderStatus();
  },
});
window.quatroLink = link; // for tests and debugging
window.quatroAwake = awakeMode;

// A long press never opens the browser's menu (the calls are held on purpose); the name field keeps its own.
document.addEventListener('contextmenu', (e) => {
  if (e.target.tagName !== 'INPUT' && !e.target.closest('.selectable')) e.preventDefault();
});
// Any tap while seated (re)arms the screen keep-awake (it needs a user gesture).
document.addEventListener('pointerup', () => { if (me()) keepAwake(); }, { passive: true });

function onMessage(msg) {
  if (S.status === 'syncing') {
    if (S.everOnline) toast(t('back_online'), 'ok', 1500);
    S.everOnline = true;
    S.status = 'open';
    renderStatus();
  }
  switch (msg.type) {
    case 'state': onState(msg); break;
    case 'joined': onJoined(msg); break;
    case 'ok': onOk(msg); break;
    case 'refused': onRefused(msg); break;
    case 'error': onError(msg); break;
    case 'seat_link': showSeatLink(msg); break;
    default: break;
  }
}

function onState(msg) {
  const before = S.view;
  S.view = msg.view;
  S.table = msg.table || S.table;
  S.at = performance.now();
  const you = me();
  if (you) {
    // Cooldowns come as seconds remaining: restart a ring only when the end moved (not on every update).
    const swapEnd = S.at + (you.swap_wait || 0) * 1000;
    if (Math.abs(swapEnd - S.swapCoolEnd) > 150) {
      S.swapCoolEnd = swapEnd;
      drainRing($('hand-ring'), you.swap_wait || 0, S.view.timing.swap_cooldown);
    }
    const chEnd = S.at + (you.channel_wait || 0) * 1000;
    if (Math.abs(chEnd - S.channelCoolEnd) > 150) {
      S.channelCoolEnd = chEnd;
      drainRing($('btn-channel').querySelector('.ring'), you.channel_wait || 0, S.view.timing.channel_cooldown);
    }
    if (S.selected != null && !you.hand.some((c) => c.id === S.selected)) S.selected = null;
    if (before && before.phase !== S.view.phase) {
      S.selected = null;
      S.callBusy = false;
      S.signPick = null;
      S.signOkRound = null; // rounds count from 1 again in a new game
      for (const k of Object.keys(sentAt)) delete sentAt[k]; // taps of the last phase guard nothing in this one
      if (S.modal && S.modal !== 'vote') closeModal();
      $('toast').hidden = true;
    }
  }
  const notes = [];
  for (const ev of msg.events || []) onEvent(ev, notes);
  render();
  if (notes.length) playMsg(notes.join(' · '), 'info', 5000);
  if (S.nameNote) { toast(S.nameNote, 'info', 5000); S.nameNote = null; } // on the screen the join led to
}

function onEvent(ev, notes) {
  const you = me();
  switch (ev.type) {
    case 'random_sign_given': // R12: only your own team's drawn sign is yours to see
      if (you && ev.team === you.team && you.sign) notes.push(t('random_sign', { sign: you.sign }));
      break;
    case 'dealt': // R6: the table is told a hand was replaced, never whose
      if (you && ev.redeals > 0) notes.push(t('redealt'));
      break;
    case 'emitted':
      setTimeout(() => burst(ev.seat), 0);
      if (you && ev.seat === you.seat) {
        S.lastEmitAt = performance.now();
        const tile = document.querySelector(`#tray-grid [data-emoji="${CSS.escape(ev.emoji)}"]`);
        if (tile) { tile.classList.remove('out'); void tile.offsetWidth; tile.classList.add('out'); }
        const line = $('tray-line');
        line.classList.remove('flash'); void line.offsetWidth; line.classList.add('flash');
      }
      break;
    case 'reshuffled':
      S.selected = null;
      S.pending = null;
      if (you) playMsg(t('reshuffled'), 'ok');
      break;
    case 'vote_ended':
      closeModal('vote');
      if (you && ev.why !== 'round_over') toast(ev.passed ? t('vote_passed') : t('vote_failed'), ev.passed ? 'ok' : 'info');
      break;
    case 'round_ended':
      closeModal();
      break;
    default: break;
  }
}

// What two names must differ in, as the server compares them (not case, accents or spacing: "Chloé" = "chloe ").
const nameKey = (name) => name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().split(/\s+/).filter(Boolean).join(' ');

function onJoined(msg) {
  localStorage.setItem(TOKEN_KEY, msg.token);
  S.joinMsg = '';
  const what = S.sent.get(msg.id);
  S.sent.delete(msg.id);
  // The server numbers a name another seat already has ("Ana 2"): say it once, when our own join got another name
  // (a resume by token says the same name again: nothing to tell).
  if (what && what.kind === 'join' && msg.name && msg.name !== what.name) {
    const key = nameKey(what.name);
    const clash = ((S.view && S.view.seats) || []).find((s, i) => i !== msg.seat && s.name && nameKey(s.name) === key);
    S.nameNote = t('renamed', { other: clash ? clash.name : what.name, name: msg.name });
  }
}

function onOk(msg) {
  const what = S.sent.get(msg.id);
  S.sent.delete(msg.id);
  if (!what) return;
  if (what.kind === 'swap') {
    S.pending = null;
    vibrate(15); // R15: the haptic tick of your own successful swap
    playMsg(t('swapped'), 'ok', 900);
    render();
  } else if (what.kind === 'call_quatro' || what.kind === 'call_contre') {
    toast(t('called', { call: what.kind === 'call_quatro' ? t('quatro') : t('contre') }), 'call', 1600);
  } else if (what.kind === 'answer_vote') {
    closeModal('vote');
  } else if (what.kind === 'pick_sign') {
    S.signOkRound = S.view && S.view.round;
  }
}

function refusalText(msg) {
  const wait = msg.details && msg.details.wait;
  switch (msg.reason) {
    case 'card_taken': return t('just_taken');
    case 'swap_cooldown': return t('wait_s', { s: (wait || 0).toFixed(1) });
    case 'channel_cooldown': return t('channel_cooldown', { s: (wait || 0).toFixed(1) });
    case 'vote_running': return t('vote_running_r');
    case 'sign_used_last_round': case 'sign_already_fixed': case 'vote_too_soon':
    case 'reshuffle_already_done': case 'bad_team': case 'not_your_card':
      return t(msg.reason);
    case 'wrong_phase': case 'already_ready': case 'channel_already_held': case 'channel_not_held':
    case 'no_vote': case 'not_a_voter': case 'already_answered':
      return t('refused');
    default: return language() === 'en' && msg.message ? msg.message : t('refused');
  }
}

function onRefused(msg) {
  const what = S.sent.get(msg.id) || {};
  S.sent.delete(msg.id);
  if (what.kind === 'swap') {
    S.pending = null; // the card slides back: render from the server's view again
    // R16: costs nothing; the card stays lifted so the player can retry at once.
    if (msg.reason === 'card_taken' && what.card != null) S.selected = what.card;
    playMsg(refusalText(msg), msg.reason === 'card_taken' ? 'warn' : 'info');
    render();
    return;
  }
  if (what.kind === 'call_quatro' || what.kind === 'call_contre') {
    S.callBusy = false;
    if (msg.reason === 'confirm_own_carre') { askR23(); render(); return; }
  }
  if (what.kind === 'pick_sign' || what.kind === 'ready') S.signPick = null;
  const text = refusalText(msg);
  if ($('screen-play').hidden) toast(text, 'warn'); else playMsg(text, 'warn');
  render();
}

function onError(msg) {
  const what = S.sent.get(msg.id) || {};
  S.sent.delete(msg.id);
  if (['bad_token', 'not_seated', 'seat_moved', 'seat_freed'].includes(msg.code)) {
    if (localStorage.getItem(TOKEN_KEY)) S.joinMsg = msg.code === 'seat_moved' ? t('seat_moved') : t('bad_token');
    localStorage.removeItem(TOKEN_KEY);
  } else if (msg.code === 'seat_taken') {
    // An offline player's seat is still theirs until the host frees it; a freed one may have just been taken.
    const s = what.kind === 'join' && S.view && S.view.seats[what.seat];
    S.joinMsg = s && s.kind === 'human' && !s.connected && !seatFreed(s) ? t('seat_not_freed') : t('seat_taken');
  } else if (what.kind === 'join') {
    S.joinMsg = msg.message;
  } else {
    toast(msg.message || msg.code, 'warn');
  }
  S.callBusy = false;
  S.pending = null;
  render();
}

function showSeatLink(msg) {
  // The host allowed this seat to move: show the one-time link to open on the other device, as a QR code the other
  // phone scans (drawn by the host: no internet, no QR library here), as text, and with a Copy button.
  const qr = h('img', { class: 'link-qr', alt: t('seat_link_qr') });
  openModal('seat_link', {
    title: t('seat_link_title'), text: `${t('seat_link_text')}\n${msg.url}`, cls: 'link',
    extra: h('div', { class: 'link-qr-box' }, qr), // its white square holds the place while the code comes
    actions: [
      { id: 'copy', label: t('copy'), keep: true, run: () => copyLink(msg.url) },
      { id: 'close', label: 'OK', cls: 'primary' },
    ],
  });
  $('modal-text').classList.add('selectable');
  seatLinkQr(msg.url).then((src) => {
    if (!src) { $('modal').querySelector('.link-qr-box')?.remove(); return; } // the text and Copy still work
    if (!qr.isConnected) { URL.revokeObjectURL(src); return; } // the box was closed meanwhile
    qr.src = src;
    qr.classList.add('shown');
  });
}

async function seatLinkQr(url) {
  // The secret goes in a POST body, never in an <img src> query (access log, history, cache): see POST
  // /seat-link/qr.png in docs/protocol.md. The host draws only a live seat link of its own.
  try {
    const res = await fetch('/seat-link/qr.png', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ url }), cache: 'no-store',
    });
    return res.ok ? URL.createObjectURL(await res.blob()) : null;
  } catch {
    return null;
  }
}

async function copyLink(url) {
  const btn = $('modal-actions').querySelector('[data-action="copy"]');
  let done = false;
  // The Clipboard API exists only on a secure origin; a phone on the LAN opens plain http. Then the old way (from a
  // tap it still works in most browsers), and if even that fails the link is left selected for the phone's own Copy.
  if (navigator.clipboard && window.isSecureContext) {
    try { await navigator.clipboard.writeText(url); done = true; } catch { /* below */ }
  }
  if (!done) {
    const text = $('modal-text');
    const start = text.textContent.indexOf(url);
    const range = document.createRange();
    range.setStart(text.firstChild, Math.max(0, start));
    range.setEnd(text.firstChild, start < 0 ? text.textContent.length : start + url.length);
    const sel = getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    try { done = document.execCommand('copy'); } catch { done = false; }
    if (done) sel.removeAllRanges();
  }
  if (btn && btn.isConnected) btn.textContent = done ? t('copied') : t('link_selected');
}

// ------------------------------------------------------------------------------------------- render

function show(screen) {
  for (const id of ['join', 'wait', 'sign', 'play', 'reveal']) $(`screen-${id}`).hidden = id !== screen;
  document.body.dataset.screen = screen;
}

function render() {
  renderStatus();
  renderTop();
  const v = S.view;
  if (!v) { show('join'); renderJoin(); return; }
  if (!me()) { show('join'); renderJoin(); return; }
  switch (v.phase) {
    case 'lobby': show('wait'); renderWait(); break;
    case 'sign': show('sign'); renderSign(); break;
    case 'play': show('play'); renderPlay(); break;
    default: show('reveal'); renderReveal(); break;
  }
  renderVote();
}

function renderStatus() {
  const el = $('status');
  const offline = S.status !== 'open';
  el.hidden = !offline;
  el.textContent = S.everOnline ? t('reconnecting') : t('connecting');
  document.body.classList.toggle('offline', offline);
}

function renderTop() {
  const v = S.view;
  const you = me();
  $('lang').textContent = t('lang_switch');
  $('lang').setAttribute('aria-label', t('lang_switch_label'));
  const sign = $('top-sign');
  const showSign = !!(you && you.sign && v.phase === 'play');
  sign.hidden = !showSign;
  if (showSign) {
    sign.textContent = you.sign;
    sign.setAttribute('aria-label', t('your_sign', { sign: you.sign }));
    sign.setAttribute('role', 'img');
  }
  const scores = $('scores');
  if (v && you && v.phase !== 'lobby') {
    scores.setAttribute('aria-label', t('scores_label'));
    scores.replaceChildren(...v.teams.map((tm) => h('span', {
      class: `score team-${tm.team}${tm.team === you.team ? ' mine' : ''}`,
      'aria-label': t('team_score', { team: team(tm.team), score: tm.score }),
    }, h('b', { class: 'shape', text: TEAM_SHAPES[tm.team] }), String(tm.score))));
  } else {
    scores.replaceChildren();
  }
  tickClock();
}

function tickClock() {
  const v = S.view;
  const el = $('clock');
  const showClock = !!(v && me() && v.clock != null && v.phase === 'play');
  el.hidden = !showClock;
  if (showClock) {
    const s = left(v.clock);
    el.textContent = fmtClock(s);
    el.classList.toggle('late', s <= 30);
    el.setAttribute('aria-label', t('clock_label'));
  }
  // Countdowns keep the moment they end (performance.now() ms), so a screen that is not rebuilt stays right.
  const v2 = S.view;
  for (const c of document.querySelectorAll('[data-ends]')) {
    if (v2 && v2.clock != null) c.dataset.ends = String(S.at + v2.clock * 1000);
    const s = Math.max(0, (Number(c.dataset.ends) - performance.now()) / 1000);
    c.textContent = String(Math.ceil(s));
  }
}

// ----- join and waiting room

// Rebuild a screen only when what it shows changed: a tap is never lost to a DOM swapped under the finger.
const shownKeys = {};
function changed(screen, ...parts) {
  const key = JSON.stringify([language(), ...parts]);
  if (shownKeys[screen] === key) return false;
  shownKeys[screen] = key;
  return true;
}

function renderJoin() {
  const v = S.view;
  if (!changed('join', v && v.phase, v && v.seats.map((s) => [s.kind, s.name, s.connected]), S.table.freed,
    S.joinMsg)) return;
  $('name-label').textContent = t('name_label');
  const input = $('name');
  input.placeholder = t('name_placeholder');
  $('pick-seat-title').textContent = t('pick_seat');
  $('seats-hint').textContent = t('seats_hint');
  $('join-msg').textContent = S.joinMsg;
  const list = $('seat-list');
  if (!v) { list.replaceChildren(); return; }
  const n = v.seat_count;
  const rows = v.teams.map((tm) => h('div', { class: `team-row team-${tm.team}` },
    h('div', { class: 'team-name' }, h('b', { class: 'shape', text: TEAM_SHAPES[tm.team] }), teamName(tm.team)),
    h('div', { class: 'pair' }, tm.seats.map((i) => seatButton(v.seats[i], n, tm.team)))));
  list.replaceChildren(...rows);
  const free = v.seats.some(seatFree);
  const offline = v.seats.some((s) => s.kind === 'human' && !s.connected && !seatFreed(s));
  if (!free && !S.joinMsg) {
    $('join-msg').textContent = offline ? t('ask_host_free') : v.phase === 'lobby' ? t('no_free_seat') : t('game_running');
  }
}

function seatFreed(s) {
  // A player's seat the host freed (table.freed): its hand waits for the next phone to join it (R33).
  return s.kind === 'human' && (S.table.freed || []).includes(s.seat);
}

function seatFree(s) {
  // An empty seat or a freed one. A seat that is merely offline is still its player's (their token holds it).
  return s.kind === 'empty' || seatFreed(s);
}

function seatButton(s, n, tm) {
  const free = seatFree(s);
  const label = s.kind === 'empty' ? t('free') : s.name;
  return h('button', {
    type: 'button', class: `seat ${free ? 'free' : 'held'}${s.connected ? '' : ' gone'}`, 'data-seat': s.seat,
    disabled: !free, 'aria-label': free ? t('sit_here_label', { n: s.seat + 1, team: team(tm) })
      : t('held_by', { n: s.seat + 1, name: s.name }),
    onclick: () => join(s.seat),
  }, h('span', { class: 'seat-no', text: `${s.seat + 1}` }),
  h('span', { class: 'seat-text' }, h('span', { class: 'seat-name', text: label }),
    free ? h('small', { text: s.kind === 'empty' ? t('sit_here') : t('take_over') }) : null,
    !free && s.kind === 'human' && !s.connected ? h('small', { text: t('offline_ask_host') }) : null,
    s.kind === 'bot' ? h('small', { text: t('bot') }) : null));
}

function join(seat) {
  const input = $('name');
  const name = input.value.trim();
  if (!name) {
    S.joinMsg = t('name_needed');
    renderJoin();
    input.focus();
    return;
  }
  localStorage.setItem(NAME_KEY, name);
  keepAwake();
  S.joinMsg = '';
  send({ type: 'join', seat, name }, { seat, name });
}

function seatLine(i, extra = '') {
  const s = S.view.seats[i];
  const you = me();
  return h('li', { class: `seat-line team-${S.view.seats[i].team}${s.connected ? '' : ' gone'}` },
    h('b', { class: 'shape', text: TEAM_SHAPES[s.team] }),
    h('span', { text: s.kind === 'empty' ? t('partner_empty') : s.name }),
    s.kind === 'bot' ? h('small', { text: t('bot') }) : null,
    you && i === you.seat ? h('small', { class: 'you', text: t('you_tag') }) : null,
    s.kind === 'human' && !s.connected ? h('small', { text: t('offline') }) : null, extra);
}

function renderWait() {
  const v = S.view;
  const you = me();
  if (!changed('wait', you.seat, v.seats.map((s) => [s.kind, s.name, s.connected]))) return;
  $('screen-wait').className = `screen team-${you.team}`;
  $('wait-body').replaceChildren(
    h('h1', { class: 'brand' }, 'Quatro ', h('span', { text: 'Party' })),
    h('div', { class: 'me-card' },
      h('p', { class: 'eyebrow', text: t('waiting_title') }),
      h('p', { class: 'me-name', text: v.seats[you.seat].name }),
      h('p', { class: 'me-team' }, h('b', { class: 'shape', text: TEAM_SHAPES[you.team] }), ' ', teamName(you.team)),
      h('p', { class: 'eyebrow', text: t('your_partner') }),
      h('ul', { class: 'seat-lines' }, seatLine(you.partner))),
    h('p', { class: 'waiting pulse', text: t('waiting_host') }),
    h('ul', { class: 'seat-lines all' }, v.seats.map((s) => seatLine(s.seat))),
    h('button', {
      type: 'button', class: 'btn ghost', id: 'btn-leave',
      onclick: () => { send({ type: 'leave' }); localStorage.removeItem(TOKEN_KEY); },
    }, t('leave_seat')));
}

// ----- sign phase

function renderSign() {
  const v = S.view;
  const you = me();
  const seat = mySeat();
  const fixed = you.sign;
  const pick = fixed || S.signPick;
  if (!changed('sign', v.round, fixed, S.signPick, you.last_sign, seat.ready, v.seats.map((s) => s.ready))) return;
  $('screen-sign').className = `screen team-${you.team}`;
  const grid = h('div', { class: 'emoji-grid', role: 'radiogroup', 'aria-label': t('sign_title') },
    v.signs.map((e) => {
      const last = e === you.last_sign;
      return h('button', {
        type: 'button', class: `emoji-tile emoji${e === pick ? ' chosen' : ''}${last ? ' last' : ''}`,
        role: 'radio', 'aria-checked': e === pick ? 'true' : 'false', 'data-emoji': e,
        'aria-label': last ? `${e} — ${t('sign_last_round')}` : e, disabled: !!fixed || last,
        onclick: () => { S.signPick = e; keepAwake(); renderSign(); },
      }, h('span', { class: 'e', text: e }));
    }));
  const big = h('div', { class: `sign-big${fixed ? ' fixed' : ''}` },
    h('span', { class: 'emoji', id: 'team-sign', role: 'img', 'aria-label': pick || '?', text: pick || '?' }),
    h('small', { text: fixed ? t('sign_fixed') : pick ? t('not_locked') : t('sign_title') }));
  const lockBtn = !fixed && h('button', {
    type: 'button', class: 'btn', id: 'btn-lock', disabled: !S.signPick,
    onclick: () => { if (S.signPick) pickSign(S.signPick); },
  }, t('lock_sign', { sign: S.signPick || '' }));
  const readyBtn = h('button', {
    type: 'button', class: `btn primary${seat.ready ? ' done' : ''}`, id: 'btn-ready', disabled: seat.ready,
    'aria-label': t('ready_label'),
    onclick: () => {
      keepAwake();
      if (!you.sign && S.signPick) pickSign(S.signPick);
      if (!justSent('ready')) send({ type: 'ready' }); // a second one would be refused: "Not now"
    },
  }, seat.ready ? t('ready_done') : t('ready'));
  $('sign-body').replaceChildren(
    h('div', { class: 'sign-head' },
      h('div', {},
        h('p', { class: 'eyebrow', text: t('round_n', { n: v.round }) }),
        h('h2', { text: t('sign_title') }),
        h('p', { class: 'hint', text: t('sign_hint') })),
      h('div', { class: 'countdown', role: 'timer', 'aria-label': t('round_starts_in') },
        h('span', { 'data-ends': String(S.at + (v.clock ?? 0) * 1000), text: String(Math.ceil(left(v.clock) || 0)) }),
        h('small', { text: 's' }))),
    big, grid,
    h('p', { class: 'hint', text: t('random_if_none') }),
    h('div', { class: 'sign-actions' }, lockBtn, readyBtn),
    h('ul', { class: 'ready-list', 'aria-label': t('ready') }, v.seats.filter((s) => s.kind !== 'empty').map((s) => h('li', {
      class: `team-${s.team}${s.ready ? ' ok' : ''}${s.connected ? '' : ' gone'}`,
    }, h('b', { class: 'shape', text: TEAM_SHAPES[s.team] }), s.seat === you.seat ? t('you_tag') : s.name,
    s.ready ? ' ✓' : ' …'))));
}

// Send our team's sign once. A double tap on "Lock in" (or "Lock in" then "Ready" before the new view arrived)
// sent it twice, and the second came back "Your partner already picked the sign" although we had.
function pickSign(sign) {
  if (justSent('pick_sign')) return; // the first tap is on its way
  if (S.signOkRound === S.view.round) return; // ours was accepted: the view will show it fixed
  send({ type: 'pick_sign', sign }, { sign });
}

// ----- play

const centreButtons = [];
const handButtons = [];
const trayButtons = new Map();

function setupPlay() {
  const centre = $('centre');
  for (let p = 0; p < 4; p++) {
    const b = h('button', { type: 'button', class: 'card place', 'data-place': p, onclick: () => tapPlace(p) });
    centreButtons.push(b);
    centre.append(b);
  }
  const hand = $('hand');
  for (let i = 0; i < 4; i++) {
    const b = h('button', { type: 'button', class: 'card mine', 'data-slot': i, onclick: () => tapCard(i) });
    handButtons.push(b);
    hand.append(b);
  }
  $('btn-channel').addEventListener('click', tapChannel);
  $('btn-reshuffle').addEventListener('click', tapReshuffle);
  holdButton($('btn-quatro'), fireQuatro, () => askConfirm('quatro'));
  holdButton($('btn-contre'), fireContre, () => askConfirm('contre'));
}

// What the table looks like to us: the server's view, with our own swap applied while it travels.
function shownCards() {
  const you = me();
  const hand = you.hand.slice();
  const centre = S.view.centre.slice();
  const p = S.pending;
  if (p) {
    const i = hand.findIndex((c) => c.id === p.card);
    if (i >= 0 && centre[p.place] && centre[p.place].id === p.expected) {
      [hand[i], centre[p.place]] = [centre[p.place], hand[i]];
    }
  }
  return { hand, centre };
}

function tapCard(slot) {
  keepAwake();
  const { hand } = shownCards();
  const c = hand[slot];
  if (!c || S.pending) return;
  S.selected = S.selected === c.id ? null : c.id;
  if (S.selected != null) playMsg(t('tap_place'), 'info', 0);
  else playMsg('', 'info', 1);
  renderPlay();
}

function tapPlace(place) {
  keepAwake();
  const you = me();
  if (S.selected == null || S.pending || !you) {
    if (!S.pending) playMsg(t('tap_card'), 'info');
    return;
  }
  const wait = (S.swapCoolEnd - performance.now()) / 1000;
  if (wait > 0.05) {
    playMsg(t('wait_s', { s: wait.toFixed(1) }), 'info', 1200);
    return;
  }
  const expected = S.view.centre[place];
  if (!expected) return;
  const msg = { type: 'swap', card: S.selected, place, expected: expected.id };
  const id = send(msg, { card: S.selected, place });
  if (id == null) return;
  S.pending = { id, card: S.selected, place, expected: expected.id };
  S.selected = null;
  renderPlay();
}

function tapChannel() {
  keepAwake();
  const seat = mySeat();
  if (!seat) return;
  const wait = (S.channelCoolEnd - performance.now()) / 1000;
  if (wait > 0.05) {
    playMsg(t('channel_wait', { s: wait.toFixed(1) }), 'info', 1200);
    return;
  }
  if (justSent('take_channel', 'release_channel')) return;
  send({ type: seat.channel.held ? 'release_channel' : 'take_channel' });
}

function chooseEmoji(e) {
  keepAwake();
  send({ type: 'choose_emoji', emoji: e }, { emoji: e });
}

function tapReshuffle() {
  keepAwake();
  if (justSent('request_reshuffle')) return; // else "A vote is already running" about this very tap's vote
  send({ type: 'request_reshuffle' });
}

function fireQuatro() {
  const you = me();
  if (!you || S.callBusy) return;
  if (you.has_carre) { askR23(); return; }
  sendCall({ type: 'call_quatro', confirmed: false });
}

function askR23() {
  openModal('r23', {
    title: t('r23_title'), text: t('r23_text'), cls: 'warn',
    actions: [
      { id: 'cancel', label: t('cancel'), cls: 'ghost' },
      { id: 'confirm', label: t('r23_yes'), cls: 'danger', run: () => sendCall({ type: 'call_quatro', confirmed: true }) },
    ],
  });
}

function fireContre() {
  const you = me();
  if (!you || S.callBusy) return;
  const others = S.view.teams.map((x) => x.team).filter((x) => x !== you.team);
  if (others.length === 1) { sendCall({ type: 'call_contre', team: others[0] }); return; }
  openModal('contre', {
    title: t('pick_accused'), cls: 'pick',
    actions: [
      ...others.map((x) => ({
        id: `team-${x}`, cls: `team-btn team-${x}`,
        label: `${team(x)} — ${S.view.teams[x].seats.map(seatName).join(' & ')}`,
        aria: t('accuse', { team: team(x) }),
        run: () => sendCall({ type: 'call_contre', team: x }),
      })),
      { id: 'cancel', label: t('cancel'), cls: 'ghost' },
    ],
  });
}

function askConfirm(which) {
  // Keyboard / screen reader activation: a plain confirm instead of the press-and-hold.
  if (which === 'quatro') {
    if (me() && me().has_carre) { askR23(); return; }
    openModal('confirm', {
      title: t('quatro'), text: t('confirm_quatro'),
      actions: [{ id: 'cancel', label: t('cancel'), cls: 'ghost' },
        { id: 'confirm', label: t('quatro'), cls: 'danger', run: () => sendCall({ type: 'call_quatro', confirmed: false }) }],
    });
  } else {
    fireContre();
  }
}

function sendCall(msg) {
  if (S.callBusy) return; // guard against double taps: one call per round is all that counts
  const id = send(msg);
  if (id == null) return;
  S.callBusy = true;
  playMsg(t('call_sent'), 'call', 0);
  renderPlay();
}

function renderPlay() {
  const v = S.view;
  const you = me();
  const seat = mySeat();
  if (!you || !seat) return;
  $('screen-play').className = `screen play team-${you.team}`;
  const { hand, centre } = shownCards();

  // Calls
  for (const [id, key, label] of [['btn-quatro', 'quatro', 'quatro_label'], ['btn-contre', 'contre', 'contre_label']]) {
    const b = $(id);
    b.querySelector('.call-text').textContent = t(key);
    b.querySelector('small').textContent = key === 'quatro' && you.has_carre ? t('carre_hint') : t('hold_to_call');
    b.setAttribute('aria-label', t(label));
    b.disabled = S.callBusy || S.status !== 'open';
  }
  $('btn-quatro').classList.toggle('reminder', !!you.has_carre);

  // Channel
  const held = seat.channel.held;
  const ch = $('btn-channel');
  ch.classList.toggle('held', held);
  ch.setAttribute('aria-pressed', held ? 'true' : 'false');
  ch.querySelector('.label').textContent = held ? t('release_channel') : t('take_channel');
  $('tray').hidden = !held;
  if (held) renderTray(you, seat);

  // Reshuffle
  const rs = v.reshuffle;
  const rb = $('btn-reshuffle');
  let label = t('reshuffle');
  let off = false;
  if (rs.done) { label = t('reshuffle_done'); off = true; } else if (rs.vote) {
    off = true;
    label = rs.vote.requester === you.seat
      ? t('your_vote_wait', { n: rs.vote.accepted.length, m: rs.vote.voters.length }) : t('vote_running');
  } else if (rs.next_vote_in) {
    off = true;
    label = t('reshuffle_wait', { s: Math.ceil(left(rs.next_vote_in)) });
  }
  rb.textContent = label;
  rb.disabled = off;
  rb.setAttribute('aria-label', `${t('reshuffle_label')} — ${label}`);

  const before = new Map();
  for (const b of [...centreButtons, ...handButtons]) {
    if (b.dataset.card) before.set(b.dataset.card, { rect: b.getBoundingClientRect(), el: b });
  }
  // Centre
  centreButtons.forEach((b, p) => {
    const c = centre[p];
    fillCard(b, c);
    b.classList.toggle('target', S.selected != null);
    b.classList.toggle('incoming', !!S.pending && S.pending.place === p);
    b.setAttribute('aria-label', t('centre_label', { n: p + 1, card: cardText(c) }));
  });
  // Hand
  handButtons.forEach((b, i) => {
    const c = hand[i];
    fillCard(b, c);
    const sel = !!c && c.id === S.selected;
    b.classList.toggle('lifted', sel);
    b.classList.toggle('incoming', !!S.pending && !!c && c.id === S.pending.expected);
    b.setAttribute('aria-pressed', sel ? 'true' : 'false');
    b.setAttribute('aria-label', t('hand_label', { n: i + 1, card: cardText(c) }));
  });
  slideCards(before);
  const zone = $('hand-zone');
  zone.classList.toggle('carre', !!you.has_carre);
  zone.classList.toggle('picking', S.selected != null);
  $('carre-badge').hidden = !you.has_carre;
  $('carre-badge').textContent = t('carre_badge');
  $('hand-ring').setAttribute('aria-label', t('cooldown_label'));
  renderStrip(you);
  if (!$('play-msg').textContent && S.selected == null) playMsg(t('tap_card'), 'hint', 0);
}

const reducedMotion = window.matchMedia ? window.matchMedia('(prefers-reduced-motion: reduce)') : { matches: false };

function slideCards(before) {
  if (!before.size) return;
  for (const b of [...centreButtons, ...handButtons]) {
    const id = b.dataset.card;
    if (!id) continue;
    const was = before.get(id);
    if (was && was.el === b) continue; // same card, same place
    if (reducedMotion.matches) {
      b.animate([{ opacity: 0.3 }, { opacity: 1 }], { duration: 200 });
      continue;
    }
    if (was && was.rect.width) {
      const now = b.getBoundingClientRect();
      b.animate([{ transform: `translate(${was.rect.left - now.left}px, ${was.rect.top - now.top}px)` },
        { transform: 'none' }], { duration: 200, easing: 'ease-out' });
    } else if (centreButtons.includes(b)) {
      b.animate([{ transform: 'scale(.8)', opacity: 0.4 }, { transform: 'none', opacity: 1 }], { duration: 240, easing: 'ease-out' });
    }
  }
}

function renderTray(you, seat) {
  const grid = $('tray-grid');
  if (!trayButtons.size) {
    for (const e of S.view.signs) {
      const b = h('button', { type: 'button', class: 'emoji-tile emoji', role: 'radio', 'data-emoji': e,
        'aria-label': e, onclick: () => chooseEmoji(e) }, e);
      trayButtons.set(e, b);
      grid.append(b);
    }
  }
  grid.setAttribute('aria-label', t('choose_emit'));
  for (const [e, b] of trayButtons) {
    const on = e === you.channel_choice;
    b.classList.toggle('chosen', on);
    b.setAttribute('aria-checked', on ? 'true' : 'false');
  }
  const line = $('tray-line');
  const choice = you.channel_choice;
  if (!choice) line.textContent = t('nothing_chosen');
  else if (seat.channel.emoji === choice && S.lastEmitAt) line.textContent = t('emitted', { emoji: choice });
  else line.textContent = t('will_emit', { emoji: choice });
  line.dataset.state = !choice ? 'none' : (seat.channel.emoji === choice ? 'out' : 'soon');
}

// The table at a glance: every seat, its channel lamp and what it emits (public, R36).
const stripChips = [];
function renderStrip(you) {
  const v = S.view;
  const strip = $('strip');
  if (stripChips.length !== v.seats.length) {
    stripChips.length = 0;
    strip.style.setProperty('--n', String(v.seats.length > 6 ? 4 : v.seats.length));
    strip.classList.toggle('many', v.seats.length > 6);
    strip.replaceChildren(...v.seats.map((s) => {
      const chip = h('div', { class: 'chip', 'data-seat': s.seat },
        h('span', { class: 'chip-emoji emoji', 'aria-hidden': 'true' }),
        h('span', { class: 'chip-name' }, h('b', { class: 'shape' }), h('span', { class: 'nm' })));
      stripChips.push(chip);
      return chip;
    }));
  }
  v.seats.forEach((s, i) => {
    const chip = stripChips[i];
    chip.className = `chip team-${s.team}${s.channel.held ? ' held' : ''}${s.connected ? '' : ' gone'}`
      + `${i === you.seat ? ' me' : ''}${i === you.partner ? ' partner' : ''}`;
    chip.querySelector('.shape').textContent = TEAM_SHAPES[s.team];
    chip.querySelector('.nm').textContent = i === you.seat ? t('you_tag') : s.name;
    chip.querySelector('.chip-emoji').textContent = s.channel.held ? (s.channel.emoji || '') : '';
    chip.setAttribute('aria-label', `${s.name}${i === you.partner ? ` (${t('your_partner')})` : ''}: `
      + `${s.channel.held ? t('channel_held_by') : t('channel_free')}${s.channel.emoji ? ` ${s.channel.emoji}` : ''}`);
  });
}

function burst(seat) {
  const chip = stripChips[seat];
  if (!chip) return;
  chip.classList.remove('burst');
  void chip.offsetWidth;
  chip.classList.add('burst');
}

// ----- votes

function renderVote() {
  const v = S.view;
  const you = me();
  const vote = v && v.reshuffle && v.reshuffle.vote;
  if (!(vote && you && you.voter && v.phase === 'play')) {
    closeModal('vote');
    return;
  }
  if (S.modal === 'vote') { tickModal(); return; }
  const endsAt = S.at + vote.left * 1000;
  openModal('vote', {
    title: t('vote_title', { name: seatName(vote.requester) }), text: t('vote_text'), cls: 'vote',
    until: () => ({ total: v.timing.vote_length, secs: Math.max(0, (endsAt - performance.now()) / 1000) }),
    actions: [
      { id: 'refuse', label: t('refuse'), cls: 'ghost', run: () => send({ type: 'answer_vote', accept: false }) },
      { id: 'accept', label: t('accept'), cls: 'primary', run: () => send({ type: 'answer_vote', accept: true }) },
    ],
  });
}

// ----- reveal, pause and game over

function resultSentence(r) {
  const scorers = r.scorers || [];
  const teams = scorers.map(team).join(lang() === 'fr' ? ' et ' : ' and ');
  const plural = scorers.length > 1;
  const s = lang() === 'fr' ? (plural ? 'nt' : '') : (plural ? '' : 's');
  const caller = r.caller != null ? seatName(r.caller) : '';
  if (r.end === 'quatro') {
    return t(r.correct ? 'result_quatro_ok' : 'result_quatro_bad', { caller, target: seatName(r.target), teams, s });
  }
  if (r.end === 'contre') {
    return t(r.correct ? 'result_contre_ok' : 'result_contre_bad', { caller, accused: team(r.target), teams, s });
  }
  return t('result_void');
}

function miniHand(cards, carre) {
  return h('span', { class: `mini-hand${carre ? ' carre' : ''}` },
    (cards || []).map((c) => h('span', { class: `mini${SUIT_RED.has(c.suit) ? ' red' : ''}`, text: cardText(c) })));
}

function renderReveal() {
  const v = S.view;
  const you = me();
  const r = v.result;
  const over = v.phase === 'over';
  if (!changed('reveal', v.phase, r, v.teams.map((x) => x.score), v.winners, v.seats.map((s) => s.name))) return;
  $('screen-reveal').className = `screen team-${you.team}`;
  const kids = [];
  if (over) {
    const won = (v.winners || []).includes(you.team);
    const plural = (v.winners || []).length > 1;
    const s = lang() === 'fr' ? (plural ? 'nt' : '') : (plural ? '' : 's');
    kids.push(h('h1', { class: 'over-title', text: t('game_over') }),
      h('p', { class: `winners${won ? ' won' : ''}`, text: won ? t('you_won')
        : t('winners', { teams: (v.winners || []).map(team).join(' & '), s }) }));
  }
  if (r) {
    kids.push(h('p', { class: 'eyebrow', text: t('round_n', { n: r.round }) }),
      h('p', { class: 'result', id: 'result-sentence', text: resultSentence(r) }));
  }
  kids.push(h('div', { class: 'score-table' }, v.teams.map((tm) => h('div', {
    class: `score-row team-${tm.team}${tm.team === you.team ? ' mine' : ''}${r && r.scorers.includes(tm.team) ? ' scored' : ''}`,
  },
  h('span', { class: 'team-tag' }, h('b', { class: 'shape', text: TEAM_SHAPES[tm.team] }), ' ', teamName(tm.team),
    tm.team === you.team ? h('small', { text: ` (${t('your_team')})` }) : null),
  r && r.signs ? h('span', { class: 'emoji reveal-sign', role: 'img', 'aria-label': `${t('signs_were')}: ${r.signs[tm.team] || '?'}`, text: r.signs[tm.team] || '?' }) : null,
  h('span', { class: 'big-score', text: String(tm.score) }),
  r ? h('div', { class: 'hands' }, tm.seats.map((i) => h('div', { class: 'hand-line' },
    h('span', { class: 'who', text: seatName(i) }), miniHand(r.hands[i], r.carres.includes(i))))) : null))));
  if (over) kids.push(h('p', { class: 'waiting pulse', id: 'over-next', text: t('waiting_new_game') }));
  if (!over && v.clock != null) {
    kids.push(h('div', { class: 'next' }, h('span', { text: t('next_round_in') }),
      h('b', { class: 'countdown-inline' }, h('span', { 'data-ends': String(S.at + v.clock * 1000), text: String(Math.ceil(left(v.clock))) }), ' s')));
  }
  $('reveal-body').replaceChildren(...kids);
}

// --------------------------------------------------------------------------------------------- boot

function boot() {
  document.documentElement.lang = language();
  const input = $('name');
  input.value = localStorage.getItem(NAME_KEY) || '';
  input.addEventListener('change', () => localStorage.setItem(NAME_KEY, input.value.trim()));
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') input.blur(); });
  $('lang').addEventListener('click', () => setLanguage(language() === 'fr' ? 'en' : 'fr'));
  onLanguageChange(() => render());
  setupPlay();
  render();
  // Clocks and countdowns tick locally between server updates (durations are "seconds remaining").
  setInterval(() => {
    tickClock();
    tickModal();
    const v = S.view;
    if (v && v.phase === 'play' && me() && v.reshuffle.next_vote_in) renderPlay();
  }, 250);
}

boot();

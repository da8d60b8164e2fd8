// The big screen (issue 4): the TV view of the table, lobby to winners, and the host's controls.
// It only ever receives the public table view (R36–R39) and never tries to show a hand or a sign
// before the reveal: hands and signs are read from `view.result` only in the pause and game-over phases.
import { Link } from './shared/socket.js';
import { language, setLanguage, onLanguageChange } from './shared/i18n.js';
import { TEAM_SHAPES, TEAM_NAMES, teamLabel } from './shared/teams.js';
import { t } from './screen/strings.js';
import { cardEl, emptyPlaceEl } from './screen/cards.js';
import * as sound from './screen/sound.js';

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};
const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

const hostSecret = new URLSearchParams(location.hash.slice(1)).get('host');

// --- state -------------------------------------------------------------------------------------
let view = null; // the last table view
let table = {}; // the server's public part (join_url, mdns_name, bots, settings, host)
let receivedAt = 0; // performance.now() when `view` arrived: countdowns are interpolated from it
let status = 'connecting';
let revealAt = -Infinity; // performance.now() when the hands turned over (the reveal started)
const REVEAL_MS = 900; // .seat.reveal-anim in screen.css
const notices = []; // transient notices {id, text, until}
let noticeSeq = 0;

const link = new Link('/ws/screen', {
  hello: () => ({ type: 'hello', host: hostSecret || null }),
  onMessage,
  onStatus: (s) => { status = s; renderStatus(); },
});

function send(msg) {
  sound.unlock();
  link.send(msg);
}

function onMessage(msg) {
  if (msg.type === 'state') {
    const before = view;
    view = msg.view;
    // Hands turn over once, when the reveal starts — not again on every later state of the pause, nor when the
    // page redraws for another reason (the language, a resize): a redraw during the turn continues it.
    if (view.result && (view.phase === 'pause' || view.phase === 'over') && before && before.phase === 'play') {
      revealAt = performance.now();
    }
    table = msg.table || {};
    receivedAt = performance.now();
    render();
    if (before && before.phase !== view.phase) {
      notices.length = 0;
      renderNotices();
      for (const b of document.querySelectorAll('#fx .burst')) b.remove(); // signals belong to the round in play
    }
    handleEvents(msg.events || [], before);
    // A page opened (or reloaded) mid-round missed the `dealt` event: the view still says the hands were re-dealt (R6).
    if (!before && view.phase === 'play' && view.redeals > 0 &&
        !(msg.events || []).some((e) => e.type === 'dealt' || e.type === 'reshuffled')) {
      addNotice(`🔄 ${t('redealt', { n: view.redeals })}`, 8000);
    }
  } else if (msg.type === 'error' || msg.type === 'refused') {
    const key = `err_${msg.code || msg.reason}`;
    const text = t(key) !== key ? t(key) : (msg.message || msg.reason || msg.code || 'error');
    addNotice(`⚠ ${text}`, 6000, 'warn');
  }
}

// --- helpers -----------------------------------------------------------------------------------
const lang = () => language();
const teamName = (team) => teamLabel(team, lang()).replace(' ', '\u00a0'); // never split "Blue ●"
const seatName = (seat) => (view && view.seats[seat] ? view.seats[seat].name || `#${seat + 1}` : `#${seat + 1}`);
const isHost = () => !!table.host;

function remaining(seconds) {
  if (seconds === null || seconds === undefined) return null;
  return Math.max(0, seconds - (performance.now() - receivedAt) / 1000);
}

function fmtClock(s) {
  const whole = Math.ceil(s - 1e-6);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

// A sentence as nodes, with each team label ("Blue\u00a0●") wrapped so that its shape wears the team's colour:
// the words stay the same (textContent is unchanged), only the shape is painted. Team labels carry a no-break
// space that players' names do not, so a name is never mistaken for one.
function teamText(text) {
  const frag = document.createDocumentFragment();
  const labels = TEAM_SHAPES.map((_, team) => teamName(team));
  let rest = String(text);
  while (rest) {
    let at = -1;
    let team = -1;
    labels.forEach((label, i) => {
      const k = rest.indexOf(label);
      if (k >= 0 && (at < 0 || k < at)) { at = k; team = i; }
    });
    if (at < 0) { frag.append(rest); break; }
    if (at > 0) frag.append(rest.slice(0, at));
    const label = labels[team];
    const shape = TEAM_SHAPES[team];
    const span = el('span', `team-label team-${team}`, label.slice(0, label.length - shape.length));
    span.append(el('span', 'shape', shape));
    frag.append(span);
    rest = rest.slice(at + label.length);
  }
  return frag;
}

function teamChip(team, extraCls = '') {
  const chip = el('span', `team-chip team-${team} ${extraCls}`);
  chip.append(el('span', 'shape', TEAM_SHAPES[team]), el('span', 'tname', (TEAM_NAMES[lang()] || TEAM_NAMES.en)[team]));
  return chip;
}

function joinList(items) {
  if (items.length <= 1) return items.join('');
  return items.slice(0, -1).join(', ') + t('and') + items[items.length - 1];
}

// Seat i sits at angle 90° + i·360/N on the oval: seat 0 at the bottom, clockwise, partners opposite (R2).
function seatPosition(i, n, rx, ry) {
  const a = (Math.PI / 2) + (i * 2 * Math.PI) / n;
  return { x: 50 + rx * Math.cos(a), y: 50 + ry * Math.sin(a) };
}

// --- render ------------------------------------------------------------------------------------
function render() {
  if (!view) return;
  const phase = view.phase;
  document.body.dataset.phase = phase;
  document.body.classList.toggle('is-host', isHost());
  document.body.dataset.seats = String(view.seat_count);
  renderBar();
  renderJoin();
  renderHostBar(); // before the seats: the bar's height decides the room left for the table
  renderSeats();
  renderCentre();
  renderOver();
  renderNotices();
  tick();
}

function renderStatus() {
  const banner = $('#offline');
  const off = status !== 'open';
  banner.hidden = !off;
  banner.textContent = view ? t('offline_banner') : t('connecting');
  document.body.classList.toggle('offline', off);
}

function renderBar() {
  $('#round').textContent = view.phase === 'lobby' ? t('lobby') : t('round', { n: view.round });
  $('#to-win').textContent = t('to_win', { n: view.winning_score });
  const scores = $('#scores');
  scores.replaceChildren();
  for (const team of view.teams) {
    const s = el('div', `score team-${team.team}`);
    s.dataset.team = String(team.team);
    s.append(el('span', 'shape', TEAM_SHAPES[team.team]),
      el('span', 'tname', (TEAM_NAMES[lang()] || TEAM_NAMES.en)[team.team]),
      el('span', 'points', String(team.score)));
    if (team.random_sign && view.phase === 'play') {
      const dice = el('span', 'random-tag emoji', '🎲');
      dice.title = t('random_sign', { team: teamName(team.team) });
      s.append(dice);
    }
    if ((view.winners || []).includes(team.team)) s.classList.add('winner');
    if (view.phase === 'pause' && view.result && (view.result.scorers || []).includes(team.team)) {
      s.append(el('span', 'plus', '+1'));
      s.classList.add('scored');
    }
    scores.append(s);
  }
  $('#lang').textContent = lang() === 'fr' ? 'EN' : 'FR';
  $('#lang').title = lang() === 'fr' ? 'English' : 'Français';
  const mute = $('#mute');
  mute.textContent = sound.isMuted() ? '🔇' : '🔊';
  mute.title = sound.isMuted() ? t('unmute') : t('mute');
  mute.setAttribute('aria-pressed', sound.isMuted() ? 'true' : 'false');
  $('#mute-label').textContent = sound.isMuted() ? t('unmute') : t('mute');
}

function renderJoin() {
  const url = table.join_url || `${location.protocol}//${location.host}/`;
  $('#join-title').textContent = t('join_title');
  $('#join-url').textContent = url.replace(/^https?:\/\//, '').replace(/\/$/, '');
  $('#join-mdns').textContent = table.mdns_name ? `${t('join_or')} ${table.mdns_name}` : '';
  $('#spectator').textContent = isHost() ? '' : t('spectator');
}

function renderSeats() {
  const layer = $('#seats');
  layer.replaceChildren();
  const n = view.seat_count;
  const lobby = view.phase === 'lobby';
  const reveal = (view.phase === 'pause' || view.phase === 'over') && view.result;
  const [rx, ry] = lobby ? [44, 42] : [43, 41];
  const bots = table.bots || {};
  // Human seats nobody holds the token of (the host tapped "Free"): the next phone to join one takes it over.
  const freedSeats = table.freed || [];
  for (const s of view.seats) {
    const freed = s.kind === 'human' && freedSeats.includes(s.seat);
    const pos = seatPosition(s.seat, n, rx, ry);
    const plate = el('div', `seat team-${s.team} kind-${s.kind}`);
    plate.dataset.seat = String(s.seat);
    plate.style.left = `${pos.x}%`;
    plate.style.top = `${pos.y}%`;
    if (freed) plate.classList.add('freed');
    else if (s.kind !== 'empty' && !s.connected) plate.classList.add('disconnected');
    if (s.channel && s.channel.held) plate.classList.add('held');

    const head = el('div', 'seat-head');
    head.append(el('span', 'shape', TEAM_SHAPES[s.team]));
    const name = el('span', 'name', s.kind === 'empty' ? t('free_seat') : s.name);
    head.append(name);
    plate.append(head);

    const meta = el('div', 'seat-meta');
    if (s.kind === 'empty') {
      meta.append(el('span', 'muted', t('waiting_phone')));
    } else if (freed) {
      // Not "offline": nobody's seat any more. The join QR is only on the lobby's hero, so the plate carries one.
      const box = el('div', 'freed-box');
      if (view.phase !== 'over') {
        const qr = el('img', 'qr-mini');
        qr.src = '/qr.svg';
        qr.alt = '';
        box.append(qr);
      }
      const words = el('div', 'freed-text');
      words.append(el('b', '', t('freed_title')), el('span', '', lobby ? t('freed_lobby') : t('freed_hand')));
      box.append(words);
      meta.append(box);
    } else {
      const badge = el('span', 'badge');
      const level = bots[s.seat] || bots[String(s.seat)];
      badge.append(el('span', 'emoji', s.kind === 'bot' ? '🤖' : '📱'),
        el('span', '', s.kind === 'bot' ? (level ? `${t('bot')} · ${t(`level_${level}`)}` : t('bot')) : t('phone')));
      meta.append(badge);
      const conn = el('span', `conn ${s.connected ? 'on' : 'off'}`);
      conn.append(el('span', 'dot'), el('span', 'conn-label', s.connected ? '' : t('offline')));
      conn.title = s.connected ? t('connected') : t('disconnected');
      meta.append(conn);
    }
    if (!lobby && s.kind !== 'empty' && view.phase === 'play') {
      const lamp = el('span', 'lamp');
      lamp.title = t('channel_held');
      if (s.channel.held && s.channel.emoji) lamp.append(el('span', 'emoji', s.channel.emoji));
      meta.append(lamp);
    }
    if (view.phase === 'sign' && s.kind !== 'empty') {
      meta.append(el('span', `ready-tag ${s.ready ? 'yes' : 'no'}`, s.ready ? `✓ ${t('ready')}` : t('choosing')));
      plate.classList.toggle('not-ready', !s.ready);
    }
    plate.append(meta);

    if (reveal) {
      const r = view.result;
      const hand = el('div', 'hand');
      for (const c of r.hands[s.seat] || []) hand.append(cardEl(c, 'mini'));
      plate.append(hand);
      if ((r.carres || []).includes(s.seat)) plate.classList.add('carre');
      const since = performance.now() - revealAt;
      if (since < REVEAL_MS) {
        plate.classList.add('reveal-anim');
        plate.style.animationDelay = `${-since}ms`; // a plate redrawn mid-turn takes it up where it was
      }
      const sign = r.signs[s.team];
      if (sign) {
        const badge = el('div', 'sign-badge emoji', sign);
        badge.title = t('sign_of');
        plate.append(badge);
        plate.classList.add('has-sign'); // the badge sits on the plate's top-right corner: the name keeps clear of it
      }
      if (r.caller === s.seat) {
        plate.classList.add('caller');
        const mark = el('div', 'caller-badge emoji', '📣');
        mark.title = r.end === 'quatro' ? t('quatro') : t('contre');
        plate.append(mark);
      }
    }

    if (isHost()) {
      const ctl = el('div', 'seat-controls');
      if (lobby) {
        if (s.kind === 'empty') ctl.append(button(t('add_bot'), () => send({ type: 'add_bot', seat: s.seat }), 'add-bot'));
        if (s.kind === 'bot') ctl.append(button(t('remove_bot'), () => send({ type: 'remove_bot', seat: s.seat }), 'remove-bot'));
        if (freed) ctl.append(button(t('add_bot'), () => send({ type: 'add_bot', seat: s.seat }), 'add-bot'));
        if (s.kind === 'human') ctl.append(button(t('free'), () => send({ type: 'free_seat', seat: s.seat }), 'free-seat'));
      } else if (freed && view.phase !== 'over') {
        // A freed seat in a game: a bot can play its hand until (unless) a phone takes it over.
        ctl.append(button(t('add_bot'), () => send({ type: 'add_bot', seat: s.seat }), 'add-bot'));
      } else if (s.kind === 'human' && !s.connected && view.phase !== 'over') {
        ctl.append(button(t('free'), () => send({ type: 'free_seat', seat: s.seat }), 'free-seat'));
      }
      // A player can move to another device: their phone gets a one-time seat link. Only in the lobby, where
      // plates have room; in a game a phone that died is handled by "Free" on its (disconnected) seat.
      if (lobby && s.kind === 'human' && s.connected) {
        ctl.append(button(t('allow_move'), () => send({ type: 'allow_move', seat: s.seat }), 'allow-move'));
      }
      if (ctl.childElementCount) plate.append(ctl);
    }
    layer.append(plate);
  }
  fitNames(layer);
  // Keep every plate inside the table area (reveal plates are taller than the oval's margin).
  const W = layer.clientWidth;
  const H = layer.clientHeight;
  for (const plate of layer.children) {
    const w = plate.offsetWidth;
    const h = plate.offsetHeight;
    const x = Math.min(Math.max((parseFloat(plate.style.left) / 100) * W, w / 2 + 4), W - w / 2 - 4);
    const y = Math.min(Math.max((parseFloat(plate.style.top) / 100) * H, h / 2 + 4), H - h / 2 - 4);
    plate.style.left = `${x}px`;
    plate.style.top = `${y}px`;
  }
}

// A name that does not fit its plate on one line goes to two lines of smaller type, then smaller still: at
// 8 seats a 20-character name must stay readable from the sofa, not end in "Maximil…". Reads, then writes,
// twice (no layout thrash per plate).
function fitNames(layer) {
  const names = [...layer.querySelectorAll('.seat .name')];
  const cut = (n) => n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1;
  const long = names.filter(cut);
  for (const n of long) n.classList.add('long');
  const longer = long.filter(cut);
  for (const n of longer) n.classList.add('longer');
}

function button(label, onClick, cls = '') {
  const b = el('button', cls, label);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

function renderCentre() {
  const places = $('#places');
  const middle = $('#middle');
  const below = $('#below');
  places.replaceChildren();
  middle.replaceChildren();
  below.replaceChildren();
  const phase = view.phase;
  if (phase === 'play') {
    view.centre.forEach((c, i) => {
      const card = cardEl(c, 'big');
      card.dataset.place = String(i);
      places.append(card);
    });
  } else if ((phase === 'pause' || phase === 'over') && view.result) {
    view.result.centre.forEach((c, i) => {
      const card = cardEl(c, 'big');
      card.dataset.place = String(i);
      places.append(card);
    });
    const sentence = el('p', `sentence end-${view.result.end}`);
    sentence.append(teamText(resultSentence(view.result)));
    middle.append(sentence);
    if (phase === 'pause') {
      const row = el('div', 'pause-row');
      row.append(el('span', 'countdown pause-count', ''));
      if (isHost()) row.append(button(t('next_now'), () => send({ type: 'next_round' }), 'primary next-round'));
      below.append(row);
    }
  } else if (phase === 'lobby') {
    const box = el('div', 'howto');
    box.append(el('h2', 'howto-title', t('howto_title')));
    const list = el('ol');
    for (const k of ['howto_1', 'howto_2', 'howto_3', 'howto_4']) {
      const li = el('li');
      li.innerHTML = t(k); // our own fixed strings, never user text
      list.append(li);
    }
    box.append(list);
    middle.append(box);
  } else if (phase === 'sign') {
    middle.append(el('h2', 'sign-title', t('sign_title')));
    middle.append(el('p', 'sign-sub', t('sign_sub')));
    for (let i = 0; i < 4; i++) places.append(emptyPlaceEl());
    const humans = view.seats.filter((s) => s.kind !== 'empty');
    const ready = humans.filter((s) => s.ready).length;
    const row = el('div', 'sign-row');
    row.append(el('span', 'countdown sign-count', ''), el('span', 'ready-count', t('ready_count', { n: ready, of: humans.length })));
    below.append(row);
  }
}

function fourOf(hand) {
  const counts = {};
  for (const c of hand || []) counts[c.rank] = (counts[c.rank] || 0) + 1;
  return Object.keys(counts).find((r) => counts[r] >= 4) || null;
}

// One sentence telling the room what happened and who scored (R22, R24, R32).
export function resultSentence(r) {
  const scorers = joinList((r.scorers || []).map((team) => t('team', { team: teamName(team) })));
  if (r.end === 'void') return t('res_void');
  if (r.end === 'quatro') {
    const rank = fourOf(r.hands[r.target]);
    const what = rank ? t('four_of', { rank }) : t('no_carre');
    return t('res_quatro', { caller: seatName(r.caller), target: seatName(r.target), what, scorers });
  }
  // Contre: the accused team is `target`.
  const members = view.seats.filter((s) => s.team === r.target).map((s) => s.seat);
  let what = t('no_carre');
  for (const seat of members) {
    const rank = fourOf(r.hands[seat]);
    if (rank) { what = t('has_four', { name: seatName(seat), what: t('four_of', { rank }) }); break; }
  }
  return t('res_contre', { caller: seatName(r.caller), team: teamName(r.target), what, scorers });
}

function renderHostBar() {
  const bar = $('#host-bar');
  bar.replaceChildren();
  $('#start-slot').replaceChildren();
  if (!isHost() || view.phase !== 'lobby') return;
  const seg = el('div', 'segmented');
  seg.setAttribute('role', 'group');
  seg.append(el('span', 'seg-label', t('seats_label')));
  for (const n of [4, 6, 8]) {
    const b = button(String(n), () => send({ type: 'set_seats', count: n }), `seats-${n}`);
    if (n === view.seat_count) { b.classList.add('on'); b.setAttribute('aria-pressed', 'true'); }
    seg.append(b);
  }
  bar.append(seg);
  const level = (table.settings && table.settings.bot_level) || 'normal';
  const lv = el('div', 'segmented levels');
  lv.append(el('span', 'seg-label', t('bot_level')));
  for (const l of ['easy', 'normal', 'hard']) {
    const b = button(t(`level_${l}`), () => send({ type: 'settings', bot_level: l }), `level-${l}`);
    if (l === level) b.classList.add('on');
    lv.append(b);
  }
  bar.append(lv);
  bar.append(button(t('fill_bots'), () => send({ type: 'fill_bots' }), 'fill-bots'));
  $('#start-slot').replaceChildren(button(t('start'), () => send({ type: 'start_game' }), 'primary start-game'));
}

function renderOver() {
  const box = $('#over');
  box.replaceChildren();
  box.hidden = view.phase !== 'over';
  if (view.phase !== 'over') return;
  const winners = view.winners || [];
  box.append(el('div', 'over-title', t('over_title')));
  if (view.result) {
    const last = el('p', 'over-last');
    last.append(teamText(resultSentence(view.result)));
    box.append(last);
  }
  const names = joinList(winners.map((w) => teamName(w)));
  const head = el('h2', 'over-winners');
  head.append(teamText(winners.length > 1 ? t('wins_many', { teams: names }) : t('wins_one', { teams: names })));
  box.append(head);
  const list = el('div', 'final-scores');
  const sorted = [...view.teams].sort((a, b) => b.score - a.score);
  for (const team of sorted) {
    const row = el('div', `final team-${team.team}` + (winners.includes(team.team) ? ' winner' : ''));
    row.append(el('span', 'shape', TEAM_SHAPES[team.team]),
      el('span', 'tname', (TEAM_NAMES[lang()] || TEAM_NAMES.en)[team.team]),
      el('span', 'members', view.seats.filter((s) => s.team === team.team).map((s) => s.name).join(' · ')),
      el('span', 'points', String(team.score)));
    list.append(row);
  }
  box.append(list);
  if (isHost()) box.append(button(t('new_game'), () => send({ type: 'new_game' }), 'primary new-game'));
}

// --- countdowns (interpolated locally between states) ---------------------------------------------
let lastTickSecond = null;
function tick() {
  if (!view) return;
  const clockBox = $('#clock-box');
  const clock = $('#clock');
  const left = remaining(view.clock);
  const labels = { sign: 'clock_sign', play: 'clock_play', pause: 'clock_pause' };
  if (left === null || !labels[view.phase]) {
    clockBox.hidden = true;
  } else {
    clockBox.hidden = false;
    $('#clock-label').textContent = t(labels[view.phase]);
    clock.textContent = fmtClock(left);
    const warnAt = (view.timing && view.timing.round_length ? view.timing.round_length : 180) / 6; // last 30 s of 3:00
    clockBox.classList.toggle('amber', view.phase === 'play' && left <= warnAt);
    // A soft tick each of the round's last ten seconds (DESIGN: "the last 10 seconds"); scaled like the clock.
    const tickFrom = warnAt / 3;
    const second = Math.ceil(left * 10 / tickFrom);
    if (view.phase === 'play' && left > 0 && left <= tickFrom && second !== lastTickSecond) {
      lastTickSecond = second;
      sound.cue('tick');
    }
  }
  for (const c of document.querySelectorAll('.countdown')) c.textContent = left === null ? '' : String(Math.ceil(left - 1e-6));
  const pc = $('.pause-count');
  if (pc && left !== null) pc.textContent = t('next_in', { s: fmtClock(left) });
  const vote = view.phase === 'play' && view.reshuffle && view.reshuffle.vote;
  const vn = $('#vote-notice');
  if (vote) {
    vn.hidden = false;
    vn.textContent = t('vote_running', { name: seatName(vote.requester), left: `${Math.ceil(remaining(vote.left) - 1e-6)} s` });
  } else {
    vn.hidden = true;
  }
  const now = performance.now();
  if (notices.some((n) => n.until <= now)) renderNotices();
}
setInterval(tick, 200);

// --- notices ------------------------------------------------------------------------------------
function addNotice(text, ms = 6000, kind = '') {
  notices.push({ id: ++noticeSeq, text, until: performance.now() + ms, kind });
  while (notices.length > 2) notices.shift();
  renderNotices();
}

function renderNotices() {
  const box = $('#notice-list');
  const now = performance.now();
  for (let i = notices.length - 1; i >= 0; i--) if (notices[i].until <= now) notices.splice(i, 1);
  // Keep the elements already shown (their entry animation plays once), add the new, drop the old.
  const keep = new Set(notices.map((n) => String(n.id)));
  for (const node of [...box.children]) if (!keep.has(node.dataset.id)) node.remove();
  for (const n of notices) {
    if (!box.querySelector(`[data-id="${n.id}"]`)) {
      const node = el('div', `notice ${n.kind}`);
      node.append(teamText(n.text));
      node.dataset.id = String(n.id);
      box.append(node);
    }
  }
}

// --- events: animations, notices, sound ---------------------------------------------------------
function handleEvents(events, before) {
  const randomTeams = events.filter((e) => e.type === 'random_sign_given').map((e) => teamName(e.team));
  if (randomTeams.length) addNotice(`🎲 ${t('random_sign', { team: joinList(randomTeams), n: randomTeams.length })}`, 8000);
  for (const e of events) {
    switch (e.type) {
      case 'swapped': animateSwap(e); break;
      case 'emitted': burst(e.seat, e.emoji); break;
      case 'dealt': if (e.redeals > 0) addNotice(`🔄 ${t('redealt', { n: e.redeals })}`, 8000); break;
      case 'reshuffled': addNotice(`🔀 ${t('reshuffled')}`, 6000); break;
      case 'vote_ended':
        if (e.why !== 'round_over') addNotice(e.passed ? t('vote_passed') : t('vote_failed'), 5000);
        break;
      case 'round_opened': sound.cue('start'); break;
      case 'seat_changed': {
        const plate = $(`.seat[data-seat="${e.seat}"]`);
        if (plate && e.kind !== 'empty') plate.classList.add('pop'); // a new face at the table
        break;
      }
      case 'round_ended':
        if (e.result && e.result.end !== 'void') { sound.cue('call'); setTimeout(() => sound.cue('point'), 450); }
        break;
      case 'game_over': setTimeout(() => sound.cue('win'), 900); break;
      case 'connection_changed': {
        const s = view.seats[e.seat];
        if (s && s.kind === 'human' && view.phase !== 'lobby') {
          addNotice(e.connected ? t('seat_back', { name: s.name }) : `⚠ ${t('seat_offline', { name: s.name })}`, 5000);
        }
        break;
      }
      default: break;
    }
  }
  void before;
}

function centreOf(node) {
  const r = node.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height };
}

// R14: the room sees who took what. The card put down slides from the seat to its place,
// the card taken slides from the place to the seat and fades.
function animateSwap(e) {
  const plate = $(`.seat[data-seat="${e.seat}"]`);
  const card = $(`#places .card[data-place="${e.place}"]`);
  if (!plate || !card) return;
  const from = centreOf(plate);
  const to = centreOf(card);
  const dx = from.x - to.x;
  const dy = from.y - to.y;
  const ms = 450;
  card.classList.add('just-swapped');
  setTimeout(() => card.classList.remove('just-swapped'), 1600);
  plate.classList.add('swapping');
  setTimeout(() => plate.classList.remove('swapping'), 900);
  if (reducedMotion()) {
    card.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 300, easing: 'ease-out' });
    return;
  }
  card.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(0.45)`, opacity: 0.6 },
    { transform: 'translate(0, 0) scale(1)', opacity: 1 },
  ], { duration: ms, easing: 'cubic-bezier(.2,.8,.2,1)' });
  const ghost = cardEl(e.took, 'big');
  ghost.classList.add('ghost');
  const fx = $('#fx');
  const fxr = fx.getBoundingClientRect();
  ghost.style.left = `${to.x - fxr.left - to.w / 2}px`;
  ghost.style.top = `${to.y - fxr.top - to.h / 2}px`;
  fx.append(ghost);
  const anim = ghost.animate([
    { transform: 'translate(0, 0) scale(1)', opacity: 1 },
    { transform: `translate(${dx}px, ${dy}px) scale(0.4)`, opacity: 0 },
  ], { duration: ms + 150, easing: 'ease-in' });
  anim.onfinish = () => ghost.remove();
}

// R18: each emission bursts at its seat, big, with a soft ring, for ~1.5 s.
const BURST_RADIUS = 120; // the ring at rest (.burst .ring: 240 px); the 180 px emoji sits inside it
function burst(seat, emoji) {
  if (!view || view.phase !== 'play') return; // the reveal is not the time for signals
  const plate = $(`.seat[data-seat="${seat}"]`);
  const fx = $('#fx');
  if (!plate || !fx) return;
  const p = centreOf(plate);
  const fxr = fx.getBoundingClientRect();
  // Pull the burst a little toward the table centre so it never leaves the screen.
  const cx = fxr.left + fxr.width / 2;
  const cy = fxr.top + fxr.height / 2;
  const dist = Math.hypot(cx - p.x, cy - p.y) || 1;
  // …but not onto the notice line (re-deal, vote running…), which must stay readable: the bottom seat's burst,
  // pulled up, landed on it. Pull less (or push outward, over the plate) until the ring clears every notice.
  const notes = [...document.querySelectorAll('#notices .notice:not([hidden])')].map((n) => n.getBoundingClientRect());
  const R = BURST_RADIUS;
  const clash = (x, y) => notes.reduce((sum, q) => sum +
    Math.max(0, Math.min(x + R, q.right) - Math.max(x - R, q.left)) *
    Math.max(0, Math.min(y + R, q.bottom) - Math.max(y - R, q.top)), 0);
  let best = null;
  for (const want of [120, 60, 0, -60]) {
    const pull = Math.min(want, dist * 0.35);
    const at = { x: p.x + ((cx - p.x) / dist) * pull, y: p.y + ((cy - p.y) / dist) * pull };
    at.clash = clash(at.x, at.y);
    if (!best || at.clash < best.clash) best = at;
    if (!at.clash) break;
  }
  const x = best.x - fxr.left;
  const y = best.y - fxr.top;
  for (const old of fx.querySelectorAll(`.burst[data-seat="${seat}"]`)) old.remove();
  const b = el('div', `burst team-${view.seats[seat] ? view.seats[seat].team : 0}`);
  b.dataset.seat = String(seat);
  b.style.left = `${x}px`;
  b.style.top = `${y}px`;
  b.append(el('span', 'ring'), el('span', 'ring ring2'), el('span', 'burst-emoji emoji', emoji));
  fx.append(b);
  plate.classList.add('emitting');
  setTimeout(() => plate.classList.remove('emitting'), 1500);
  // Gone when its animation ends (a busy machine may start it late), or after 4 s at the latest.
  b.querySelector('.burst-emoji').addEventListener('animationend', () => b.remove());
  setTimeout(() => b.remove(), 4000);
  document.body.dataset.bursts = String(Number(document.body.dataset.bursts || 0) + 1);
}

window.addEventListener('resize', () => render());
window.addEventListener('hashchange', () => location.reload()); // a new host link: say hello again with it

// --- chrome: language, mute -------------------------------------------------------------------------
document.documentElement.lang = language();
$('#lang').addEventListener('click', () => setLanguage(lang() === 'fr' ? 'en' : 'fr'));
$('#mute').addEventListener('click', () => { sound.setMuted(!sound.isMuted()); if (view) renderBar(); });
onLanguageChange(() => { render(); renderStatus(); });
for (const ev of ['pointerdown', 'keydown']) document.addEventListener(ev, () => sound.unlock(), { once: true });
renderStatus();

// For tests and debugging: the last view the page drew (public data only).
window.quatroScreen = { get view() { return view; }, get table() { return table; }, get status() { return status; } };

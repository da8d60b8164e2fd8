// The play screen: the table strip (who holds a channel, what it flashes), the emoji tray, the centre, the hand,
// the channel switch and reshuffle, and the two calls — everything you touch within the thumb's reach.
// Nothing here decides a rule: cooldowns, vote times and who may vote come from the view; a tap refused by the
// server is told at the finger with the server's reason.
import { S, me, mySeat, left, shownCards, timing, paused } from './state.js';
import { $, h, fillCard, cardText, drainRing } from './dom.js';
import { t, seconds } from './strings.js';
import { send, justSent } from './net.js';
import { atFinger, haptic, playMsg } from './feedback.js';
import { setupCalls, callRefusal } from './calls.js';
import { keepAwake } from './awake.js';
import { TEAM_SHAPES } from '../common/teams.js';

const centreButtons = [];
const handButtons = [];
const trayButtons = new Map();
let stripChips = [];
let swapCoolEnd = 0; // performance.now() ms: when the view's swap_wait runs out
let channelCoolEnd = 0;
let shownChoice = null; // the tray's chosen emoji last drawn

export function setupPlay() {
  const centre = $('centre');
  for (let p = 0; p < 4; p++) {
    const b = h('button', { type: 'button', class: 'card place', 'data-place': p, onclick: () => tapPlace(p, b) });
    centreButtons.push(b);
    centre.append(b);
  }
  const hand = $('hand');
  for (let i = 0; i < 4; i++) {
    const b = h('button', { type: 'button', class: 'card mine', 'data-slot': i, onclick: () => tapCard(i) });
    handButtons.push(b);
    hand.append(b);
  }
  const sw = $('btn-channel');
  // iOS has no script vibration; its native switch gives the system's own tick. Elsewhere the checkbox is drawn as
  // a switch by the page (phone.css), with a vibration where the platform has one.
  if (!('switch' in HTMLInputElement.prototype)) sw.classList.add('drawn-switch');
  sw.addEventListener('click', tapChannel);
  $('btn-reshuffle').addEventListener('click', tapReshuffle);
  setupCalls(renderPlay);
}

/** A new view: restart a cooldown ring only when its end moved (not on every update). */
export function onPlayView() {
  const you = me();
  if (!you) return;
  const T = timing();
  const swapEnd = S.at + (you.swap_wait || 0) * 1000;
  if (Math.abs(swapEnd - swapCoolEnd) > 150) {
    swapCoolEnd = swapEnd;
    drainRing($('hand-ring'), you.swap_wait || 0, T.swap_cooldown);
  }
  const chEnd = S.at + (you.channel_wait || 0) * 1000;
  if (Math.abs(chEnd - channelCoolEnd) > 150) {
    channelCoolEnd = chEnd;
    drainRing($('channel-ring'), you.channel_wait || 0, T.channel_cooldown);
  }
  const seat = mySeat();
  if (S.channelWanted != null && seat && seat.channel.held === S.channelWanted) S.channelWanted = null;
  // Paused by the host: the cooldowns stand still with every other clock.
  for (const id of ['hand-ring', 'channel-ring']) {
    const anim = $(id)._anim;
    if (anim && paused()) anim.pause();
    else if (anim && anim.playState === 'paused') anim.play();
  }
}

function tapCard(slot) {
  keepAwake();
  const { hand } = shownCards();
  const c = hand[slot];
  if (!c) return;
  if (S.pending) { atFinger(t('swap_on_its_way'), 'info'); return; }
  S.selected = S.selected === c.id ? null : c.id;
  if (S.selected != null) playMsg(t('tap_place'), 'hint', 0);
  else playMsg('', 'info', 1);
  renderPlay();
}

function tapPlace(place, btn) {
  keepAwake();
  const you = me();
  if (!you) return;
  if (S.pending) { atFinger(t('swap_on_its_way'), 'info', { anchor: btn }); return; }
  if (S.selected == null) { atFinger(t('tap_card_first'), 'info', { anchor: btn }); return; }
  if (paused()) { atFinger(t('paused_short'), 'refused', { anchor: btn }); haptic('refused'); return; }
  const wait = paused() ? 0 : (swapCoolEnd - performance.now()) / 1000; // the view's swap_wait, counted down
  if (wait > 0.05) {
    atFinger(t('wait_s', { s: seconds(wait) }), 'refused', { anchor: btn });
    haptic('refused');
    return;
  }
  const expected = S.view.centre[place];
  if (!expected) return;
  const id = send({ type: 'swap', card: S.selected, place, expected: expected.id }, { card: S.selected, place, anchor: btn });
  if (id == null) return;
  S.pending = { id, card: S.selected, place, expected: expected.id, ok: false };
  S.selected = null;
  playMsg('', 'info', 1);
  renderPlay();
}

function tapChannel(e) {
  keepAwake();
  const seat = mySeat();
  const sw = $('btn-channel');
  if (!seat) { e.preventDefault(); return; }
  const held = S.channelWanted ?? seat.channel.held;
  const wait = (channelCoolEnd - performance.now()) / 1000;
  let why = null;
  if (paused()) why = t('paused_short');
  else if (wait > 0.05) why = t('channel_wait', { s: seconds(wait) });
  else if (justSent('take_channel', 'release_channel')) why = t('on_its_way');
  if (why) {
    e.preventDefault(); // the switch stays as it was
    atFinger(why, 'refused', { anchor: sw });
    haptic('refused');
    return;
  }
  const id = send({ type: held ? 'release_channel' : 'take_channel' }, { anchor: sw });
  if (id == null) { e.preventDefault(); return; }
  S.channelWanted = !held;
  renderPlay();
}

function chooseEmoji(e, tile) {
  keepAwake();
  send({ type: 'choose_emoji', emoji: e }, { emoji: e, anchor: tile });
}

function tapReshuffle() {
  keepAwake();
  const btn = $('btn-reshuffle');
  const why = reshuffleState().why;
  // A double tap's second tap says nothing: not even when the first one's vote is already in the view (a slow phone
  // runs the server's answer between the two taps), where "A vote is already running" would be about its own vote.
  // Any other reason (the vote ended, the next one is later) is still said.
  if (justSent('request_reshuffle') && (!why || (S.view.reshuffle || {}).vote)) return;
  if (why) { atFinger(why, 'refused', { anchor: btn }); haptic('refused'); return; }
  send({ type: 'request_reshuffle' }, { anchor: btn });
}

/** What the reshuffle button says and, when it cannot be used now, why (all from the view). */
function reshuffleState() {
  const v = S.view;
  const you = me();
  const rs = v.reshuffle || {};
  if (paused()) return { label: t('reshuffle'), why: t('paused_short') };
  if (rs.done) return { label: t('reshuffle_done'), why: t('reshuffle_already_done') };
  if (rs.vote) {
    const mine = rs.vote.requester === you.seat;
    const label = mine ? t('your_vote_wait', { n: rs.vote.accepted.length, m: rs.vote.voters.length }) : t('vote_running');
    return { label, why: t('vote_running_r') };
  }
  if (rs.next_vote_in) {
    const s = Math.ceil(left(rs.next_vote_in));
    if (s > 0) return { label: t('reshuffle_wait', { s }), why: t('reshuffle_wait', { s }) };
  }
  return { label: t('reshuffle'), why: null };
}

export function renderPlay() {
  const v = S.view;
  const you = me();
  const seat = mySeat();
  if (!you || !seat) return;
  const trayOpen = S.channelWanted ?? seat.channel.held;
  $('screen-play').className = `screen play team-${you.team}${paused() ? ' paused' : ''}${trayOpen ? ' tray-open' : ''}`;
  const { hand, centre } = shownCards();

  // Calls: guarded by a hold; unavailable ones stay touchable so a tap is told why.
  const why = callRefusal();
  for (const [id, key, label] of [['btn-quatro', 'quatro', 'quatro_label'], ['btn-contre', 'contre', 'contre_label']]) {
    const b = $(id);
    b.querySelector('.call-text').textContent = t(key);
    b.querySelector('small').textContent = key === 'quatro' && you.has_carre ? t('carre_hint') : t('hold_to_call');
    b.setAttribute('aria-label', t(label));
    b.setAttribute('aria-disabled', why ? 'true' : 'false');
  }
  $('btn-quatro').classList.toggle('reminder', !!you.has_carre);

  // Channel: the switch shows what we asked for until the view says so.
  const held = S.channelWanted ?? seat.channel.held;
  const sw = $('btn-channel');
  sw.checked = held;
  sw.setAttribute('aria-checked', held ? 'true' : 'false');
  $('channel-toggle').classList.toggle('held', held);
  $('channel-label').textContent = held ? t('release_channel') : t('take_channel');
  $('tray').hidden = !held;
  if (held) renderTray(you, seat);

  // Reshuffle
  const rs = reshuffleState();
  const rb = $('btn-reshuffle');
  rb.textContent = rs.label;
  rb.setAttribute('aria-disabled', rs.why ? 'true' : 'false');
  rb.setAttribute('aria-label', `${t('reshuffle_label')} — ${rs.label}`);

  const before = new Map();
  for (const b of [...centreButtons, ...handButtons]) {
    if (b.dataset.card) before.set(b.dataset.card, { rect: b.getBoundingClientRect(), el: b });
  }
  centreButtons.forEach((b, p) => {
    const c = centre[p];
    fillCard(b, c);
    b.classList.toggle('target', S.selected != null);
    b.classList.toggle('incoming', !!S.pending && S.pending.place === p);
    b.setAttribute('aria-label', t('centre_label', { n: p + 1, card: cardText(c) }));
  });
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
  const msg = $('play-msg'), hint = t(paused() ? 'paused' : 'tap_card'); // "Paused" must not outlive the pause
  if (S.selected == null && (!msg.textContent || (msg.classList.contains('hint') && msg.textContent !== hint))) playMsg(hint, 'hint', 0);
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
      const b = h('button', { type: 'button', class: 'emoji-tile emoji', role: 'radio', 'data-emoji': e, 'aria-label': e }, e);
      b.addEventListener('click', () => chooseEmoji(e, b));
      trayButtons.set(e, b);
      grid.append(b);
    }
  }
  grid.setAttribute('aria-label', t('choose_emit', { s: timing().emission_period ?? '' }));
  for (const [e, b] of trayButtons) {
    const on = e === you.channel_choice;
    b.classList.toggle('chosen', on);
    b.setAttribute('aria-checked', on ? 'true' : 'false');
  }
  const choice = you.channel_choice;
  const tile = trayButtons.get(choice);
  if (tile && choice !== shownChoice && grid.scrollWidth > grid.clientWidth) { // the rows scroll: bring it in sight
    const x = tile.offsetLeft - grid.offsetLeft;
    if (x < grid.scrollLeft || x + tile.offsetWidth > grid.scrollLeft + grid.clientWidth) grid.scrollLeft = x - 8;
  }
  shownChoice = choice;
  const line = $('tray-line');
  if (!choice) line.textContent = t('nothing_chosen');
  else if (seat.channel.emoji === choice && S.lastEmitAt) line.textContent = t('emitted', { emoji: choice });
  else line.textContent = t('will_emit', { emoji: choice });
  line.dataset.state = !choice ? 'none' : (seat.channel.emoji === choice ? 'out' : 'soon');
}

/** The table at a glance: every seat, its channel lamp and what it emits (public, R36); rows of at most four. */
export function renderStrip(you) {
  const v = S.view;
  const strip = $('strip');
  const n = v.seats.length;
  if (stripChips.length !== n) {
    const perRow = n <= 4 ? n : n === 6 ? 3 : 4;
    const grid = h('div', { class: `chips seats-${n}` });
    strip.style.setProperty('--rows', String(Math.ceil(n / perRow)));
    strip.classList.toggle('many', n > 4);
    // The team's shape sits in the chip's corner, so the name has the chip's whole width.
    stripChips = v.seats.map((s) => h('div', { class: 'chip', 'data-seat': s.seat, role: 'listitem' },
      h('b', { class: 'shape chip-shape', 'aria-hidden': 'true' }),
      h('span', { class: 'chip-emoji emoji', 'aria-hidden': 'true' }),
      h('span', { class: 'chip-name' }, h('span', { class: 'nm' }))));
    grid.append(...stripChips);
    strip.replaceChildren(grid);
  }
  v.seats.forEach((s, i) => {
    const chip = stripChips[i];
    const mine = you && i === you.seat;
    chip.className = `chip team-${s.team}${s.channel.held ? ' held' : ''}${s.connected ? '' : ' gone'}`
      + `${mine ? ' me' : ''}${you && i === you.partner ? ' partner' : ''}`;
    chip.querySelector('.shape').textContent = TEAM_SHAPES[s.team];
    const nm = chip.querySelector('.nm');
    const name = mine ? t('you_tag') : s.name;
    // a box a word: a long word ends in its own ellipsis, it never breaks (not even after a hyphen: "Chloé" /
    // "Marie-" / "Anne" would lose its last line unmarked)
    if (nm.textContent !== name) nm.replaceChildren(...name.split(' ').flatMap((w, k) => [k ? ' ' : '', h('span', { class: 'w', text: w })]));
    chip.querySelector('.chip-emoji').textContent = s.channel.held ? (s.channel.emoji || '') : '';
    chip.setAttribute('aria-label', `${s.name}${you && i === you.partner ? ` (${t('your_partner')})` : ''}: `
      + `${s.channel.held ? t('channel_held_by') : t('channel_free')}${s.channel.emoji ? ` ${s.channel.emoji}` : ''}`);
  });
}

export function burst(seat) {
  const chip = stripChips[seat];
  if (!chip) return;
  chip.classList.remove('burst');
  void chip.offsetWidth;
  chip.classList.add('burst');
}

export function flashOwnEmission(emoji) {
  S.lastEmitAt = performance.now();
  const tile = trayButtons.get(emoji);
  if (tile) { tile.classList.remove('out'); void tile.offsetWidth; tile.classList.add('out'); }
  const line = $('tray-line');
  line.classList.remove('flash'); void line.offsetWidth; line.classList.add('flash');
}

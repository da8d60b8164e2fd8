// The seat plates around the oval, one per seat, kept from state to state: each plate redraws only the parts
// whose data changed (name, badges, lamp, ready, the revealed hand, the host's buttons), so a swap at one seat
// leaves every other plate's nodes as they were. Seat i sits at 90° + i·360/N: seat 0 at the bottom, clockwise,
// partners opposite (R2).
import { TEAM_SHAPES } from '../common/teams.js';
import { language } from '../common/i18n.js';
import { $, el, button, patch } from './dom.js';
import { store, revealing } from './state.js';
import { cardEl } from './cards.js';
import { t } from './strings.js';

const plates = new Map(); // seat → {node, head, name, meta, hand, badges, ctl}
let placed = ''; // the layout the plates were last placed for

export const plateOf = (seat) => (plates.get(seat) || {}).node || null;

export function toggle(node, cls, on) {
  if (node.classList.contains(cls) !== !!on) node.classList.toggle(cls, !!on);
}

function seatPosition(i, n, rx, ry) {
  const a = Math.PI / 2 + (i * 2 * Math.PI) / n;
  return { x: 50 + rx * Math.cos(a), y: 50 + ry * Math.sin(a) };
}

function makePlate(seat) {
  const node = el('div', 'seat');
  node.dataset.seat = String(seat);
  const head = el('div', 'seat-head');
  const shape = el('span', 'shape');
  const name = el('span', 'name');
  head.append(shape, name);
  const meta = el('div', 'seat-meta');
  const hand = el('div', 'hand');
  const badges = el('div', 'badges');
  const ctl = el('div', 'seat-controls');
  node.append(head, meta, hand, badges, ctl);
  node.addEventListener('animationend', (e) => {
    if (e.target !== node) return;
    toggle(node, 'reveal-anim', false);
    toggle(node, 'pop', false);
  });
  return { node, head, shape, name, meta, hand, badges, ctl };
}

// `controls(s, freed)`: the host's buttons for that seat, as [{label, cls, onClick}] (host.js decides).
export function renderSeats(controls) {
  const view = store.view;
  const layer = $('#seats');
  const n = view.seat_count;
  const lobby = view.phase === 'lobby';
  const reveal = revealing(view) ? view.result : null;
  const bots = store.table.bots || {};
  const freedSeats = store.table.freed || [];
  for (const [seat, p] of plates) {
    if (seat >= n) { p.node.remove(); plates.delete(seat); }
  }
  const redrawnNames = [];
  let resized = false;
  for (const s of view.seats) {
    let p = plates.get(s.seat);
    if (!p) {
      p = makePlate(s.seat);
      plates.set(s.seat, p);
      layer.append(p.node);
      resized = true;
    }
    const node = p.node;
    const freed = s.kind === 'human' && freedSeats.includes(s.seat);
    const teamCls = `team-${s.team}`;
    for (const c of [...node.classList]) if (c.startsWith('team-') && c !== teamCls) node.classList.remove(c);
    toggle(node, teamCls, true);
    for (const k of ['human', 'bot', 'empty']) toggle(node, `kind-${k}`, s.kind === k);
    toggle(node, 'freed', freed);
    toggle(node, 'disconnected', !freed && s.kind !== 'empty' && !s.connected);
    toggle(node, 'held', !!(s.channel && s.channel.held) && view.phase === 'play');
    toggle(node, 'not-ready', view.phase === 'sign' && s.kind !== 'empty' && !s.ready);

    const nameText = s.kind === 'empty' ? t('free_seat') : s.name;
    if (patch(p.head, `${s.team}|${nameText}`, () => {
      p.shape.textContent = TEAM_SHAPES[s.team];
      p.name.textContent = nameText;
      p.name.classList.remove('long', 'longer', 'longest');
    })) { redrawnNames.push(p.name); resized = true; }

    const level = bots[s.seat] || bots[String(s.seat)] || '';
    const lamp = view.phase === 'play' && s.kind !== 'empty';
    const emoji = lamp && s.channel && s.channel.held ? s.channel.emoji || '' : '';
    const ready = view.phase === 'sign' && s.kind !== 'empty' ? (s.ready ? 'y' : 'n') : '';
    const metaSig = [s.kind, freed, s.connected, level, lamp, emoji, ready, lobby, view.phase === 'over', language()].join('|');
    resized = patch(p.meta, metaSig, () => drawMeta(p.meta, s, { freed, level, lamp, emoji, ready, lobby, view })) || resized;

    const handSig = reveal ? (reveal.hands[s.seat] || []).map((c) => c.id).join(',') : '';
    resized = patch(p.hand, handSig, () => {
      p.hand.replaceChildren(...(reveal ? (reveal.hands[s.seat] || []).map((c) => cardEl(c, 'mini')) : []));
    }) || resized;
    toggle(node, 'carre', !!reveal && (reveal.carres || []).includes(s.seat));
    const sign = reveal ? reveal.signs[s.team] || '' : '';
    const caller = !!reveal && reveal.caller === s.seat ? reveal.end : '';
    patch(p.badges, `${sign}|${caller}|${language()}`, () => {
      p.badges.replaceChildren();
      if (sign) {
        const b = el('div', 'sign-badge emoji', sign);
        b.title = t('sign_of');
        p.badges.append(b);
      }
      if (caller) {
        const m = el('div', 'caller-badge emoji', '📣');
        m.title = caller === 'quatro' ? t('quatro') : t('contre');
        p.badges.append(m);
      }
    });
    toggle(node, 'has-sign', !!sign); // the badge sits on the plate's top-right corner: the name keeps clear
    toggle(node, 'caller', !!caller);

    const ctl = controls(s, freed);
    resized = patch(p.ctl, ctl.map((b) => `${b.cls}:${b.label}`).join('|'), () => {
      p.ctl.replaceChildren(...ctl.map((b) => button(b.label, b.onClick, b.cls)));
    }) || resized;
  }
  const W = layer.clientWidth;
  const H = layer.clientHeight;
  const group = lobby ? 'lobby' : reveal ? 'reveal' : 'game';
  const layout = `${n}|${group}|${W}|${H}`;
  if (layout !== placed) {
    // The plates' widths depend on the phase and the seat count: every name is measured again.
    for (const p of plates.values()) { p.name.classList.remove('long', 'longer', 'longest'); redrawnNames.push(p.name); }
  }
  fitNames([...new Set(redrawnNames)]);
  if (resized || layout !== placed) {
    placed = layout;
    place(n, lobby, W, H);
  }
}

function drawMeta(meta, s, { freed, level, lamp, emoji, ready, lobby, view }) {
  meta.replaceChildren();
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
    badge.append(el('span', 'emoji', s.kind === 'bot' ? '🤖' : '📱'),
      el('span', '', s.kind === 'bot' ? (level ? `${t('bot')} · ${t(`level_${level}`)}` : t('bot')) : t('phone')));
    meta.append(badge);
    const conn = el('span', `conn ${s.connected ? 'on' : 'off'}`);
    conn.append(el('span', 'dot'), el('span', 'conn-label', s.connected ? '' : t('offline')));
    conn.title = s.connected ? t('connected') : t('disconnected');
    meta.append(conn);
  }
  if (lamp) {
    const l = el('span', 'lamp');
    l.title = t('channel_held');
    if (emoji) l.append(el('span', 'emoji', emoji));
    meta.append(l);
  }
  if (ready) meta.append(el('span', `ready-tag ${ready === 'y' ? 'yes' : 'no'}`, ready === 'y' ? `✓ ${t('ready')}` : t('choosing')));
}

// A name that does not fit its plate on one line goes to two lines of smaller type, then smaller still, in
// two steps: at 8 seats a 20-character name must stay readable from the sofa (a hyphen can leave a long word
// and the surname together on the second line: "Marie-" / "Bénédicte Roux"). Only the names just redrawn are
// measured. A word broken across the two lines ("Maximilien" / "-Alexandre": it did not fit a line) takes the
// next step too.
function fitNames(names) {
  if (!names.length) return;
  const cut = (x) => x.scrollWidth > x.clientWidth + 1 || x.scrollHeight > x.clientHeight + 1 || brokenWord(x);
  let left = names;
  for (const cls of ['long', 'longer', 'longest']) {
    left = left.filter(cut);
    for (const x of left) x.classList.add(cls);
  }
}

function brokenWord(x) {
  const node = x.firstChild;
  if (!node || node.nodeType !== Node.TEXT_NODE) return false;
  const text = node.data;
  const range = document.createRange();
  let last = null;
  for (let i = 0; i < text.length; i++) {
    range.setStart(node, i);
    range.setEnd(node, i + 1);
    const r = range.getClientRects()[0];
    if (!r) continue;
    if (last !== null && r.top > last + 2 && !/\s/.test(text[i]) && !/[\s-]/.test(text[i - 1])) return true;
    last = r.top;
  }
  return false;
}

// Each plate on the oval, kept inside the table area (reveal plates are taller than the oval's margin).
function place(n, lobby, W, H) {
  const [rx, ry] = lobby ? [44, 42] : [43, 41];
  for (const [seat, p] of plates) {
    let pos = seatPosition(seat, n, rx, ry);
    // The lobby at eight seats: the diagonal plates go to the table's corners, level with the top and bottom
    // plates, so that the middle keeps room for the attract loop (still in seat order, partners still opposite).
    if (lobby && n === 8 && seat % 2 === 1) pos = { x: pos.x < 50 ? 50 - rx : 50 + rx, y: pos.y < 50 ? 50 - ry : 50 + ry };
    const w = p.node.offsetWidth;
    const h = p.node.offsetHeight;
    const x = Math.min(Math.max((pos.x / 100) * W, w / 2 + 4), W - w / 2 - 4);
    const y = Math.min(Math.max((pos.y / 100) * H, h / 2 + 4), H - h / 2 - 4);
    const left = `${Math.round(x)}px`;
    const top = `${Math.round(y)}px`;
    if (p.node.style.left !== left) p.node.style.left = left;
    if (p.node.style.top !== top) p.node.style.top = top;
  }
}

// The reveal turns the hands over once, when it starts (not on a later redraw: the language, a resize).
export function turnOver() {
  for (const p of plates.values()) toggle(p.node, 'reveal-anim', true);
}

export function pop(seat) {
  const node = plateOf(seat);
  if (node) toggle(node, 'pop', true);
}

// A brief mark on a plate (a swap, an emission) that ends by itself.
export function flash(seat, cls, ms) {
  const node = plateOf(seat);
  if (!node) return;
  toggle(node, cls, false);
  void node.offsetWidth; // restart its animation
  toggle(node, cls, true);
  clearTimeout(node[`__${cls}`]);
  node[`__${cls}`] = setTimeout(() => toggle(node, cls, false), ms);
}

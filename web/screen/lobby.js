// The lobby: the QR code is the hero, the join URL under it, the seats fill in live; in the middle of the
// table the attract loop (the teaching module's scripted round, when it is there; else a short "how to play"),
// and a link to the rules. The same loop can be replayed over the table at any pause.
import { $, el, setText } from './dom.js';
import { store, isHost, timing } from './state.js';
import { stageScale } from './layout.js';
import { t } from './strings.js';
import { language } from '../common/i18n.js';

export function renderJoin() {
  const table = store.table;
  const url = table.join_url || `${location.protocol}//${location.host}/`;
  setText($('#join-title'), t('join_title'));
  if ($('#qr').alt !== t('qr_alt')) $('#qr').alt = t('qr_alt');
  setText($('#join-url'), url.replace(/^https?:\/\//, '').replace(/\/$/, ''));
  setText($('#join-mdns'), table.mdns_name ? `${t('join_or')} ${table.mdns_name}` : '');
  setText($('#spectator'), isHost() ? '' : t('spectator'));
  const rules = $('#join-rules');
  if (rules.getAttribute('href') !== rulesHref()) rules.href = rulesHref();
  setText(rules, t('rules_link'));
}

// The rules, served by the host at /rules, in the screen's language.
export const rulesHref = () => `/rules?lang=${document.documentElement.lang || 'en'}`;

function howto(node) {
  const box = el('div', 'howto');
  box.append(el('h2', 'howto-title', t('howto_title')));
  const list = el('ol');
  for (const k of ['howto_1', 'howto_2', 'howto_3', 'howto_4']) {
    const li = el('li');
    li.innerHTML = t(k); // our own fixed strings, never user text
    list.append(li);
  }
  box.append(list);
  node.append(box);
}

// --- the attract loop -------------------------------------------------------------------------------------
let createAttract = null; // the module's factory, once loaded (null: not there, the how-to stands in)
let loading = null;
let loop = null; // {loop, mode: 'lobby' | 'replay'}
let skipped = false; // the lobby's loop was skipped: the how-to stands in until the next lobby
let onChange = () => {};
let settle = 0;

export function loadAttract(onReady) {
  onChange = onReady;
  if (!loading) {
    loading = import('./attract.js')
      .then((m) => { createAttract = m.createAttract || null; })
      .catch(() => { createAttract = null; })
      .then(() => onReady());
  }
  return loading;
}

export const hasAttract = () => !!createAttract;

export function lobbyMiddle(lang) {
  if (createAttract && !skipped) return null; // the loop plays in its own box (#attract)
  return { sig: `lobby|${lang}|${store.view.seat_count}`, draw: howto };
}

// The loop sizes itself from its box as the window sees it, so its box lives outside the scaled stage (#root),
// placed over the table: in the lobby, the largest rectangle of the table's middle that no seat plate nor lobby
// control covers (largest for the loop: the one it can draw biggest in, a 600×440 shape); over the whole table
// for a replay.
const CLEAR = '.seat, #start-slot > *, #corner > *, #host-bar > *';
const LOOP_SHAPE = { w: 600, h: 440 };
export function placeAttract() {
  const root = $('#attract');
  if (!loop) return;
  const t = $('#table').getBoundingClientRect();
  const m = Math.min(t.width, t.height) * 0.02;
  let box = { left: t.left + m, top: t.top + m, right: t.right - m, bottom: t.bottom - m };
  if (loop.mode !== 'replay') box = clearBox(box, 10 * stageScale());
  root.style.left = `${box.left}px`;
  root.style.top = `${box.top}px`;
  root.style.width = `${Math.max(0, box.right - box.left)}px`;
  root.style.height = `${Math.max(0, box.bottom - box.top)}px`;
}

// Every rectangle whose edges are the area's or an obstacle's is tried (a dozen obstacles at most: a few
// thousand candidates); the one that fits the loop's shape at the largest scale wins, then the larger.
function clearBox(area, gap) {
  const obstacles = [];
  for (const e of document.querySelectorAll(CLEAR)) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || e.closest('#attract')) continue;
    const o = { left: r.left - gap, top: r.top - gap, right: r.right + gap, bottom: r.bottom + gap };
    if (o.left < area.right && o.right > area.left && o.top < area.bottom && o.bottom > area.top) obstacles.push(o);
  }
  const within = (v, lo, hi) => v >= lo && v <= hi;
  const lefts = [area.left, ...obstacles.map((o) => o.right).filter((v) => within(v, area.left, area.right))];
  const rights = [area.right, ...obstacles.map((o) => o.left).filter((v) => within(v, area.left, area.right))];
  const tops = [area.top, ...obstacles.map((o) => o.bottom).filter((v) => within(v, area.top, area.bottom))];
  const bottoms = [area.bottom, ...obstacles.map((o) => o.top).filter((v) => within(v, area.top, area.bottom))];
  let best = null;
  let bestScore = [-1, -1];
  for (const left of lefts) for (const right of rights) {
    if (right <= left) continue;
    for (const top of tops) for (const bottom of bottoms) {
      if (bottom <= top) continue;
      const w = right - left;
      const h = bottom - top;
      const score = [Math.min(w / LOOP_SHAPE.w, h / LOOP_SHAPE.h), w * h];
      if (score[0] < bestScore[0] || (score[0] === bestScore[0] && score[1] <= bestScore[1])) continue;
      if (obstacles.some((o) => o.left < right && o.right > left && o.top < bottom && o.bottom > top)) continue;
      best = { left, top, right, bottom };
      bestScore = score;
    }
  }
  return best || { left: area.left, top: area.top, right: area.left, bottom: area.top };
}

function start(mode) {
  const root = $('#attract');
  stopAttract();
  root.hidden = false;
  root.className = mode;
  loop = { loop: null, mode };
  placeAttract();
  const inner = el('div', 'attract-root');
  root.append(inner);
  const onEnd = () => {
    stopAttract();
    if (mode === 'lobby') { skipped = true; onChange(); }
  };
  const l = createAttract(inner, { lang: language(), onEnd, timing, names: seatedNames });
  loop.loop = l;
  l.start();
}

export function stopAttract() {
  const root = $('#attract');
  if (loop && loop.loop) { try { loop.loop.stop(); } catch { /* already stopped */ } }
  loop = null;
  root.replaceChildren();
  root.hidden = true;
}

// In the lobby the loop plays by itself; elsewhere only when asked (replay), and a replay ends with its phase.
export function renderAttract(phaseChanged) {
  if (!createAttract) return;
  const lobby = store.view.phase === 'lobby';
  if (!lobby) skipped = false;
  if (lobby && !skipped && (!loop || loop.mode !== 'lobby')) start('lobby');
  else if (!lobby && loop && (loop.mode === 'lobby' || phaseChanged)) stopAttract();
  if (loop && loop.loop && loop.loop.setNames) loop.loop.setNames(); // a new player's name: never the example's
  placeAttract();
  clearTimeout(settle);
  settle = setTimeout(placeAttract, 700); // once the plates have finished moving to their places
}

// The players seated now: the loop's example players never bear their names.
const seatedNames = () => (store.view ? store.view.seats.filter((s) => s.kind !== 'empty').map((s) => s.name) : []);

export function replayAttract() {
  if (createAttract) start('replay');
}

export function attractLang(lang) {
  if (loop && loop.loop) { try { loop.loop.setLang(lang); } catch { /* an older module */ } }
}

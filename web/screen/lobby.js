// The lobby: the QR code is the hero, the join URL under it, the seats fill in live; in the middle of the
// table the attract loop (the teaching module's scripted round, when it is there; else a short "how to play"),
// and a link to the rules. The same loop can be replayed over the table at any pause.
import { $, el, setText } from './dom.js';
import { store, isHost, timing } from './state.js';
import { stageScale } from './layout.js';
import { t } from './strings.js';

export function renderJoin() {
  const table = store.table;
  const url = table.join_url || `${location.protocol}//${location.host}/`;
  setText($('#join-title'), t('join_title'));
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
// placed over the table: in the lobby, the table's middle that no seat plate nor lobby control covers (the
// box shrinks away from each plate it meets, on the side that costs it least); over the whole table for a replay.
const CLEAR = '.seat, #start-slot > *, #corner > *, #host-bar > *';
export function placeAttract() {
  const root = $('#attract');
  if (!loop) return;
  const t = $('#table').getBoundingClientRect();
  const m = Math.min(t.width, t.height) * 0.02;
  const box = { left: t.left + m, top: t.top + m, right: t.right - m, bottom: t.bottom - m };
  if (loop.mode !== 'replay') {
    const gap = 10 * stageScale();
    for (const e of document.querySelectorAll(CLEAR)) {
      const r = e.getBoundingClientRect();
      if (!r.width || !r.height || e.closest('#attract')) continue;
      const o = { left: r.left - gap, top: r.top - gap, right: r.right + gap, bottom: r.bottom + gap };
      if (o.left >= box.right || o.right <= box.left || o.top >= box.bottom || o.bottom <= box.top) continue;
      const w = box.right - box.left;
      const h = box.bottom - box.top;
      // the area kept by each way out: above, below, left or right of the plate
      const ways = [
        ['top', (box.bottom - o.bottom) * w, o.bottom], ['bottom', (o.top - box.top) * w, o.top],
        ['left', (box.right - o.right) * h, o.right], ['right', (o.left - box.left) * h, o.left],
      ].sort((a, b) => b[1] - a[1]);
      box[ways[0][0]] = ways[0][2];
    }
  }
  root.style.left = `${box.left}px`;
  root.style.top = `${box.top}px`;
  root.style.width = `${Math.max(0, box.right - box.left)}px`;
  root.style.height = `${Math.max(0, box.bottom - box.top)}px`;
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
  const l = createAttract(inner, { lang: document.documentElement.lang === 'fr' ? 'fr' : 'en', onEnd, timing });
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
  placeAttract();
  clearTimeout(settle);
  settle = setTimeout(placeAttract, 700); // once the plates have finished moving to their places
}

export function replayAttract() {
  if (createAttract) start('replay');
}

export function attractLang(lang) {
  if (loop && loop.loop) { try { loop.loop.setLang(lang); } catch { /* an older module */ } }
}

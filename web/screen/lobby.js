// The lobby: the QR code is the hero, the join URL under it, the seats fill in live; in the middle of the
// table the attract loop (the teaching module's scripted round, when it is there; else a short "how to play"),
// and a link to the rules. The same loop can be replayed over the table at any pause.
import { $, el, setText } from './dom.js';
import { store, isHost } from './state.js';
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
// placed over the table: inside the ring of seats in the lobby, over the whole table for a replay.
const REGION = {
  lobby: { 4: [0.17, 0.19, 0.17, 0.19], 6: [0.25, 0.2, 0.25, 0.2], 8: [0.3, 0.25, 0.3, 0.28] },
  replay: [0.02, 0.02, 0.02, 0.02],
};
export function placeAttract() {
  const root = $('#attract');
  if (!loop) return;
  const r = $('#table').getBoundingClientRect();
  const [l, tp, rt, b] = loop.mode === 'replay' ? REGION.replay : REGION.lobby[store.view.seat_count] || REGION.lobby[8];
  root.style.left = `${r.left + r.width * l}px`;
  root.style.top = `${r.top + r.height * tp}px`;
  root.style.width = `${r.width * (1 - l - rt)}px`;
  root.style.height = `${r.height * (1 - tp - b)}px`;
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
  const l = createAttract(inner, { lang: document.documentElement.lang === 'fr' ? 'fr' : 'en', onEnd });
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
}

export function replayAttract() {
  if (createAttract) start('replay');
}

export function attractLang(lang) {
  if (loop && loop.loop) { try { loop.loop.setLang(lang); } catch { /* an older module */ } }
}

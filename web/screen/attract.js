// The TV's attract loop: while people join, a round is played out on a little table, with real cards and emojis
// moving, so that the room learns the game by watching rather than reading.
//
//   import { createAttract } from './screen/attract.js';
//   const loop = createAttract(root, { lang: 'en', reducedMotion, onEnd, timing });
//   loop.start();          // from the first scene (start('contre') starts at a named scene; see SCENES)
//   loop.setLang('fr');    // captions and labels switch at once; the scene goes on
//   loop.stop();           // stops every timer and animation and empties `root`
//
// `root` is a positioned element (position: relative/absolute) filling the table area; the loop draws only
// inside it and sizes itself to it (it follows resizes). `lang` is 'en' or 'fr'. `reducedMotion` defaults to the
// `prefers-reduced-motion` media query: then nothing moves, scales or turns: every change is a fade (no CSS
// transform anywhere). `onEnd()` is called when the viewer presses the visible "Skip" button (after stop()); the
// loop itself never ends: after the last scene it starts again. `speed` (default 1) runs the whole loop faster
// (tests, previews). `timing` is the view's timing (or a function returning the current one): its `emission_period` is the one the
// captions say and the pace at which the demonstrated channel flashes. The module needs no server: it is a
// scripted round, not a game; its stylesheet (attract.css, beside it) is linked into the document on first use.
//
// The story (about 80 s): partners sit opposite; everybody swaps with the centre; Ana builds a carré; she takes
// her channel and flashes Blue's sign, which everybody sees; her partner Chloé holds Quatro!; the reveal. Next
// round Bruno's sign is cracked by Ana's Contre!; then Bruno flashes a decoy and Ana's false Contre! gives
// Orange the point. Then one line on how the game ends, and again.

import { TEAM_SHAPES, TEAM_NAMES, SUIT_RED } from '../common/teams.js';

const TEXT = {
  en: {
    title: 'How a round goes',
    skip: 'Skip',
    skip_label: 'Skip the demonstration',
    phone_of: ({ name }) => `${name}’s phone`,
    intro: 'Teams of two, partners opposite: Ana and Chloé are Blue ●, Bruno and Dev are Orange ▲.',
    swap: 'No turns: everybody swaps a card with the centre at once. Ana collects kings…',
    carre: 'Four kings: a carré! But Ana must not say it: her partner has to.',
    channel: ({ period }) => `Ana takes her channel and picks 🦊, Blue’s secret sign. It flashes every ${period} s.`,
    everybody: 'Everybody sees 🦊. Only Chloé knows that 🦊 means “I have a carré”.',
    quatro: 'Chloé holds Quatro! Quatro looks at her partner’s hand, never her own.',
    reveal_quatro: 'One call ends the round. Hands up: Ana has the carré. Blue ● scores 1.',
    round2: 'A new round, new signs. Bruno collects queens…',
    crack: 'Bruno flashes 🐙 right after his last swap. Ana thinks she has cracked Orange’s sign…',
    contre: 'Ana calls Contre! on Orange ▲: she says one of them holds a carré.',
    reveal_contre: 'Right: Bruno has four queens, so Blue ● scores 1.',
    round3: 'Decoys are allowed. Bruno has no carré, yet he flashes 🎸…',
    bait: 'Ana falls for it and calls Contre! on Orange ▲.',
    reveal_decoy: 'No carré in Orange: a wrong Contre gives the point to the accused team, Orange ▲.',
    outro: 'First team to 5 points wins. Scan the code with your phone to play!',
  },
  fr: {
    title: 'Comment se joue une manche',
    skip: 'Passer',
    skip_label: 'Passer la démonstration',
    phone_of: ({ name }) => `Le téléphone ${/^[AEIOUYÉÈaeiouyéè]/.test(name) ? 'd’' : 'de '}${name}`,
    intro: 'Équipes de deux, face à face : Ana et Chloé sont les Bleus ●, Bruno et Dev les Orange ▲.',
    swap: 'Pas de tour : tous échangent avec le centre en même temps. Ana collectionne les rois…',
    carre: 'Quatre rois : un carré ! Mais Ana ne doit pas le dire : c’est à son partenaire de l’annoncer.',
    channel: ({ period }) => `Ana prend la main et choisit 🦊, le signe secret des Bleus. Il clignote toutes les ${period} s.`,
    everybody: 'Tout le monde voit 🦊. Seule Chloé sait que 🦊 veut dire « j’ai un carré ».',
    quatro: 'Chloé maintient Quatro ! Quatro regarde la main de sa partenaire, jamais la sienne.',
    reveal_quatro: 'Une annonce finit la manche. On retourne les mains : Ana a le carré. Bleus ● +1.',
    round2: 'Nouvelle manche, nouveaux signes. Bruno collectionne les dames…',
    crack: 'Bruno fait 🐙 juste après son dernier échange. Ana pense avoir percé le signe des Orange…',
    contre: 'Ana annonce Contre ! contre les Orange ▲ : selon elle, l’un des deux a un carré.',
    reveal_contre: 'Gagné : Bruno a quatre dames, les Bleus ● marquent 1 point.',
    round3: 'Les leurres sont permis. Bruno n’a pas de carré, et pourtant il fait 🎸…',
    bait: 'Ana tombe dans le piège et annonce Contre ! contre les Orange ▲.',
    reveal_decoy: 'Pas de carré chez les Orange : un Contre faux donne le point aux accusés, les Orange ▲.',
    outro: 'La première équipe à 5 points gagne. Scanne le code avec ton téléphone pour jouer !',
  },
};

const CALLS = { en: { quatro: 'Quatro!', contre: 'Contre!' }, fr: { quatro: 'Quatro !', contre: 'Contre !' } };

const NAMES = ['Ana', 'Bruno', 'Chloé', 'Dev'];
const TEAM_OF = [0, 1, 0, 1]; // R2: seats 0 and 2, 1 and 3

// Three scripted deals of a 4-seat table (R4: A K Q J 10, 20 cards; R6: no hand dealt three of a rank).
const DEALS = [
  { hands: [['K♠', 'K♥', '10♣', 'J♦'], ['Q♠', 'Q♥', 'A♣', '10♥'], ['A♠', 'J♠', '10♠', 'Q♦'], ['J♥', 'A♥', '10♦', 'Q♣']],
    centre: ['K♦', 'J♣', 'A♦', 'K♣'], signs: ['🦊', '🌵'] },
  { hands: [['A♠', 'J♥', '10♦', 'K♣'], ['Q♠', 'Q♥', 'J♣', 'A♦'], ['K♠', '10♠', 'A♣', 'J♦'], ['K♥', '10♥', 'J♠', 'A♥']],
    centre: ['Q♦', 'K♦', 'Q♣', '10♣'], signs: ['🍉', '🐙'] },
  { hands: [['K♠', 'K♥', 'J♦', '10♣'], ['A♠', 'A♥', 'Q♣', 'J♠'], ['Q♠', '10♥', 'J♣', 'A♦'], ['Q♥', '10♠', 'K♦', 'J♥']],
    centre: ['A♣', 'Q♦', 'K♣', '10♦'], signs: ['🍄', '🚀'] },
];

// Scenes: [name, duration in ms (or a function of the emission period in ms), function(scene) scheduling its
// steps]. Each starts from a complete state, so start(name) can open at any scene.
const SCENES = [
  ['intro', 8000, (s) => {
    s.state({ deal: 0, scores: [0, 0] });
    s.caption('intro');
    s.at(1200, () => s.partners(true));
    s.at(6800, () => s.partners(false));
  }],
  ['swap', 12000, (s) => {
    s.state({ deal: 0, scores: [0, 0], focus: 0 });
    s.caption('swap');
    s.at(1400, () => s.swap(0, '10♣', 0));
    s.at(3600, () => s.swap(3, '10♦', 1));
    s.at(6200, () => s.swap(0, 'J♦', 3));
    s.at(7200, () => { s.carre(0, true); s.caption('carre'); });
  }],
  // A held channel flashes once per emission period (R18): the flashes keep the view's pace, and the scene lasts
  // long enough to show a second one however long the host made the period.
  ['channel', (period) => Math.max(11000, 2200 + period + 2000), (s) => {
    s.state({ deal: 0, swaps: [[0, '10♣', 0], [3, '10♦', 1], [0, 'J♦', 3]], scores: [0, 0], focus: 0, carre: [0] });
    s.caption('channel');
    s.at(900, () => s.lamp(0, true));
    for (let at = 2200; at === 2200 || at <= s.length - 1700; at += s.period) s.at(at, () => s.burst(0, '🦊'));
    s.at(5200, () => s.caption('everybody'));
  }],
  ['quatro', 6500, (s) => {
    s.state({ deal: 0, swaps: [[0, '10♣', 0], [3, '10♦', 1], [0, 'J♦', 3]], scores: [0, 0], focus: 2, carre: [0],
      lamps: [[0, '🦊']] });
    s.caption('quatro');
    s.at(700, () => s.call(2, 'quatro'));
  }],
  ['reveal', 8000, (s) => {
    s.state({ deal: 0, swaps: [[0, '10♣', 0], [3, '10♦', 1], [0, 'J♦', 3]], scores: [0, 0], carre: [0],
      called: [2, 'quatro'] });
    s.caption('reveal_quatro');
    s.at(500, () => s.reveal());
    s.at(1800, () => s.score(0));
  }],
  ['round2', 11000, (s) => {
    s.state({ deal: 1, scores: [1, 0], focus: 1 });
    s.caption('round2');
    s.at(1500, () => s.swap(1, 'J♣', 0));
    s.at(4200, () => s.swap(1, 'A♦', 2));
    s.at(5000, () => s.carre(1, true));
    s.at(6500, () => { s.lamp(1, true); s.caption('crack'); });
    s.at(7400, () => s.burst(1, '🐙'));
  }],
  ['contre', 11000, (s) => {
    s.state({ deal: 1, swaps: [[1, 'J♣', 0], [1, 'A♦', 2]], scores: [1, 0], carre: [1], lamps: [[1, '🐙']], focus: 0 });
    s.caption('contre');
    s.at(600, () => s.call(0, 'contre', 1));
    s.at(3600, () => { s.reveal(); s.caption('reveal_contre'); });
    s.at(5000, () => s.score(0));
  }],
  ['decoy', 14000, (s) => {
    s.state({ deal: 2, scores: [2, 0], focus: 1 });
    s.caption('round3');
    s.at(1400, () => s.swap(1, 'Q♣', 0));
    s.at(3600, () => s.lamp(1, true));
    s.at(4600, () => s.burst(1, '🎸'));
    s.at(7400, () => { s.caption('bait'); s.call(0, 'contre', 1); });
    s.at(9800, () => { s.reveal(); s.caption('reveal_decoy'); });
    s.at(11200, () => s.score(1));
  }],
  ['outro', 6500, (s) => {
    s.state({ deal: 2, swaps: [[1, 'Q♣', 0]], scores: [2, 1] });
    s.caption('outro');
  }],
];

// Two layouts, each designed at a base size and scaled to the root's size: `full` for a root as large as the
// TV's table area (a little table of its own, felt included), `compact` for a box between the TV's own seat
// plates (about 700×490 at 1920×1080: no felt, it lies on the TV's; fewer, larger words). `tableH` is the least
// height the table above the caption band takes at scale 1 (compact: the phone tag sits beside a hand, not
// between it and the centre, so the table packs tighter).
const LAYOUTS = {
  full: {
    baseW: 1300, baseH: 900, tableH: 772, captionFont: 30, titleFont: 26, titleW: 330,
    mini: { w: 58, h: 82, gap: 6 }, big: { w: 112, h: 160, gap: 18 },
    plate: { w: 250, h: 92 }, plateTop: 64, plateBottom: 54, plateSide: 150, handGap: 12,
    burst: 220, bubble: { w: 230, h: 70 }, badge: 68, phone: { w: 300, h: 30, gap: 20 },
  },
  compact: {
    baseW: 600, baseH: 440, tableH: 310, captionFont: 21, titleFont: 16, titleW: 200,
    mini: { w: 30, h: 42, gap: 4 }, big: { w: 58, h: 82, gap: 8 },
    plate: { w: 150, h: 46 }, plateTop: 26, plateBottom: 26, plateSide: 80, handGap: 6,
    burst: 110, bubble: { w: 140, h: 42 }, badge: 40, phone: { w: 190, h: 22, gap: 12 },
  },
};
// Below this root size the compact layout reads better than the full one shrunk. The size is in pixels of a
// 1920×1080 window: the TV page scales itself to the window, so a box is small or large relative to it (the
// same box is 600 px wide at 1080p and 1200 px at 4K, and must get the same layout).
const COMPACT_BELOW = { w: 900, h: 650 };
const WINDOW = { w: 1920, h: 1080 };
// The caption is what the room reads, from a sofa 3 m away: never smaller than this share of the window's height,
// however small the box. The band grows to hold it and the little table shrinks instead.
const CAPTION_LEAST = 0.025;
// The title, too, is read from the sofa: never smaller than this share of the window's height. It alone grows
// (not the little table), wrapping in the corner left of the top plate. The score chips ride in the caption
// band, in proportion to the sentence (attract.css), so they share its least size.
const TITLE_LEAST = 0.022;
// Those shares are of the stage's height in window pixels: the window's, or on a window taller than 16:9 (4:3,
// 5:4, 16:10) the 16:9 height of its width, since the stage is width-bound there (layout.js) and the same width
// holds the same words.
const stageHeight = () => Math.min(window.innerHeight, (window.innerWidth * WINDOW.h) / WINDOW.w);
// Every sentence the band shows: the band is as tall as the tallest needs, so the table never jumps between scenes.
const CAPTIONS = ['intro', 'swap', 'carre', 'channel', 'everybody', 'quatro', 'reveal_quatro', 'round2', 'crack',
  'contre', 'reveal_contre', 'round3', 'bait', 'reveal_decoy', 'outro'];

// The stylesheet, linked once; `onLoad` runs when it applies (at once if it already does): what was measured
// before it did (the caption band) must be measured again.
let styles = null;
function ensureStyles(onLoad) {
  const href = new URL('./attract.css', import.meta.url).href;
  if (!styles) {
    styles = [...document.querySelectorAll('link[rel="stylesheet"]')].find((l) => l.href === href);
    if (styles && styles.sheet) styles.loaded = Promise.resolve();
  }
  if (!styles) {
    styles = document.createElement('link');
    styles.rel = 'stylesheet';
    styles.href = href;
  }
  if (!styles.loaded) {
    styles.loaded = new Promise((resolve) => {
      styles.addEventListener('load', resolve, { once: true });
      styles.addEventListener('error', resolve, { once: true });
    });
    if (!styles.isConnected) document.head.append(styles);
  }
  styles.loaded.then(onLoad);
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function rankOf(card) { return card.slice(0, -1); }
function suitOf(card) { return card.slice(-1); }

export function createAttract(root, { lang = 'en', reducedMotion, onEnd, speed = 1, timing = {} } = {}) {
  // The table's own emission period, read from the view's timing each time it is shown (the host may relax the
  // timers while the loop plays); the rules' default only for a caller with no view at all (a preview).
  const timingNow = typeof timing === 'function' ? timing : () => timing;
  const periodMs = () => {
    const p = Number((timingNow() || {}).emission_period);
    return p > 0 ? p * 1000 : 5000;
  };
  // "2.5" in English, "2,5" in French; never rounded to a number the table does not use
  const periodText = () => String(Number((periodMs() / 1000).toFixed(2))).replace('.', current === 'fr' ? ',' : '.');
  const reduced = reducedMotion ?? (typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches);
  let current = lang === 'fr' ? 'fr' : 'en';
  let running = false;
  let timers = new Set();
  let box = null; // the loop's own element inside root
  let parts = {};
  let model = null; // what is on the table now
  let captionKey = null;
  let sceneIndex = 0;
  let resizer = null;
  let bandFit = { key: '', h: 0 }; // the band's height for a language, caption size and width

  const tr = (key, vars = {}) => {
    const s = (TEXT[current] || TEXT.en)[key];
    return typeof s === 'function' ? s({ period: periodText(), ...vars }) : s;
  };

  function after(ms, fn) {
    const id = setTimeout(() => {
      timers.delete(id);
      if (running) fn();
    }, ms / speed);
    timers.add(id);
  }

  // The caption's size first (the layout's own, or the readable least), then the band it needs, then the scale
  // of the little table in what is left above it.
  function scale() {
    const r = root.getBoundingClientRect();
    const k = Math.min(window.innerWidth / WINDOW.w, window.innerHeight / WINDOW.h) || 1;
    const L = r.width < COMPACT_BELOW.w * k || r.height < COMPACT_BELOW.h * k ? LAYOUTS.compact : LAYOUTS.full;
    const s0 = Math.min(r.width / L.baseW, r.height / L.baseH) || 1;
    const font = Math.max(L.captionFont * s0, CAPTION_LEAST * stageHeight());
    const margin = L === LAYOUTS.full ? { side: 20 * s0, bottom: 8 * s0 } : { side: 0, bottom: 0 };
    const bandH = bandHeight(font, r.width, margin.side);
    const T = r.height - bandH - margin.bottom;
    const s = Math.min(r.width / L.baseW, T / L.tableH) || 1;
    return { W: r.width, H: r.height, T, L, s, font, bandH, margin };
  }

  // The tallest of the language's sentences at this size and width (measured in the band itself, once per change).
  function bandHeight(font, width, side) {
    const b = parts.band;
    if (!b) return 0;
    const key = `${current}|${font.toFixed(2)}|${Math.round(width - 2 * side)}|${periodText()}`;
    if (bandFit.key === key) return bandFit.h;
    const c = parts.caption;
    const shown = c.textContent;
    b.style.fontSize = `${font}px`;
    b.style.left = b.style.right = `${side}px`;
    b.style.height = 'auto';
    let h = 0;
    for (const k of CAPTIONS) {
      c.textContent = tr(k);
      h = Math.max(h, b.offsetHeight);
    }
    c.textContent = shown;
    bandFit = { key, h };
    return h;
  }

  // --- geometry -------------------------------------------------------------------------------------------
  function geometry() {
    const { W, H, T, L, s, font, bandH, margin } = scale(); // T: the table's height, above the caption band
    const P = L.plate;
    const plate = [
      { x: W / 2, y: T - L.plateBottom * s }, { x: L.plateSide * s, y: T / 2 },
      { x: W / 2, y: L.plateTop * s }, { x: W - L.plateSide * s, y: T / 2 },
    ];
    const off = (P.h / 2 + L.handGap + L.mini.h / 2) * s; // plate centre to hand centre
    const handY = [plate[0].y - off, T / 2 + off, plate[2].y + off, T / 2 + off];
    const hand = (seat, slot) => ({
      x: plate[seat].x + (slot - 1.5) * (L.mini.w + L.mini.gap) * s, y: handY[seat], w: L.mini.w * s, h: L.mini.h * s,
    });
    const place = (i) => ({
      x: W / 2 + (i - 1.5) * (L.big.w + L.big.gap) * s, y: T / 2, w: L.big.w * s, h: L.big.h * s,
    });
    // an emission bursts beside the seat's hand (full) or over it (compact: no room beside)
    const burst = L === LAYOUTS.full
      ? [{ x: W / 2 - 275 * s, y: handY[0] - 10 * s }, { x: 320 * s, y: T / 2 - 150 * s },
        { x: W / 2 + 275 * s, y: handY[2] + 10 * s }, { x: W - 320 * s, y: T / 2 - 150 * s }]
      : [0, 1, 2, 3].map((seat) => ({ x: plate[seat].x, y: handY[seat] }));
    const beside = (P.w / 2 + L.bubble.w / 2 + 12) * s;
    const above = (P.h / 2 + L.bubble.h / 2 + 8) * s;
    const bubble = [
      { x: W / 2 + beside, y: plate[0].y }, { x: plate[1].x, y: T / 2 - above },
      // compact: beside the top hand, not the top plate, which shares its height with Skip
      { x: W / 2 + beside, y: L === LAYOUTS.full ? plate[2].y : handY[2] }, { x: plate[3].x, y: T / 2 - above },
    ];
    return { W, H, T, s, L, plate, hand, place, burst, bubble, font, bandH, margin };
  }

  function put(node, x, y, w, h) {
    // left/top only (never a transform): the reduced-motion loop must use none
    node.style.left = `${x - w / 2}px`;
    node.style.top = `${y - h / 2}px`;
    node.style.width = `${w}px`;
    node.style.height = `${h}px`;
  }

  // --- drawing --------------------------------------------------------------------------------------------
  function build() {
    box = el('div', 'attract' + (reduced ? ' reduced' : ''));
    box.setAttribute('role', 'region');
    box.dataset.testid = 'attract';
    const felt = el('div', 'att-felt');
    const seats = el('div', 'att-layer');
    const cards = el('div', 'att-layer');
    const fx = el('div', 'att-layer att-fx');
    const top = el('div', 'att-top');
    const title = el('div', 'att-title');
    const scores = el('div', 'att-scores');
    top.append(title);
    const skip = el('button', 'att-skip');
    skip.type = 'button';
    skip.addEventListener('click', () => {
      api.stop();
      if (onEnd) onEnd();
    });
    const band = el('div', 'att-band');
    const caption = el('p', 'att-caption');
    caption.setAttribute('aria-live', 'polite');
    const dots = el('div', 'att-dots');
    SCENES.forEach(() => dots.append(el('span', 'att-dot')));
    const foot = el('div', 'att-foot');
    foot.append(scores, dots);
    band.append(caption, foot);
    box.append(felt, seats, cards, fx, top, skip, band);
    root.append(box);
    parts = { felt, seats, cards, fx, top, title, scores, skip, band, caption, dots, plates: [], cardEls: new Map() };
    // a late font (the emoji's) re-wraps the sentences: measure the band again
    if (document.fonts && document.fonts.addEventListener) {
      parts.fontWatch = () => { bandFit = { key: '', h: 0 }; layout(false); };
      document.fonts.addEventListener('loadingdone', parts.fontWatch);
    }
    for (let seat = 0; seat < 4; seat++) {
      const p = el('div', `att-plate team-${TEAM_OF[seat]}`);
      p.dataset.seat = String(seat);
      const head = el('div', 'att-plate-head');
      head.append(el('span', 'att-shape', TEAM_SHAPES[TEAM_OF[seat]]), el('span', 'att-name', NAMES[seat]));
      const lamp = el('span', 'att-lamp');
      head.append(lamp);
      const team = el('div', 'att-team');
      p.append(head, team);
      seats.append(p);
      parts.plates.push({ p, lamp, team });
    }
    parts.phone = el('div', 'att-phone');
    seats.append(parts.phone);
  }

  function cardNode(card) {
    let node = parts.cardEls.get(card);
    if (node) return node;
    node = el('div', 'att-card' + (SUIT_RED.has(suitOf(card)) ? ' red' : ''));
    node.dataset.card = card;
    const face = el('div', 'att-face');
    face.append(el('span', 'att-rank', rankOf(card)), el('span', 'att-suit', suitOf(card)));
    node.append(face, el('div', 'att-back'));
    parts.cards.append(node);
    parts.cardEls.set(card, node);
    return node;
  }

  function texts() {
    if (!box) return;
    box.lang = current;
    parts.title.textContent = tr('title');
    parts.skip.textContent = `${tr('skip')} ⏭`;
    parts.skip.setAttribute('aria-label', tr('skip_label'));
    parts.plates.forEach(({ team }, seat) => {
      const t = TEAM_OF[seat];
      team.replaceChildren(`${TEAM_NAMES[current][t]} `, el('span', 'att-shape', TEAM_SHAPES[t]));
    });
    if (model) {
      parts.scores.replaceChildren(...model.scores.map((n, t) => {
        const chip = el('span', `att-score team-${t}`);
        chip.append(el('span', 'att-shape', TEAM_SHAPES[t]), el('span', 'att-tname', TEAM_NAMES[current][t]),
          el('b', 'att-points', String(n)));
        return chip;
      }));
      if (model.focus != null) parts.phone.textContent = `📱 ${tr('phone_of', { name: NAMES[model.focus] })}`;
      box.querySelectorAll('.att-bubble').forEach((b) => { b.textContent = callText(b.dataset.call, Number(b.dataset.team)); });
    }
    if (captionKey) parts.caption.textContent = tr(captionKey);
    layout(false); // another language, other sentences: the band may change height
  }

  function callText(kind, team) {
    const word = CALLS[current][kind];
    return kind === 'contre' && team >= 0 ? `${word} ${TEAM_SHAPES[team]}` : word;
  }

  function layout(animate = false) {
    if (!box || !model) return;
    const g = geometry();
    const { L } = g;
    box.style.setProperty('--s', String(g.s));
    box.classList.toggle('compact', L === LAYOUTS.compact);
    // the title at its readable least, in the corner left of the top plate (as wide as that corner allows)
    const ts = Math.max(g.s, (TITLE_LEAST * stageHeight()) / L.titleFont);
    parts.top.style.setProperty('--s', String(ts));
    const corner = g.W / 2 - (L.plate.w / 2 + 8) * g.s - parts.top.offsetLeft;
    parts.title.style.maxWidth = `${Math.max(0, Math.min(L.titleW * ts, corner))}px`;
    Object.assign(parts.band.style, {
      fontSize: `${g.font}px`, height: `${g.bandH}px`, left: `${g.margin.side}px`, right: `${g.margin.side}px`,
      bottom: `${g.margin.bottom}px`,
    });
    put(parts.felt, g.W / 2, g.T / 2, g.W - 40 * g.s, g.T - 16 * g.s);
    parts.plates.forEach(({ p }, seat) => put(p, g.plate[seat].x, g.plate[seat].y, L.plate.w * g.s, L.plate.h * g.s));
    const moves = [];
    model.hands.forEach((hand, seat) => hand.forEach((card, slot) => moves.push([card, g.hand(seat, slot), seat])));
    model.centre.forEach((card, i) => moves.push([card, g.place(i), null]));
    for (const [card, r, seat] of moves) {
      const node = cardNode(card);
      const before = animate ? node.getBoundingClientRect() : null;
      put(node, r.x, r.y, r.w, r.h);
      node.classList.toggle('big', seat === null);
      const up = seat === null || model.revealed || model.focus === seat;
      node.classList.toggle('down', !up);
      node.classList.toggle('carre', seat !== null && model.carre.has(seat));
      if (before && before.width && !reduced) {
        const after = node.getBoundingClientRect();
        const dx = before.left + before.width / 2 - (after.left + after.width / 2);
        const dy = before.top + before.height / 2 - (after.top + after.height / 2);
        if (Math.abs(dx) + Math.abs(dy) > 1) {
          node.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${before.width / after.width})` },
            { transform: 'none' }], { duration: 650 / Math.sqrt(speed), easing: 'cubic-bezier(.2,.7,.2,1)' });
        }
      }
    }
    if (model.focus != null) {
      const r = g.hand(model.focus, 1.5);
      const below = model.focus === 0 ? -1 : 1;
      const w = L.phone.w * g.s;
      const h = L.phone.h * g.s;
      if (L === LAYOUTS.compact && model.focus % 2 === 0) {
        // left of the bottom plate, or of the top hand (the top plate's row is the title's and Skip's), under
        // the title block however many lines the language gives it
        const half = model.focus === 0 ? L.plate.w / 2 : 2 * (L.mini.w + L.mini.gap);
        const title = parts.top.offsetTop + parts.top.offsetHeight + (L.phone.gap * g.s) / 2 + h / 2;
        const y = model.focus === 0 ? g.plate[0].y : Math.max(r.y, title);
        let x = r.x - (half + L.phone.gap) * g.s - w / 2;
        // a title the language wraps on three lines pushes the tag down beside the centre cards: left of them
        const centre = g.place(0);
        if (y + h / 2 > centre.y - centre.h / 2 - (L.phone.gap * g.s) / 2) {
          x = Math.min(x, centre.x - centre.w / 2 - (L.phone.gap * g.s) / 2 - w / 2);
        }
        put(parts.phone, Math.max(x, w / 2 + 2), y, w, h);
      } else {
        const x = Math.min(Math.max(r.x, w / 2 + 2), g.W - w / 2 - 2); // a side seat's tag stays in the box
        put(parts.phone, x, r.y + below * (r.h / 2 + L.phone.gap * g.s), w, h);
      }
      parts.phone.hidden = false;
    } else {
      parts.phone.hidden = true;
    }
    box.querySelectorAll('.att-burst').forEach((b) => {
      const at = g.burst[Number(b.dataset.seat)];
      put(b, at.x, at.y, L.burst * g.s, L.burst * g.s);
    });
    box.querySelectorAll('.att-bubble').forEach((b) => {
      const at = g.bubble[Number(b.dataset.seat)];
      put(b, at.x, at.y, L.bubble.w * g.s, L.bubble.h * g.s);
    });
    box.querySelectorAll('.att-sign').forEach((b) => {
      const seat = Number(b.dataset.seat);
      // on a corner of the plate toward the middle of the table, never off its edge
      const side = seat === 3 ? -1 : 1;
      const up = seat === 2 ? 1 : -1;
      put(b, g.plate[seat].x + side * (L.plate.w / 2 - 6) * g.s, g.plate[seat].y + up * (L.plate.h / 2 - 4) * g.s,
        L.badge * g.s, L.badge * g.s);
    });
  }

  function fade(node, from, to, ms = 450) {
    return node.animate([{ opacity: from }, { opacity: to }], { duration: ms / Math.sqrt(speed), fill: 'forwards' });
  }

  // --- the scene's verbs ----------------------------------------------------------------------------------
  const scene = {
    at: (ms, fn) => after(ms, fn),
    state({ deal, swaps = [], scores, focus = null, carre = [], lamps = [], called = null }) {
      const d = DEALS[deal];
      const fresh = !model || model.deal !== deal;
      model = { deal, hands: d.hands.map((h) => [...h]), centre: [...d.centre], scores: [...scores], focus,
        carre: new Set(carre), revealed: false };
      for (const [seat, card, place] of swaps) swapIn(seat, card, place);
      parts.fx.replaceChildren();
      box.querySelectorAll('.att-sign').forEach((b) => b.remove());
      if (fresh) {
        parts.cardEls.forEach((n) => n.remove());
        parts.cardEls.clear();
      }
      // lamps: [seat, emoji it is flashing] for the channels already held when the scene opens
      parts.plates.forEach(({ p, lamp }, seat) => {
        const held = lamps.find(([s]) => s === seat);
        p.classList.toggle('held', Boolean(held));
        p.classList.remove('partners', 'caller');
        lamp.textContent = held ? held[1] : '';
      });
      if (called) scene.call(called[0], called[1], called[2] ?? -1, true);
      layout(false);
      texts();
      if (fresh) parts.cardEls.forEach((n) => fade(n, 0, 1, 500));
    },
    caption(key) {
      captionKey = key;
      parts.caption.textContent = tr(key);
      parts.caption.dataset.key = key;
      fade(parts.caption, 0, 1, 400);
    },
    partners(on) {
      parts.plates.forEach(({ p }) => p.classList.toggle('partners', on));
    },
    swap(seat, card, place) {
      const took = swapIn(seat, card, place);
      layout(true);
      for (const c of [card, took]) {
        const n = parts.cardEls.get(c);
        if (reduced) fade(n, 0, 1, 500);
        n.classList.add('moved');
        after(1200, () => n.classList.remove('moved'));
      }
      parts.plates[seat].p.classList.add('swapping');
      after(900, () => parts.plates[seat].p.classList.remove('swapping'));
    },
    carre(seat, on) {
      if (on) model.carre.add(seat); else model.carre.delete(seat);
      layout(false);
    },
    lamp(seat, on) {
      parts.plates[seat].p.classList.toggle('held', on);
    },
    burst(seat, emoji) {
      const b = el('div', `att-burst team-${TEAM_OF[seat]}`);
      b.dataset.seat = String(seat);
      b.append(el('span', 'att-ring'), el('span', 'att-emoji emoji', emoji));
      parts.fx.append(b);
      parts.plates[seat].lamp.textContent = emoji;
      layout(false);
      const ms = 1600 / Math.sqrt(speed);
      if (reduced) {
        b.animate([{ opacity: 0 }, { opacity: 1, offset: 0.15 }, { opacity: 1, offset: 0.8 }, { opacity: 0 }],
          { duration: ms, fill: 'forwards' });
      } else {
        b.querySelector('.att-emoji').animate([
          { transform: 'scale(0.3)', opacity: 0 }, { transform: 'scale(1.12)', opacity: 1, offset: 0.15 },
          { transform: 'scale(1)', offset: 0.3 }, { opacity: 1, offset: 0.8 }, { transform: 'scale(1)', opacity: 0 },
        ], { duration: ms, fill: 'forwards' });
        b.querySelector('.att-ring').animate([
          { transform: 'scale(0.4)', opacity: 0.9 }, { transform: 'scale(1.5)', opacity: 0 },
        ], { duration: ms, fill: 'forwards' });
      }
      after(1700, () => b.remove());
    },
    call(seat, kind, team = -1, still = false) {
      const b = el('div', `att-bubble ${kind}`);
      b.dataset.seat = String(seat);
      b.dataset.call = kind;
      b.dataset.team = String(team);
      b.textContent = callText(kind, team);
      const fill = el('span', 'att-hold');
      b.append(fill);
      parts.fx.append(b);
      parts.plates[seat].p.classList.add('caller');
      layout(false);
      if (still) return;
      fade(b, 0, 1, 350);
      // the press-and-hold the phone asks for, as a bar filling under the word
      if (reduced) fade(fill, 0, 1, 900);
      else fill.animate([{ transform: 'scaleX(0)' }, { transform: 'scaleX(1)' }], { duration: 900 / Math.sqrt(speed), fill: 'forwards' });
    },
    reveal() {
      model.revealed = true;
      model.hands.forEach((hand, seat) => {
        const ranks = new Set(hand.map(rankOf));
        if (hand.length === 4 && ranks.size === 1) model.carre.add(seat);
      });
      layout(false);
      const d = DEALS[model.deal];
      for (let seat = 0; seat < 4; seat++) {
        const badge = el('div', `att-sign team-${TEAM_OF[seat]} emoji`, d.signs[TEAM_OF[seat]]);
        badge.dataset.seat = String(seat);
        parts.seats.append(badge);
        fade(badge, 0, 1, 600);
      }
      layout(false);
      if (!reduced) {
        parts.cardEls.forEach((n) => {
          if (!n.classList.contains('big')) n.animate([{ transform: 'rotateY(80deg)', opacity: 0.4 }, { transform: 'none', opacity: 1 }], { duration: 700 / Math.sqrt(speed) });
        });
      } else {
        parts.cardEls.forEach((n) => { if (!n.classList.contains('big')) fade(n, 0.3, 1, 600); });
      }
    },
    score(team) {
      model.scores[team] += 1;
      texts();
      const chip = parts.scores.children[team];
      if (chip) {
        chip.classList.add('scored');
        fade(chip, 0.3, 1, 600);
      }
    },
  };

  function swapIn(seat, card, place) {
    const slot = model.hands[seat].indexOf(card);
    const took = model.centre[place];
    model.hands[seat][slot] = took;
    model.centre[place] = card;
    return took;
  }

  function runScene(i) {
    if (!running) return;
    sceneIndex = i;
    const [name, length, play] = SCENES[i];
    const duration = typeof length === 'function' ? length(periodMs()) : length;
    box.dataset.scene = name;
    [...parts.dots.children].forEach((d, k) => d.classList.toggle('on', k === i));
    scene.length = duration;
    scene.period = periodMs();
    play(scene);
    after(duration, () => runScene((i + 1) % SCENES.length));
  }

  const api = {
    start(from) {
      api.stop();
      running = true;
      build();
      const built = box;
      ensureStyles(() => { if (box === built) { bandFit = { key: '', h: 0 }; layout(false); } });
      texts();
      const i = typeof from === 'string' ? SCENES.findIndex(([name]) => name === from) : 0;
      if (typeof ResizeObserver === 'function') {
        resizer = new ResizeObserver(() => layout(false));
        resizer.observe(root);
      }
      runScene(Math.max(0, i));
    },
    stop() {
      running = false;
      timers.forEach((id) => clearTimeout(id));
      timers = new Set();
      if (resizer) resizer.disconnect();
      resizer = null;
      if (parts.fontWatch) document.fonts.removeEventListener('loadingdone', parts.fontWatch);
      if (box) {
        box.getAnimations({ subtree: true }).forEach((a) => a.cancel());
        box.remove();
      }
      box = null;
      model = null;
      captionKey = null;
    },
    setLang(next) {
      current = next === 'fr' ? 'fr' : 'en';
      texts();
    },
    get running() { return running; },
    get scene() { return running ? SCENES[sceneIndex][0] : null; },
  };
  return api;
}

export const ATTRACT_SCENES = SCENES.map(([name, ms]) => ({ name, ms: typeof ms === 'function' ? ms(5000) : ms }));

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
// inside it and sizes itself to it (it follows resizes). `lang` is a catalog's code (web/i18n/<lang>.json, group "attract"). `reducedMotion` defaults to the
// `prefers-reduced-motion` media query: then nothing moves, scales or turns: every change is a fade (no CSS
// transform anywhere). `onEnd()` is called when the viewer presses the visible "Skip" button (after stop()); the
// loop itself never ends: after the last scene it starts again. `speed` (default 1) runs the whole loop faster
// (tests, previews). `timing` is the view's timing (or a function returning the current one): its `emission_period` is the one the
// captions say and the pace at which the demonstrated channel flashes. The module needs no server: it is a
// scripted round, not a game; its stylesheet (attract.css, beside it) is linked into the document on first use.
//
// `names` (a function) gives the seated players' names: the little table's players never bear one of them (the
// lobby shows the loop beside the real seats); `loop.setNames()` says they changed.
//
// This file is the player: it draws and animates. The story, its words and its scenes are attract-scenes.js;
// where each thing goes in the box, attract-layout.js.

import { TEAM_SHAPES } from '../common/teams.js';
import { translator, loadGroups, language, setLanguage, formatNumber, teamWord } from '../common/i18n.js';
import { TEAM_OF, DEALS, SCENES, CAPTIONS, demoNames } from './attract-scenes.js';

await loadGroups(['attract', 'common']); // its words (web/i18n/<lang>.json: "attract", team names) come with it
const words = translator(['attract']);
import { measure, geometry as place } from './attract-layout.js';
import { el, rankOf, buildBox, drawTable } from './attract-draw.js';

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

export function createAttract(root, { lang = 'en', reducedMotion, onEnd, speed = 1, timing = {}, names = () => [] } = {}) {
  // The table's own emission period, read from the view's timing each time it is shown (the host may relax the
  // timers while the loop plays); the rules' default only for a caller with no view at all (a preview).
  const timingNow = typeof timing === 'function' ? timing : () => timing;
  const periodMs = () => {
    const p = Number((timingNow() || {}).emission_period);
    return p > 0 ? p * 1000 : 5000;
  };
  // "2.5" in English, "2,5" in French; never rounded to a number the table does not use
  const periodText = () => formatNumber(periodMs() / 1000);
  const reduced = reducedMotion ?? (typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches);
  if (lang && lang !== language()) setLanguage(lang, { pick: false }).then(() => texts());
  let running = false;
  let timers = new Set();
  let box = null; // the loop's own element inside root
  let parts = {};
  let model = null; // what is on the table now
  let captionKey = null;
  let sceneIndex = 0;
  let resizer = null;
  let bandFit = { key: '', h: 0 }; // the band's height for a language, caption size and width
  let players = demoNames(names()); // the little table's players, none of them a seated player's name

  const tr = (key, vars = {}) => {
    const [a, b, c, d] = players;
    return words(key, { period: periodText(), a, b, c, d, ...vars });
  };

  function after(ms, fn) {
    const id = setTimeout(() => {
      timers.delete(id);
      if (running) fn();
    }, ms / speed);
    timers.add(id);
  }

  // Where everything goes in the root's box now.
  const geometry = () => place(measure(root.getBoundingClientRect(), bandHeight));

  // The tallest of the language's sentences at this size and width (measured in the band itself, once per change).
  function bandHeight(font, width, side) {
    const b = parts.band;
    if (!b) return 0;
    const key = `${language()}|${font.toFixed(2)}|${Math.round(width - 2 * side)}|${periodText()}|${players}`;
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

  function texts() {
    if (!box) return;
    box.lang = document.documentElement.lang;
    parts.title.textContent = tr('title');
    parts.skip.textContent = `${tr('skip')} ⏭`;
    parts.skip.setAttribute('aria-label', tr('skip_label'));
    parts.plates.forEach(({ team, name }, seat) => {
      const t = TEAM_OF[seat];
      name.textContent = players[seat];
      team.replaceChildren(`${teamWord(t)} `, el('span', 'att-shape', TEAM_SHAPES[t]));
    });
    if (model) {
      parts.scores.replaceChildren(...model.scores.map((n, t) => {
        const chip = el('span', `att-score team-${t}`);
        chip.append(el('span', 'att-shape', TEAM_SHAPES[t]), el('span', 'att-tname', teamWord(t)),
          el('b', 'att-points', String(n)));
        return chip;
      }));
      if (model.focus != null) parts.phone.textContent = `📱 ${tr('phone_of', { name: players[model.focus] })}`;
      box.querySelectorAll('.att-bubble').forEach((b) => { b.textContent = callText(b.dataset.call, Number(b.dataset.team)); });
    }
    if (captionKey) parts.caption.textContent = tr(captionKey);
    layout(false); // another language, other sentences: the band may change height
  }

  function callText(kind, team) {
    const word = words(`call_${kind}`);
    return kind === 'contre' && team >= 0 ? `${word} ${TEAM_SHAPES[team]}` : word;
  }

  function layout(animate = false) {
    if (box && model) drawTable(parts, model, geometry(), { animate, reduced, speed });
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
      parts = buildBox(root, {
        reduced, players, scenes: SCENES.length,
        onSkip: () => { api.stop(); if (onEnd) onEnd(); },
        onFonts: () => { bandFit = { key: '', h: 0 }; layout(false); },
      });
      box = parts.box;
      const built = box;
      // Unseen until its stylesheet applies: unstyled, its layers would spill over the lobby's seats and buttons
      // (a slow host or Wi-Fi can take seconds to send it). `data-styling` tells tests it is on its way.
      built.style.visibility = 'hidden';
      built.dataset.styling = '';
      ensureStyles(() => {
        built.style.visibility = '';
        delete built.dataset.styling;
        if (box === built) { bandFit = { key: '', h: 0 }; layout(false); }
      });
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
      if (next !== language()) setLanguage(next, { pick: false }).then(() => texts());
      else texts();
    },
    /** The seated players changed: the little table's players change their names if one now reads like theirs. */
    setNames() {
      const next = demoNames(names());
      if (String(next) === String(players)) return;
      players = next;
      texts();
    },
    get running() { return running; },
    get scene() { return running ? SCENES[sceneIndex][0] : null; },
  };
  return api;
}


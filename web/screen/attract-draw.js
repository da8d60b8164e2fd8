// The attract loop's drawing (screen/attract.js plays it): the loop's box with its layers and plates, the cards,
// and the little table drawn at a geometry (attract-layout.js) — plates, cards face up or down, the phone's tag,
// bursts, call bubbles and sign badges. Positions are left/top only (put): the reduced-motion loop uses no
// transform.

import { TEAM_SHAPES, SUIT_RED } from '../common/teams.js';
import { TEAM_OF } from './attract-scenes.js';
import { LAYOUTS, TITLE_LEAST, stageHeight, put } from './attract-layout.js';

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

export function rankOf(card) { return card.slice(0, -1); }
function suitOf(card) { return card.slice(-1); }

/** The loop's own element in `root`, with its layers, plates, caption band and Skip (`onSkip`); returns its parts. */
export function buildBox(root, { reduced, players, scenes, onSkip, onFonts }) {
  const box = el('div', 'attract' + (reduced ? ' reduced' : ''));
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
  skip.addEventListener('click', onSkip);
  const band = el('div', 'att-band');
  const caption = el('p', 'att-caption');
  caption.setAttribute('aria-live', 'polite');
  const dots = el('div', 'att-dots');
  for (let i = 0; i < scenes; i++) dots.append(el('span', 'att-dot'));
  const foot = el('div', 'att-foot');
  foot.append(scores, dots);
  band.append(caption, foot);
  box.append(felt, seats, cards, fx, top, skip, band);
  root.append(box);
  const parts = { box, felt, seats, cards, fx, top, title, scores, skip, band, caption, dots, plates: [], cardEls: new Map() };
  // a late font (the emoji's) re-wraps the sentences: measure the band again
  if (document.fonts && document.fonts.addEventListener) {
    parts.fontWatch = onFonts;
    document.fonts.addEventListener('loadingdone', parts.fontWatch);
  }
  for (let seat = 0; seat < 4; seat++) {
    const p = el('div', `att-plate team-${TEAM_OF[seat]}`);
    p.dataset.seat = String(seat);
    const head = el('div', 'att-plate-head');
    const name = el('span', 'att-name', players[seat]);
    head.append(el('span', 'att-shape', TEAM_SHAPES[TEAM_OF[seat]]), name);
    const lamp = el('span', 'att-lamp');
    head.append(lamp);
    const team = el('div', 'att-team');
    p.append(head, team);
    seats.append(p);
    parts.plates.push({ p, lamp, team, name });
  }
  parts.phone = el('div', 'att-phone');
  seats.append(parts.phone);
  return parts;
}

/** The element of `card` ("K♠"), made the first time. */
export function cardNode(parts, card) {
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

/** Draw `model` (hands, centre, focus, carrés) in `parts` at geometry `g`; `animate` slides the cards that moved. */
export function drawTable(parts, model, g, { animate = false, reduced = false, speed = 1 } = {}) {
  const { box } = parts;
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
    const node = cardNode(parts, card);
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

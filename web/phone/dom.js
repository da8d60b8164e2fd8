// Small DOM helpers of the phone: elements from a description, cards, and the rings that drain or fill.
import { SUIT_RED } from '../common/teams.js';

export const $ = (id) => document.getElementById(id);

/** h('button', {class, text, onclick, 'data-x': 1}, ...children): an element; false/null attributes are left out. */
export function h(tag, attrs = {}, ...kids) {
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

export function cardText(c) {
  return c ? `${c.rank}${c.suit}` : '—';
}

export function fillCard(el, c) {
  el.replaceChildren();
  el.classList.toggle('red', !!c && SUIT_RED.has(c.suit));
  el.classList.toggle('empty', !c);
  if (!c) { delete el.dataset.card; return; }
  el.append(h('span', { class: 'rank', text: c.rank }), h('span', { class: 'suit', text: c.suit }));
  el.dataset.card = c.id;
}

export function miniHand(cards, carre) {
  return h('span', { class: `mini-hand${carre ? ' carre' : ''}` },
    (cards || []).map((c) => h('span', { class: `mini${SUIT_RED.has(c.suit) ? ' red' : ''}`, text: cardText(c) })));
}

/** A ring that drains around an element: an SVG rect whose stroke shrinks from seconds/total to nothing. */
export function drainRing(svg, seconds, total) {
  const rect = svg.querySelector('rect');
  if (svg._anim) svg._anim.cancel();
  if (!(seconds > 0) || !(total > 0)) {
    svg.classList.remove('on');
    return;
  }
  const start = 100 * (1 - Math.min(1, seconds / total));
  svg.classList.add('on');
  svg._anim = rect.animate([{ strokeDashoffset: start }, { strokeDashoffset: 100 }],
    { duration: seconds * 1000, easing: 'linear', fill: 'forwards' });
  svg._anim.onfinish = () => svg.classList.remove('on');
}

/** A team label whose shape wears the team's colour ("Blue ●"), for sentences. */
export function teamSpan(label, teamNo) {
  return h('span', { class: `team-word team-${teamNo}` }, label.slice(0, -1), h('b', { class: 'shape', text: label.slice(-1) }));
}

/** A sentence whose team labels ("Blue ●") are painted in their team's colour; the words are unchanged. */
export function sentence(text, labels) {
  const out = [];
  let rest = text;
  while (rest) {
    let best = null;
    for (const [label, teamNo] of labels) {
      const i = rest.indexOf(label);
      if (i >= 0 && (!best || i < best.i)) best = { i, label, teamNo };
    }
    if (!best) { out.push(rest); break; }
    if (best.i) out.push(rest.slice(0, best.i));
    out.push(teamSpan(best.label, best.teamNo));
    rest = rest.slice(best.i + best.label.length);
  }
  return out;
}

// Small DOM helpers of the big screen: building nodes, sentences with coloured team shapes, and "patch only
// what changed" (each part of the page remembers the signature of the data it last drew).
import { TEAM_SHAPES, teamLabel } from '../common/teams.js';

export const $ = (sel, root = document) => root.querySelector(sel);

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

export function button(label, onClick, cls = '') {
  const b = el('button', cls, label);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

export const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

// Redraw `node` with `draw(node)` only when `sig` differs from what it last drew; returns whether it drew.
// The signature is the data the part shows: the same data leaves its nodes (and their animations) alone.
export function patch(node, sig, draw) {
  if (node.__sig === sig) return false;
  node.__sig = sig;
  draw(node);
  return true;
}

export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export const teamName = (team) => teamLabel(team); // never split "Blue ●" (teams.js)
export { teamWord, joinList } from '../common/i18n.js';
// The label after the word "team" ("team Blue ●", "l’équipe bleue ●").
export const teamAfter = (team) => teamLabel(team, true);

// A sentence as nodes, with each team label ("Blue\u00a0●") wrapped so that its shape wears the team's colour:
// the words stay the same (textContent is unchanged), only the shape is painted. Team labels carry a no-break
// space that players' names do not, so a name is never mistaken for one.
export function teamText(text) {
  const frag = document.createDocumentFragment();
  const labels = TEAM_SHAPES.flatMap((_, team) => [[teamName(team), team], [teamAfter(team), team]]);
  let rest = String(text);
  while (rest) {
    let at = -1;
    let team = -1;
    let label = '';
    for (const [l, i] of labels) {
      const k = rest.indexOf(l);
      if (k >= 0 && (at < 0 || k < at || (k === at && l.length > label.length))) { at = k; team = i; label = l; }
    }
    if (at < 0) { frag.append(rest); break; }
    if (at > 0) frag.append(rest.slice(0, at));
    const shape = TEAM_SHAPES[team];
    const span = el('span', `team-label team-${team}`, label.slice(0, label.length - shape.length));
    span.append(el('span', 'shape', shape));
    frag.append(span);
    rest = rest.slice(at + label.length);
  }
  return frag;
}


export function fmtClock(s) {
  const whole = Math.max(0, Math.ceil(s - 1e-6));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

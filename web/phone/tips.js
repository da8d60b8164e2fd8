// The coach (phone/coach.js) wired to the phone's page, fetched with the seat (a join screen has nothing to teach):
// the control each hint points at, the room the seat strip lends a hint, the zones a bubble keeps off.
import { S, me } from './state.js';
import { $ } from './dom.js';
import { language } from '../common/i18n.js';
import { createCoach } from './coach.js';

// Where each coach hint points: the control it is about, when it is on screen.
const ANCHORS = {
  // over the explanation it repeats: the space beside the grid or Lock in holds the title, countdown or a control
  sign: () => document.querySelector('#sign-body .sign-about') || $('btn-lock'),
  hand: () => $('hand-zone'), centre: () => $('centre'), channel: () => $('channel-toggle'),
  quatro: () => $('btn-quatro'), contre: () => $('btn-contre'), reshuffle: () => $('btn-reshuffle'),
  vote: () => $('vote-bar'), result: () => $('result-sentence'),
};

function anchor(key) {
  // A question or the help sheet over the table comes first: the hint waits until they are closed.
  if (S.modal || document.getElementById('help-sheet')) return null;
  const el = ANCHORS[key] ? ANCHORS[key]() : null;
  return el && !el.closest('[hidden]') && el.getClientRects().length ? el : null;
}

// The strip lends a hint in play the room it can spare (at least half the hint: the coach checks the rest).
function room(h) {
  const spacer = $('coach-room');
  if (!h || document.body.dataset.screen !== 'play') { spacer.hidden = true; return null; }
  const screen = $('screen-play');
  spacer.style.height = `${Math.ceil(h)}px`;
  spacer.hidden = false;
  const over = screen.scrollHeight - screen.clientHeight;
  if (over > 1) spacer.style.height = `${Math.max(0, Math.floor(h - over))}px`;
  if (over > h / 2 || screen.scrollHeight > screen.clientHeight + 1) { spacer.hidden = true; return null; }
  return spacer;
}

/** The phone's coach; the composition root hands it every view (coach.consider). A bubble never lies over the
 *  seats' flashes, help, your cards or the calls (a tip over Quatro! when your partner flashes costs the round). */
export const coach = createCoach({ lang: language(), anchor, root: $('app'), room,
  keep: () => [$('strip'), $('help'), $('hand-zone'), $('btn-quatro'), $('btn-contre')],
  clear: () => [$('centre'), $('tray')] });
if (S.view && me()) coach.consider(S.view, null, []);
// A screen drawn by a module fetched on demand (the sign, the reveal): the coach looks again for what it points at.
document.addEventListener('quatro:overlay', () => { if (me()) coach.consider(S.view, S.view, []); });

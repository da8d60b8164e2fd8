// The phone's state: the last view the server sent and what this page has on the way. Everything the game decides
// (durations, who may act, what a swap did) is read from the view; the page only remembers its own taps in flight.
import { language, teamWord } from '../common/i18n.js';
import { teamLabel } from '../common/teams.js';
import { remaining } from '../common/clock.js';

export const TOKEN_KEY = 'quatro.token';
export const NAME_KEY = 'quatro.name';
// A join not answered yet, kept with when it went ({ at, msg }): a reload soon after the seat tap sends it again.
export const JOIN_KEY = 'quatro.join';

export const S = {
  view: null, // last view from the server
  table: {}, // the server's public part
  at: 0, // performance.now() when the view arrived (all durations are "seconds remaining" then)
  status: 'connecting',
  everOnline: false,
  selected: null, // id of the hand card lifted
  pending: null, // {id, card, place, expected, ok}: our swap, shown at once, until a view shows or refuses it
  sent: new Map(), // message id → {kind, ...}: what a reply answers
  sentAt: {}, // message type → performance.now() when the last one went out
  modal: null, // kind of the open modal
  signPick: null, // emoji chosen in the grid, not locked in yet
  signOkRound: null,
  joinMsg: '',
  nameNote: null, // "Ana is already at the table…": told once, with the state that follows our join
  lastEmitAt: 0,
  callBusy: false,
  channelWanted: null, // true/false: the switch moved, the view has not said so yet
  watching: false, // a spectator: the public view, no seat
  kicked: null, // why this phone lost its seat (told once on the join screen)
  host: false, // this phone holds the host's remote (VIP)
  rewatch: false, // a spectator's new socket: send watch again after the hello
};

export const me = () => (S.view && S.view.you ? S.view.you : null);
export const mySeat = () => (me() ? S.view.seats[me().seat] : null);
export const left = (secs) => remaining(secs, S.at);
export const lang = () => language();
export const teamName = (i) => teamWord(i);
export const team = (i) => teamLabel(i);
export const teamAfter = (i) => teamLabel(i, true);
export const seatName = (i) => (S.view && S.view.seats[i] ? S.view.seats[i].name || `#${i + 1}` : `#${i + 1}`);
export const timing = () => (S.view && S.view.timing) || {};
export const paused = () => !!(S.view && S.view.paused);

/** A seat link (/?seat=<token> or /#token=<token>) is saved, then the address bar is cleaned. */
export function takeTokenFromUrl() {
  const q = new URLSearchParams(location.search);
  const h = new URLSearchParams(location.hash.replace(/^#/, ''));
  const tok = q.get('seat') || h.get('token') || h.get('seat');
  const vip = q.get('vip') || h.get('vip');
  if (vip) sessionStorage.setItem('quatro.vip', vip);
  if (tok) localStorage.setItem(TOKEN_KEY, tok);
  if (tok || vip) history.replaceState(null, '', location.pathname);
}

export const vipSecret = () => sessionStorage.getItem('quatro.vip');

/** What the table looks like to us: the server's view, with our own swap shown while it travels. */
export function shownCards() {
  const you = me();
  const hand = you.hand.slice();
  const centre = S.view.centre.slice();
  const p = S.pending;
  if (p) {
    const i = hand.findIndex((c) => c.id === p.card);
    if (i >= 0 && centre[p.place] && centre[p.place].id === p.expected) {
      [hand[i], centre[p.place]] = [centre[p.place], hand[i]];
    }
  }
  return { hand, centre };
}

/** A view arrived: our swap stays shown until a view shows it done (the card we gave lies at its place). */
export function settlePending() {
  const p = S.pending;
  const you = me();
  if (!p || !you) return;
  const place = S.view.centre[p.place];
  const done = place && place.id === p.card;
  const gone = !you.hand.some((c) => c.id === p.card) && !done;
  if (done || gone || (p.ok && place && place.id !== p.expected)) S.pending = null;
}

// Rebuild a screen only when what it shows changed: a tap is never lost to a DOM swapped under the finger.
const shownKeys = {};
export function changed(screen, ...parts) {
  const key = JSON.stringify([language(), ...parts]);
  if (shownKeys[screen] === key) return false;
  shownKeys[screen] = key;
  return true;
}

/** Forget what a screen shows (it was emptied): the next render draws it again. */
export function forget(screen) {
  delete shownKeys[screen];
}

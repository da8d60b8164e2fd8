// What the server says, applied to the phone's state: a fresh view, the replies to our own messages (answered at
// the finger that sent them), and the errors that take a seat away.
import { S, me, TOKEN_KEY, JOIN_KEY, settlePending } from './state.js';
import { t, refusalText, loadLaterWords } from './strings.js';
import { atFinger, haptic, playMsg, toast, hideToast } from './feedback.js';
import { closeModal } from './modal.js';
import { forgetSent, send } from './net.js';
import { onPlayView, burst, flashOwnEmission } from './play.js';
import { askR23 } from './calls.js';
import { $ } from './dom.js';
import { later } from './later.js';
import { seatNotFreed } from './join.js';
import { keepRemote, forgetRemote } from './remote-key.js';

let render = () => {};
let onView = () => {};
/** The composition root's hooks: `draw()` redraws the page; `view()` after every state (coach, host remote). */
export function setHooks({ draw, view }) {
  render = draw;
  if (view) onView = view;
}

export function onMessage(msg) {
  if (S.status === 'syncing') {
    if (S.everOnline) toast(t('back_online'), 'ok', 1500);
    S.everOnline = true;
    S.status = 'open';
    // Watching is a property of the socket: a spectator's new socket says so again after its hello.
    if (S.watching) S.rewatch = true;
  }
  switch (msg.type) {
    case 'state': onState(msg); break;
    case 'joined': onJoined(msg); break;
    case 'ok': onOk(msg); break;
    case 'refused': onRefused(msg); break;
    case 'error': onError(msg); break;
    case 'seat_link': later('seatlink').then((m) => m.showSeatLink(msg), () => toast(t('reconnecting'), 'warn')); break;
    case 'vip_link': break; // for the TV only
    case 'remote_key': keepRemote(msg.key); break; // this phone holds the host's remote, across tabs and restarts
    default: break;
  }
}

const JOIN_AGAIN_MS = 120000; // a join kept from before a reload goes again this long after its tap, not later

/** A new socket: replies to what the old one sent never come; an unanswered join goes again (§4.1), and so does
 *  one this page sent before it was reloaded, when it holds no seat's token. */
export function onSocketOpen() {
  S.callBusy = false;
  S.pending = null;
  S.channelWanted = null;
  const j = [...S.sent.values()].find((w) => w.kind === 'join') || keptJoin();
  forgetSent();
  if (j) Promise.resolve().then(() => send(j.msg, j));
}

function keptJoin() {
  try {
    const { at, msg } = JSON.parse(localStorage.getItem(JOIN_KEY));
    if (!localStorage.getItem(TOKEN_KEY) && Math.abs(Date.now() - at) < JOIN_AGAIN_MS) return { seat: msg.seat, name: msg.name, msg };
  } catch { /* none, or not ours */ }
  localStorage.removeItem(JOIN_KEY);
  return null;
}

function onState(msg) {
  const before = S.view;
  S.view = msg.view;
  S.table = msg.table || S.table;
  S.at = performance.now();
  S.host = !!(S.table && S.table.host);
  const you = me();
  S.watching = !you && (msg.role === 'spectator' || (S.table && S.table.role === 'spectator') || S.watching);
  if (you) S.watching = false;
  if (you) {
    onPlayView();
    settlePending();
    if (S.selected != null && !you.hand.some((c) => c.id === S.selected)) S.selected = null;
  }
  if (before && before.phase !== S.view.phase) {
    S.selected = null;
    S.callBusy = false;
    S.signPick = null;
    S.pending = null;
    S.channelWanted = null;
    if (S.view.phase === 'lobby') S.signOkRound = null; // rounds count from 1 again in a new game
    forgetSent(); // taps of the last phase guard nothing in this one
    if (S.modal && S.modal !== 'help') closeModal();
    hideToast();
  }
  const notes = [];
  for (const ev of msg.events || []) onEvent(ev, notes);
  render();
  onView(before, msg.events || []);
  if (notes.length) playMsg(notes.join(' · '), 'info', 5000);
  if (S.nameNote) { toast(S.nameNote, 'info', 5000); S.nameNote = null; } // on the screen the join led to
}

function onEvent(ev, notes) {
  const you = me();
  switch (ev.type) {
    case 'random_sign_given': // R12: only your own team's drawn sign is yours to see
      if (you && ev.team === you.team && you.sign) notes.push(t('random_sign', { sign: you.sign }));
      break;
    case 'dealt': // R6: the table is told a hand was replaced, never whose
      if (ev.redeals > 0) notes.push(t('redealt'));
      break;
    case 'emitted':
      setTimeout(() => burst(ev.seat), 0);
      if (you && ev.seat === you.seat) flashOwnEmission(ev.emoji);
      break;
    case 'reshuffled':
      S.selected = null;
      S.pending = null;
      notes.push(t('reshuffled'));
      break;
    case 'vote_ended':
      $('vote-bar').hidden = true; // vote.js draws it again for the next vote
      if (you && ev.why !== 'round_over') notes.push(ev.passed ? t('vote_passed') : t('vote_failed'));
      break;
    case 'round_ended':
      if (S.modal !== 'help') closeModal();
      break;
    default: break;
  }
}

// What two names must differ in, as the server compares them (not case, accents or spacing: "Chloé" = "chloe ").
const nameKey = (name) => name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().split(/\s+/).filter(Boolean).join(' ');

function onJoined(msg) {
  localStorage.setItem(TOKEN_KEY, msg.token);
  localStorage.removeItem(JOIN_KEY);
  S.joinMsg = '';
  S.kicked = null;
  S.watching = false;
  const what = S.sent.get(msg.id);
  S.sent.delete(msg.id);
  // The server numbers a name another seat already has ("Ana 2"): say it once, when our own join got another name
  // (a resume by token says the same name again: nothing to tell).
  if (what && what.kind === 'join' && msg.name && msg.name !== what.name) {
    const key = nameKey(what.name);
    const clash = ((S.view && S.view.seats) || []).find((s, i) => i !== msg.seat && s.name && nameKey(s.name) === key);
    S.nameNote = t('renamed', { other: clash ? clash.name : what.name, name: msg.name });
  }
}

const OK_TEXT = {
  take_channel: 'ok_take', release_channel: 'ok_release', request_reshuffle: 'ok_reshuffle', answer_vote: 'ok_vote',
};

function onOk(msg) {
  const what = S.sent.get(msg.id);
  S.sent.delete(msg.id);
  if (!what) return;
  const anchor = what.anchor || null;
  if (what.kind === 'swap') {
    if (S.pending && S.pending.id === msg.id) S.pending.ok = true; // shown until the view has it (no flicker)
    haptic('ok'); // R15: the haptic tick of your own successful swap
    atFinger(t('swapped'), 'ok', { anchor, ms: 900 });
  } else if (what.kind === 'call_quatro' || what.kind === 'call_contre') {
    atFinger(t('called', { call: what.kind === 'call_quatro' ? t('quatro') : t('contre') }), 'ok', { anchor });
  } else if (what.kind === 'choose_emoji') {
    haptic('ok');
    atFinger(t('ok_emoji', { emoji: what.emoji }), 'ok', { anchor, ms: 900 });
  } else if (OK_TEXT[what.kind]) {
    haptic('ok');
    atFinger(t(OK_TEXT[what.kind]), 'ok', { anchor, ms: 900 });
    if (what.kind === 'answer_vote') $('vote-bar').hidden = true; // answered: the bar goes
  } else if (what.kind === 'pick_sign') {
    S.signOkRound = S.view && S.view.round;
  } else if (what.kind === 'watch') {
    S.watching = true;
    render();
  } else if (what.kind === 'host') {
    atFinger('✓', 'ok', { anchor, ms: 900 });
  }
}

function onRefused(msg) {
  const what = S.sent.get(msg.id) || {};
  S.sent.delete(msg.id);
  const anchor = what.anchor || null;
  const text = refusalText(msg);
  if (what.kind === 'swap') {
    S.pending = null; // the card slides back: render from the server's view again
    // R16: costs nothing; the card stays lifted so the player can retry at once.
    const lost = msg.reason === 'card_taken';
    if (lost && what.card != null) S.selected = what.card;
    atFinger(text, lost ? 'lost' : 'refused', { anchor });
    haptic(lost ? 'lost' : 'refused');
    render();
    return;
  }
  if (what.kind === 'take_channel' || what.kind === 'release_channel') S.channelWanted = null;
  if (what.kind === 'call_quatro' || what.kind === 'call_contre') {
    S.callBusy = false;
    playMsg('', 'info', 1);
    if (msg.reason === 'confirm_own_carre') { askR23(); render(); return; }
  }
  if (what.kind === 'pick_sign' || what.kind === 'ready') S.signPick = null;
  haptic('refused');
  if (anchor || document.body.dataset.screen === 'play') atFinger(text, 'refused', { anchor });
  else toast(text, 'warn');
  render();
}

function onError(msg) {
  const what = S.sent.get(msg.id) || {};
  S.sent.delete(msg.id);
  if (what.kind === 'join') localStorage.removeItem(JOIN_KEY);
  const seatLost = ['bad_token', 'not_seated', 'seat_moved', 'seat_freed', 'kicked', 'replaced_by_bot'];
  if (seatLost.includes(msg.code) && what.kind !== 'watch' && what.kind !== 'join') {
    const had = localStorage.getItem(TOKEN_KEY);
    localStorage.removeItem(TOKEN_KEY);
    if (msg.code === 'kicked' || msg.code === 'replaced_by_bot' || (msg.code === 'seat_freed' && msg.reason)) {
      S.kicked = kickText(msg);
    } else if (had) S.joinMsg = msg.code === 'seat_moved' ? t('seat_moved') : msg.code === 'seat_freed' ? t('seat_freed') : t('bad_token');
  } else if (msg.code === 'seat_taken') {
    // An offline player's seat is still theirs until the host frees it; a freed one may have just been taken.
    S.joinMsg = what.kind === 'join' && seatNotFreed(what.seat) ? t('seat_not_freed') : t('seat_taken');
  } else if (msg.code === 'table_locked') {
    S.joinMsg = t('table_locked');
  } else if (what.kind === 'join' || what.kind === 'watch') {
    S.joinMsg = refusalText({ reason: msg.code, message: msg.message });
  } else if (msg.code === 'bad_vip' || msg.code === 'vip_used') {
    const had = !!localStorage.getItem('quatro.remote');
    forgetRemote();
    S.host = false;
    const key = msg.code === 'vip_used' ? 'vip_used' : had ? 'remote_taken_back' : 'bad_vip';
    // rare words (phone_later): fetched now; the host gone meanwhile, the plain refusal says enough
    loadLaterWords().then(() => t(key), () => t('bad_vip')).then((text) => toast(text, 'warn', 6000));
  } else if (msg.code === 'not_host') {
    atFinger(t('not_host'), 'refused', { anchor: what.anchor || null });
  } else {
    toast(refusalText({ reason: msg.code, message: msg.message }), 'warn');
  }
  S.callBusy = false;
  S.pending = null;
  render();
}

/** Why this phone lost its seat, in plain words (the host gave it away, or a bot plays it now). */
export function kickText(msg) {
  const why = msg.reason || msg.code;
  if (why === 'replaced_by_bot' || why === 'bot') return t('replaced_by_bot');
  return t('kicked');
}

// Quatro! and Contre! (R22–R24): held (gestures.js), then sent, or first a question (calls-ask.js; always so for
// a double tap, a keyboard or a screen reader).
import { S, me, paused } from './state.js';
import { $ } from './dom.js';
import { t } from './strings.js';
import { send } from './net.js';
import { playMsg } from './feedback.js';
import { holdButton } from './gestures.js';
import { later } from './later.js';

let redraw = () => {};
const ask = (fn) => later('calls-ask').then(fn, () => { /* the host is restarting: the next hold asks again */ });

/** Wire the two call buttons; `draw()` redraws the play screen once a call is on its way. */
export function setupCalls(draw) {
  redraw = draw;
  const hold = { holdText: () => t('hold_longer'), refusedText: callRefusal };
  holdButton($('btn-quatro'), { ...hold, onFire: fireQuatro, onAsk: () => ask((m) => m.askFirst('quatro')) });
  holdButton($('btn-contre'), { ...hold, onFire: fireContre, onAsk: () => ask((m) => m.askFirst('contre')) });
}

/** Why a call cannot be made now (the button stays touchable so that a tap is told), or null. */
export function callRefusal() {
  if (S.status !== 'open') return t('reconnecting');
  if (paused()) return t('paused_short');
  if (S.callBusy) return t('call_sent');
  return null;
}

/** R23: ask before a Quatro! of one's own carré. */
export const askR23 = () => ask((m) => m.askR23());

function fireQuatro() {
  const you = me();
  if (!you || S.callBusy) return;
  if (you.has_carre) { askR23(); return; }
  sendCall({ type: 'call_quatro', confirmed: false });
}

function fireContre() {
  const you = me();
  if (!you || S.callBusy) return;
  const others = S.view.teams.map((x) => x.team).filter((x) => x !== you.team);
  if (others.length === 1) sendCall({ type: 'call_contre', team: others[0] });
  else ask((m) => m.pickAccused(others));
}

/** Send a call (once a round: a double tap sends nothing more). */
export function sendCall(msg) {
  if (S.callBusy) return;
  const btn = msg.type === 'call_quatro' ? $('btn-quatro') : $('btn-contre');
  const id = send(msg, { anchor: btn });
  if (id == null) return;
  S.callBusy = true;
  playMsg(t('call_sent'), 'call', 0);
  redraw();
}

// What the page sends: each message is remembered by its id until its reply (ok / refused / error) comes back,
// so the reply is answered at the finger that sent it.
import { S } from './state.js';
import { t } from './strings.js';
import { toast } from './feedback.js';

let link = null;
export function setLink(l) {
  link = l;
}

/** Send `msg`; `meta` is what its reply will need (the card of a swap…). Returns the id, or null while offline. */
export function send(msg, meta = {}) {
  const id = link ? link.send(msg) : null;
  if (id != null) {
    S.sent.set(id, { kind: msg.type, ...meta });
    S.sentAt[msg.type] = performance.now();
  } else toast(t('reconnecting'), 'warn');
  return id;
}

// Double-tap guard: one of these messages is still unanswered, or went out less than 0.6 s ago (its new view may
// not be here yet). A second one would only come back refused — "Not now", "A vote is already running" — although
// the first did what the player wanted.
export function justSent(...kinds) {
  const now = performance.now();
  if (kinds.some((k) => now - (S.sentAt[k] ?? -1e9) < 600)) return true;
  for (const w of S.sent.values()) if (kinds.includes(w.kind)) return true;
  return false;
}

export function forgetSent() {
  S.sent.clear();
  for (const k of Object.keys(S.sentAt)) delete S.sentAt[k];
}

// What a screen reader hears that the page shows without saying it (loaded by phone.js once the phone sees a game,
// seated or watching): a heading on the screens with no title of their own, how to call without holding, and the
// game's moments as they happen — a partner's flash, an opponent's emoji flashed again, a call and its result —
// in the phone's language (web/i18n/<lang>.json, group "phone_later", keys announce_*).
//
// Every held channel flashes once an emission period (R18): a seated phone gathers the flashes worth telling and
// says them in one polite sentence, at most one an emission period (the view's timing) but the partner's sign as
// soon as it is gathered; the call that ends the round is said at once (assertive). The log keeps the last few
// sentences, to be read again.
import { S, me, seatName, timing } from './state.js';
import { $, h } from './dom.js';
import { later, styles } from './later.js';
import { onLanguageChange } from '../common/i18n.js';
import { t, loadLaterWords } from './strings.js';

// its own stylesheet (what it adds is never seen) and its words
await Promise.all([styles('announce'), loadLaterWords()]);

// Flashes that reach the phone this close together are said in one sentence: one state frame often carries
// several, and each said alone would cut the one before short. A pace of the page, not a rule.
const GATHER_MS = 700;
// How many sentences the log keeps (a screen reader user may go back over the last moments).
const KEPT = 5;
// The screens that draw no level-one heading of their own.
const UNTITLED = ['sign', 'play', 'watch', 'reveal'];

/** The sentence `announce_<key>` in the phone's language, {placeholders} filled (a count's sentence by `n`). */
const say = (key, vars = {}) => t(`announce_${key}`, vars);

for (const name of UNTITLED) $(`screen-${name}`).prepend(h('h1', { class: 'sr-only', translate: 'no', text: 'Quatro Party' }));
const log = h('div', { class: 'sr-only', role: 'log', 'aria-live': 'polite' });
const news = h('div', { class: 'sr-only', role: 'alert' }); // the call that ends the round
document.body.append(log, news);

function label() {
  log.setAttribute('aria-label', say('log_label'));
  for (const id of ['btn-quatro', 'btn-contre']) $(id).setAttribute('aria-description', say('call_alt'));
}
label();
onLanguageChange(label);

const seen = new Map(); // "seat emoji" → how many times that seat flashed that emoji this round
const pending = new Map(); // seat → its last flash worth telling, not said yet
let timer = null;
let due = 0; // performance.now() when the gathered flashes are said
let spokenAt = -1e9; // when the last sentence of flashes was said

/** The events of a new state (phone.js, after every view). */
export function hear(events) {
  for (const ev of events) {
    if (ev.type === 'sign_phase_opened' || ev.type === 'round_opened') { seen.clear(); news.textContent = ''; }
    else if (ev.type === 'emitted') flashed(ev.seat, ev.emoji);
    else if (ev.type === 'round_ended') ended(ev.result);
  }
}

function flashed(seat, emoji) {
  const you = me();
  if (!you || seat === you.seat) return; // a spectator has no partner and no opponent; one's own flash is known
  const key = `${seat} ${emoji}`;
  const n = (seen.get(key) || 0) + 1;
  seen.set(key, n);
  const partner = seat === you.partner;
  if (!partner && n < 2) return; // an opponent's emoji is worth telling once it comes again
  const sign = partner && emoji === you.sign;
  pending.set(seat, { seat, emoji, n, partner, sign });
  const now = performance.now();
  const at = Math.max(now + GATHER_MS, sign ? 0 : spokenAt + (timing().emission_period || 0) * 1000);
  if (timer && due <= at) return;
  clearTimeout(timer);
  due = at;
  timer = setTimeout(speak, at - now);
}

function speak() {
  timer = null;
  const flashes = [...pending.values()].sort((a, b) => b.partner - a.partner || a.seat - b.seat);
  pending.clear();
  if (!flashes.length) return;
  spokenAt = performance.now();
  add(flashes.map((f) => (f.partner
    ? say(f.sign ? 'partner_sign' : 'partner_flash', { name: seatName(f.seat), emoji: f.emoji })
    : say('repeated', { name: seatName(f.seat), emoji: f.emoji, n: f.n }))).join(' '));
}

function add(text) {
  log.append(h('p', { text }));
  while (log.childElementCount > KEPT) log.firstElementChild.remove();
}

// The round is over: flashes not said yet no longer matter. A call is said at once, a void round politely; in the
// reveal's own words (phone/reveal.js, fetched during play).
function ended(result) {
  clearTimeout(timer);
  timer = null;
  pending.clear();
  if (!result) return;
  later('reveal').then((m) => {
    const text = m.resultSentence(result);
    if (result.end === 'void') add(text);
    else news.textContent = text;
  }, () => { /* the host is restarting: the reveal says it when it draws */ });
}

// The phone's coach: one short hint at the moment it matters, next to the control it is about, for players who
// have never played. Each hint shows until dismissed; each device remembers which hints it has seen.
//
//   import { createCoach } from './phone/coach.js';
//   const coach = createCoach({ lang: 'en', anchor: (key) => element or null, root: document.body });
//   coach.consider(view, previousView, events);   // on every `state` frame (and again on a timer if you like)
//   coach.setLang('fr');                           // the hint on screen switches at once
//   coach.reset();                                 // "Show hints again": forget what was seen
//   coach.dismissAll();                            // "No more hints": mark every hint seen
//
// createCoach({ storage = localStorage, lang, anchor, root, now, keep, clear, spare, room }):
//   storage  where the seen hints are remembered (key "quatro.coach.seen", a JSON list of hint keys);
//   lang     the language to show (a catalog's code; the words are web/i18n/<lang>.json's "coach" group);
//   anchor   (key) => the element a hint points at, or null when it is not on screen (the hint then waits).
//            Keys: 'sign' (the sign picker or its Lock in button), 'hand' (your cards), 'centre' (the four
//            centre places), 'channel' (Take the channel), 'quatro', 'contre', 'reshuffle', 'vote' (the vote's
//            Accept/Refuse), 'result' (the reveal's sentence). An element marked data-coach-place="over" is
//            a zone the bubble lies over (no arrow) instead of beside;
//   root     the element the hint bubble is added to (it is position: fixed, over everything);
//   now      () => milliseconds, for "nobody has swapped for a while" (default performance.now; tests inject it);
//   keep     () => the elements a bubble never covers (the phone: the seat strip, help, the hand, the calls);
//   clear    () => the elements only an urgent hint covers, when nothing better exists (the centre, the emoji
//            tray); a calm hint keeps off them too. A hint with no room left waits out of sight until there is;
//   spare    () => an element it may lie over instead of beside its control;
//   room     (h) => the page makes room for a bubble h px tall and returns that zone, or null; room(0) gives it
//            back. A bubble not beside its control makes its control glow (class coach-target). Where it goes
//            exactly: coach-place.js.
//
// consider(view, previousView, events) takes the seat view and the public events of a `state` frame
// (docs/protocol.md): it computes no rule, it only reads what the view says (phase, you.hand, you.swap_wait,
// you.sign, you.has_carre, reshuffle, result, timing for the numbers it quotes). Hints, most urgent first:
//   partner_sign  your partner just flashed your team's sign: hold Quatro!
//   contre        an opponent keeps flashing the same emoji: if it is their sign, Contre! (or a decoy…)
//   vote          somebody asks for a reshuffle and you vote: silence means no
//   sign          the sign phase: everybody sees your flashes; only your partner knows this one means a carré
//   hand          the first play: your hand and the centre, how to swap (points at the centre)
//   cooldown      your first swap: the wait between two swaps
//   channel       take the channel, pick an emoji, it flashes on the TV every N s (until the channel is taken)
//   reshuffle     nobody has swapped for a while: Reshuffle
//   one_call      the first reveal: one call ends the round, right or wrong
// While you hold a carré only the hints about it speak (partner_sign, channel): any other bubble would lie over
// the hand and the channel toggle at the one moment you need them; it waits for the next deal.
// In a practice round (view.practice) every hint is shown again, even on a device that has seen it: that round
// is there to learn; what is dismissed during it stays dismissed afterwards.
// A hint shown to the player is "seen" when dismissed, or once it has been in sight for a while and its
// moment passes; a dismissed hint never comes back on this device until reset().

import { translator, loadGroups, language, setLanguage, onLanguageChange } from '../common/i18n.js';

await loadGroups(['coach']); // its words (web/i18n/<lang>.json, group "coach") come with it
const words = translator(['coach']);
import { placeBubble } from './coach-place.js';
import { styles } from './later.js';

const STORAGE_KEY = 'quatro.coach.seen';
const SEEN_AFTER_MS = 4000; // on screen this long, then its moment passed: it counts as seen
const GLANCE_MS = 300; // how often a shown bubble looks whether the page moved under it
const STILL_WAIT_FRAMES = 30; // the longest a new bubble waits for the page under it to hold still (~0.5 s)
const IDLE_MS = 25000; // nobody swapped for this long in a round: suggest a reshuffle (a coaching choice, no rule)

// Most urgent first. `due` says the moment has come; `still` says it has not passed (else the hint goes away).
// `anchor` names the control it points at. An `urgent` hint says what to do now: with no other room it lies over
// the centre or the open emoji tray (as little as it can); a calm one waits instead (a first-timer who opened the
// tray on a small phone is busy there, and a bubble over the emoji they tap costs them the flash).
const HINTS = [
  { key: 'partner_sign', anchor: 'quatro', carre: true, urgent: true, due: (c) => c.play && c.partnerFlashedSign, still: (c) => c.play },
  { key: 'contre', anchor: 'contre', due: (c) => c.play && c.repeated !== null, still: (c) => c.play },
  { key: 'vote', anchor: 'vote', due: (c) => c.voting, still: (c) => c.voting },
  // over the explanation the page offers for it (data-coach-place), else beside its control
  { key: 'sign', anchor: 'sign', due: (c) => c.phase === 'sign' && !c.ready,
    still: (c) => c.phase === 'sign' },
  // over the centre, not the hand: the centre is what the hint teaches to look at, and the hand stays free
  { key: 'hand', anchor: 'centre', due: (c) => c.play && c.hand, still: (c) => c.play },
  { key: 'cooldown', anchor: 'hand', due: (c) => c.play && c.waiting, still: (c) => c.play },
  // until taken: the tray it opens is the player's to tap
  { key: 'channel', anchor: 'channel', carre: true, urgent: true,
    due: (c) => c.play && !c.holdsChannel && (c.hasCarre || c.seen.has('cooldown')), still: (c) => c.play && !c.holdsChannel },
  { key: 'reshuffle', anchor: 'reshuffle', due: (c) => c.play && c.idle && c.canReshuffle, still: (c) => c.play && c.canReshuffle },
  { key: 'one_call', anchor: 'result', due: (c) => c.result, still: (c) => c.result },
];

export const HINT_KEYS = HINTS.map((h) => h.key);

const speaks = (hint, c) => hint.carre || !c.hasCarre;

// Resolves once coach.css applies (linked with the first hint; the page is then laid out again for it). A failure
// (the host restarting) resolves too, so that the hint shows unstyled rather than never; the next hint asks again.
let styled = null;
const ensureStyles = () => styled || (styled = styles('coach').then(
  () => window.dispatchEvent(new Event('resize')),
  () => { styled = null; },
));

function readSeen(storage) {
  try {
    const list = JSON.parse(storage.getItem(STORAGE_KEY) || '[]');
    return new Set(Array.isArray(list) ? list.filter((k) => typeof k === 'string') : []);
  } catch {
    return new Set(); // a broken entry: coach again rather than fail
  }
}

export function createCoach({ storage = globalThis.localStorage, lang = 'en', anchor, root = document.body,
  now = () => performance.now(), clear = () => [], spare = () => null, keep = () => [], room = null } = {}) {
  if (lang && lang !== language()) setLanguage(lang, { pick: false });
  let seen = readSeen(storage);
  let practice = null; // the hints seen during the practice round in progress, or null
  let shown = null; // { key, vars, since, el }
  let last = null; // the last consider() arguments, to think again after reset()
  const round = { id: null, emitted: new Map(), lastSwap: null, partnerSign: false };

  function save() {
    try {
      storage.setItem(STORAGE_KEY, JSON.stringify([...seen]));
    } catch {
      /* storage full or off: the hints are remembered for this page only */
    }
  }

  function markSeen(key) {
    seen.add(key);
    if (practice) practice.add(key);
    save();
  }

  const isSeen = (key) => (practice ? practice.has(key) : seen.has(key));

  function text(key, vars) {
    return words(key === 'contre' && vars && vars.one ? 'contre_one' : key, vars || {});
  }

  // --- what the frames say ------------------------------------------------------------------------------
  function track(view, events) {
    const id = `${view.round}`;
    if (round.id !== id) {
      round.id = id;
      round.emitted = new Map();
      round.lastSwap = null;
      round.partnerSign = false;
    }
    const you = view.you;
    for (const ev of events || []) {
      if (ev.type === 'round_opened' || ev.type === 'dealt' || ev.type === 'reshuffled') {
        round.lastSwap = now();
        if (ev.type !== 'reshuffled') round.emitted = new Map();
      } else if (ev.type === 'swapped') {
        round.lastSwap = now();
      } else if (ev.type === 'emitted' && you) {
        if (ev.seat === you.partner && you.sign && ev.emoji === you.sign) round.partnerSign = true;
        const mine = view.seats && view.seats[ev.seat] && view.seats[ev.seat].team === you.team;
        if (!mine) {
          const counts = round.emitted.get(ev.seat) || new Map();
          counts.set(ev.emoji, (counts.get(ev.emoji) || 0) + 1);
          round.emitted.set(ev.seat, counts);
        }
      }
    }
    if (view.phase === 'play' && round.lastSwap === null) round.lastSwap = now();
  }

  function context(view, previousView) {
    const you = view.you;
    const play = view.phase === 'play' && Boolean(you);
    let repeated = null;
    for (const [seat, counts] of round.emitted) {
      for (const [emoji, n] of counts) if (n >= 2) repeated = { seat, emoji };
    }
    const mySeat = you && view.seats ? view.seats[you.seat] : null;
    const reshuffle = view.reshuffle || {};
    const timing = view.timing || {};
    const prevWait = previousView && previousView.you ? previousView.you.swap_wait : 0;
    return {
      phase: view.phase,
      play,
      ready: Boolean(mySeat && mySeat.ready),
      hand: play && Array.isArray(you.hand) && you.hand.length > 0,
      waiting: play && (you.swap_wait > 0 || prevWait > 0),
      hasCarre: play && Boolean(you.has_carre),
      holdsChannel: play && Boolean(mySeat && mySeat.channel && mySeat.channel.held),
      partnerFlashedSign: round.partnerSign,
      repeated,
      voting: Boolean(you && you.voter && reshuffle.vote),
      idle: play && round.lastSwap !== null && now() - round.lastSwap >= IDLE_MS,
      canReshuffle: play && !reshuffle.done && !reshuffle.vote && !(reshuffle.next_vote_in > 0),
      result: Boolean(you && view.result && (view.phase === 'pause' || view.phase === 'over')),
      seen: { has: isSeen },
      vars: {
        n_swap: timing.swap_cooldown,
        n_emit: timing.emission_period,
        n_vote: timing.vote_length,
        partner: you && view.seats && view.seats[you.partner] ? view.seats[you.partner].name : '',
        sign: you ? you.sign : '',
        repeated,
        names: (view.seats || []).map((s) => s.name),
        oneRival: (view.teams || []).length === 2, // four seats: Contre! needs no team named
      },
    };
  }

  function varsFor(key, c) {
    const v = c.vars;
    const num = (x) => (Number.isFinite(x) ? String(Math.round(x * 10) / 10) : '');
    switch (key) {
      case 'cooldown': return { n: num(v.n_swap) };
      case 'channel': return { n: num(v.n_emit) };
      case 'vote': return { n: num(v.n_vote) };
      case 'partner_sign': return { name: esc(v.partner), sign: esc(v.sign) };
      case 'contre': return v.repeated ? { name: esc(v.names[v.repeated.seat] || ''), emoji: esc(v.repeated.emoji), one: v.oneRival } : {};
      default: return {};
    }
  }

  // --- showing ------------------------------------------------------------------------------------------
  function hide(passed) {
    if (!shown) return;
    if (passed && now() - shown.since >= SEEN_AFTER_MS) markSeen(shown.key);
    glow(null);
    cover(null);
    clearInterval(shown.glance);
    shown.el.remove();
    shown = null;
    if (room) room(0);
  }

  let glowing = null;
  function glow(target) {
    if (glowing === target) return;
    if (glowing) glowing.classList.remove('coach-target');
    glowing = target;
    if (target) target.classList.add('coach-target');
  }

  // The page's text a bubble lies over (data-coach-place="over") is said again in the bubble: hidden meanwhile, so
  // that none of it shows at the bubble's rounded corners.
  let covered = null;
  function cover(zone) {
    if (covered === zone) return;
    if (covered) covered.classList.remove('coach-covered');
    covered = zone;
    if (zone) zone.classList.add('coach-covered');
  }

  function draw() {
    if (!shown) return;
    const { el, key, vars } = shown;
    el.lang = document.documentElement.lang;
    el.querySelector('.coach-label').textContent = text('hint');
    el.querySelector('.coach-text').innerHTML = text(key, vars);
    const ok = el.querySelector('.coach-ok');
    ok.textContent = text('got_it');
    el.querySelector('.coach-x').setAttribute('aria-label', text('close'));
    place();
  }

  function place() {
    if (!shown) return;
    const target = anchor(shown.anchor);
    const { el } = shown;
    el.hidden = false; // measured where it would go
    const at = target && target.isConnected && target.getClientRects().length > 0
      ? placeBubble(el, target, shown.urgent ? { keep, clear, spare, room }
        : { keep: () => keep().concat(clear()), spare, room }) : { side: null };
    if (!at.side) { // its control is gone, or no room covers nothing kept: it waits out of sight
      el.hidden = true;
      shown.since = now(); // "seen" counts the time it was in sight
      glow(null);
      cover(null);
      if (room) room(0);
      return;
    }
    glow(at.glow ? target : null);
    cover(at.side === 'over' && target.dataset.coachPlace === 'over' ? target : null);
  }

  function show(hint, vars) {
    const el = document.createElement('div');
    el.className = 'coach';
    const applied = ensureStyles();
    el.dataset.styling = ''; // until its stylesheet applies (tests wait for it)
    el.setAttribute('role', 'note');
    el.setAttribute('aria-live', 'polite');
    el.dataset.hint = hint.key;
    el.innerHTML = '<div class="coach-head"><span class="coach-label"></span>'
      + '<button type="button" class="coach-x">✕</button></div><p class="coach-text"></p>'
      + '<div class="coach-actions"><button type="button" class="coach-ok"></button></div>';
    const dismiss = () => {
      markSeen(hint.key);
      hide(false); // the next hint waits for the next frame: one at a time, with a breath between
    };
    el.querySelector('.coach-ok').addEventListener('click', dismiss);
    el.querySelector('.coach-x').addEventListener('click', dismiss);
    root.append(el);
    shown = { key: hint.key, anchor: hint.anchor, urgent: hint.urgent, vars, since: now(), el };
    draw();
    // Its size settles when the stylesheet (linked on first use) or a font arrives: place it again then.
    if (typeof ResizeObserver === 'function') {
      const watch = new ResizeObserver(() => { if (shown && shown.el === el) place(); else watch.disconnect(); });
      watch.observe(el);
    }
    // The page under it may still be laying out (a slow phone draws the play screen after the bubble came) or move
    // with no new view: while it shows, a glance every GLANCE_MS at where its control and zones are places it again
    // when they moved.
    let where = geometry(hint.anchor);
    const follow = () => { // true when it moved (and was placed again)
      const here = geometry(hint.anchor);
      if (here === where) return false;
      where = here;
      place();
      return true;
    };
    shown.glance = setInterval(follow, GLANCE_MS);
    // And it comes into sight only once its stylesheet applies (slow Wi-Fi: seconds; unstyled, it spills over the
    // page's controls) and then that has held still for two frames (at most STILL_WAIT_FRAMES): a bubble that
    // appears over the cards and jumps away has covered them.
    el.style.visibility = 'hidden';
    let still = 0;
    let frames = 0;
    const settle = () => {
      if (!shown || shown.el !== el) return;
      still = follow() ? 0 : still + 1;
      frames += 1;
      if (still >= 2 || frames >= STILL_WAIT_FRAMES) el.style.visibility = '';
      else requestAnimationFrame(settle);
    };
    applied.then(() => { delete el.dataset.styling; requestAnimationFrame(settle); });
  }

  function geometry(key) {
    return [anchor(key), ...keep(), ...clear()].map((z) => {
      if (!z || !z.isConnected) return '-';
      const r = z.getBoundingClientRect();
      return `${Math.round(r.left)},${Math.round(r.top)},${Math.round(r.width)},${Math.round(r.height)}`;
    }).join(' ');
  }

  function onResize() { place(); }
  window.addEventListener('resize', onResize);

  const api = {
    consider(view, previousView = null, events = []) {
      if (!view) return null;
      last = [view, previousView, []]; // events are counted once; a re-think must not count them again
      if (view.practice && !practice) practice = new Set();
      else if (!view.practice && practice) practice = null;
      track(view, events);
      const c = context(view, previousView);
      if (shown) {
        const hint = HINTS.find((h) => h.key === shown.key);
        if (!hint.still(c) || !speaks(hint, c)) hide(true);
      }
      const due = HINTS.find((h) => !isSeen(h.key) && speaks(h, c) && h.due(c) && anchor(h.anchor));
      if (due && (!shown || (due.key !== shown.key && HINTS.indexOf(due) < HINTS.findIndex((h) => h.key === shown.key)))) {
        // something more urgent (your partner's sign) takes the place of a calmer hint, which may come back
        hide(true);
        show(due, varsFor(due.key, c));
      } else if (shown) {
        const fresh = varsFor(shown.key, c);
        if (JSON.stringify(fresh) !== JSON.stringify(shown.vars)) {
          shown.vars = fresh;
          draw();
        } else {
          place();
        }
      }
      return shown ? shown.key : null;
    },
    setLang(next) {
      if (next !== language()) setLanguage(next, { pick: false });
      else draw();
    },
    reset() {
      hide(false);
      seen = new Set();
      if (practice) practice = new Set();
      try {
        storage.removeItem(STORAGE_KEY);
      } catch {
        /* nothing remembered anyway */
      }
      round.id = null;
      if (last) api.consider(...last);
    },
    dismissAll() {
      HINTS.forEach((h) => { seen.add(h.key); if (practice) practice.add(h.key); });
      save();
      hide(false);
    },
    get showing() { return shown ? shown.key : null; },
  };
  onLanguageChange(() => draw()); // the hint on screen follows the page's language
  return api;
}

function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

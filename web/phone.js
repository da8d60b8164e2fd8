// The phone controller's composition root (plain ES modules, no build step): it wires the socket, the state, one
// renderer per phase (join, sign, play, reveal, game over), the gestures, keep-awake and the words. Each concern
// lives in its own module under phone/; what the big screen shares with it lives in common/.
import { Link } from './common/socket.js';
import { startLanguage, followTable, onLanguageChange } from './common/i18n.js';
import { S, me, TOKEN_KEY, takeTokenFromUrl, vipSecret, forget } from './phone/state.js';
import { $ } from './phone/dom.js';
import { setLink, send } from './phone/net.js';
import { onMessage, onSocketOpen, setHooks } from './phone/messages.js';
import { renderStatus, renderTop, tickClock } from './phone/top.js';
import { renderJoin, renderWait, setupJoin } from './phone/join.js';
import { renderPlay, setupPlay } from './phone/play.js';
import { later, prefetch } from './phone/later.js';
import { tickModal } from './phone/modal.js';
import { keepAwake, awakeMode } from './phone/awake.js';
import { remoteKey } from './phone/remote-key.js';
import { t } from './phone/strings.js';

takeTokenFromUrl();

const SCREENS = ['join', 'wait', 'sign', 'play', 'watch', 'reveal', 'over'];

// Screens whose body is rebuilt from the view: emptied when they go out of sight (no stale ids, no old result).
const REBUILT = { reveal: 'reveal-body', over: 'over-body', watch: 'watch-body' };

function show(screen) {
  for (const id of SCREENS) {
    const el = $(`screen-${id}`);
    const hide = id !== screen;
    if (hide && !el.hidden && REBUILT[id]) { $(REBUILT[id]).replaceChildren(); forget(id); }
    el.hidden = hide;
  }
  document.body.dataset.screen = screen;
}

function render() {
  renderStatus();
  renderTop();
  const v = S.view;
  const you = me();
  document.body.classList.toggle('paused', !!(v && v.paused));
  if (!v || (!you && !S.watching)) { show('join'); renderJoin(); hostBar(); return; }
  switch (v.phase) {
    case 'lobby':
      if (you) { show('wait'); renderWait(); prefetch('sign'); } else { show('join'); renderJoin(); }
      break;
    case 'sign':
      if (you) { show('sign'); later('sign').then((m) => { if (S.view.phase === 'sign' && me()) { m.renderSign(); drawn(); } }, quiet); }
      else { show('watch'); watch(); }
      break;
    case 'play':
      if (you) { show('play'); renderPlay(); } else { show('watch'); watch(); }
      // fetched during the round, drawn when needed (the page a phone opens stays light)
      for (const name of ['reveal', 'vote', 'sign', 'calls-ask']) prefetch(name);
      break;
    case 'over': show('over'); later('over').then((m) => { if (S.view.phase === 'over') m.renderOver(); }, quiet); break;
    default: show('reveal'); later('reveal').then((m) => { if (!['lobby', 'sign', 'play', 'over'].includes(S.view.phase)) { m.renderReveal(); drawn(); } }, quiet); break;
  }
  vote();
  hostBar();
}

// The host's remote, on every screen: a remote phone that plays no seat runs the table from the join screen.
function hostBar() {
  if (S.host) later('host').then((m) => m.renderHost(), quiet);
  else $('host-bar').hidden = true;
}

let coach = null; // the first-timers' hints (phone/tips.js), fetched with the seat
// A screen drawn by a module fetched on demand (the sign, the reveal): the coach looks again (phone/tips.js).
const drawn = () => document.dispatchEvent(new Event('quatro:overlay'));

let coachAsked = false;
function onView(before, events) {
  // the table's language, unless this phone's player picked one
  followTable(S.table && S.table.settings && S.table.settings.language);
  // The hints are for a seated player: the coach comes with the seat, not with the join screen.
  if (!coachAsked && me()) { coachAsked = true; later('tips').then((m) => { coach = m.coach; }, quiet); }
  if (coach && me()) coach.consider(S.view, before, events);
  if (me() || S.watching) later('announce').then((m) => m.hear(events), quiet); // said to a screen reader
  if (S.rewatch && !me() && S.status === 'open') { S.rewatch = false; send({ type: 'watch' }); }
}

// The reshuffle vote's bar (phone/vote.js, fetched during play), drawn while a vote asks this phone.
let voteShown = false;
function vote(tick = false) {
  const v = S.view;
  if (!voteShown && !(v && v.reshuffle && v.reshuffle.vote && me() && me().voter)) return;
  later('vote').then((m) => {
    if (tick) m.tickVote(); else m.renderVote();
    const shown = !$('vote-bar').hidden;
    if (shown !== voteShown) { voteShown = shown; drawn(); } // the coach's vote hint points at the bar
  }, quiet);
}

// A module the host could not serve (it is restarting): the next state draws again and fetches it again.
const quiet = () => {};

function watch() {
  later('watch').then((m) => { if (S.watching && !me()) m.renderWatch(); }, quiet);
}

window.quatroAwake = awakeMode;

// A long press never opens the browser's menu (the calls are held on purpose); the name field keeps its own.
document.addEventListener('contextmenu', (e) => {
  if (e.target.tagName !== 'INPUT' && !e.target.closest('.selectable')) e.preventDefault();
});
// Any tap while seated (re)arms the screen keep-awake (it needs a user gesture).
document.addEventListener('pointerup', () => { if (me()) keepAwake(); }, { passive: true });

function connect() {
  const link = new Link('/ws/phone', {
    hello: () => {
      const msg = { type: 'hello', token: localStorage.getItem(TOKEN_KEY) || null };
      const vip = vipSecret();
      const remote = remoteKey();
      if (remote) msg.remote = remote; // this phone holds the host's remote (the server's key)
      else if (vip) msg.vip = vip; // a one-time invitation, not taken yet
      return msg;
    },
    onMessage,
    onStatus: (status) => {
      // 'open' is only the socket: the banner stays until the server's first answer to our hello (see onMessage).
      S.status = status === 'open' ? 'syncing' : status;
      if (status === 'open') onSocketOpen();
      renderStatus();
    },
  });
  setLink(link);
  setHooks({ draw: render, view: onView });
  window.quatroLink = link; // for tests and debugging
}

async function boot() {
  await startLanguage(['common', 'phone']);
  setupJoin();
  setupPlay();
  // The picker's module comes after the page (rarely used), but a screen reader may reach the select first: named now.
  $('lang').setAttribute('aria-label', t('language'));
  import('./common/lang-picker.js').then((m) => m.languagePicker($('lang')), quiet);
  onLanguageChange(render); // the coach follows by itself
  $('help').addEventListener('click', () => later('help').then((m) => { m.setHelpHooks({ coach: () => coach }); m.openHelp(); }, quiet));
  render();
  connect(); // the words are here: whatever the server says can be drawn
  // Clocks and countdowns tick locally between server updates (durations are "seconds remaining").
  setInterval(() => {
    tickClock();
    tickModal();
    vote(true);
    const v = S.view;
    if (v && v.phase === 'play' && me() && v.reshuffle && v.reshuffle.next_vote_in) renderPlay();
  }, 250);
}

boot();

// The big screen: the TV view of the table, lobby to winners, and the host's controls. This file only wires
// the parts together (socket → state → renderers, events → effects and sound, clicks → host messages).
// It only ever receives the public table view (R36–R39): hands and signs come from `view.result`, after a round.
import { Link } from './common/socket.js';
import { language, startLanguage, followTable, onLanguageChange } from './common/i18n.js';
import { languagePicker } from './common/lang-picker.js';
import { $, button, teamName, joinList } from './screen/dom.js';
import { store, isHost, remaining } from './screen/state.js';
import { t } from './screen/strings.js';
import { fit } from './screen/layout.js';
import { renderBar, tickClock } from './screen/bar.js';
import { renderSeats, turnOver, pop } from './screen/seats.js';
import { renderCentre, signMiddle, signBelow } from './screen/table.js';
import { renderJoin, lobbyMiddle, loadAttract, renderAttract, replayAttract, hasAttract, attractLang, rulesHref }
  from './screen/lobby.js';
import { storyPart } from './screen/story.js';
import { renderPaused } from './screen/paused.js';
import * as panel from './screen/panel.js';
import { revealMiddle, pauseCorner, renderOver, resultSentence } from './screen/reveal.js';
import { addNotice, clearNotices, renderNotices, expireNotices, voteEvent, renderVote } from './screen/notices.js';
import { animateSwap, burst, clearBursts, callSplash, splashes } from './screen/fx.js';
import * as host from './screen/host.js';
import * as sound from './screen/sound.js';
import { armNewConfirmations } from './common/guard.js';

export { resultSentence };

// The host secret arrives in the URL (#host=…) and leaves it at once: kept for this tab in sessionStorage (a
// reload keeps the host rights), so that the address bar, history and a shared screen never show it.
const SECRET_KEY = 'quatro.screen.host';
function takeSecret() {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('host');
  if (fromHash !== null) {
    sessionStorage.setItem(SECRET_KEY, fromHash);
    history.replaceState(null, '', location.pathname + location.search);
  }
  return sessionStorage.getItem(SECRET_KEY);
}
const hostSecret = takeSecret();
await startLanguage(['common', 'screen', 'attract']); // the words first: every frame is drawn in them

const link = new Link('/ws/screen', {
  hello: () => ({ type: 'hello', host: hostSecret || null, key: host.hostKey() || null }),
  // The host's own TV retries every half second while the host is down (a refused connect on the laptop costs
  // nothing): it is the host's again within 2 s of a restart even on a busy laptop (1 s left only ~1 s to spare).
  maxDelayMs: 500,
  onMessage,
  onStatus: (s) => { store.status = s; renderStatus(); },
});

function send(msg) {
  sound.unlock();
  return link.send(msg);
}
host.connect(send);
panel.connect(send, () => render());
// The host panel's questions (end the game, take a seat away) open where a button was just pressed: their answers
// ignore input for a beat, so that a double click or a double tap never answers them (common/guard.js).
armNewConfirmations($('#panel'), '.panel-confirm');

// The reveal first shows the hands and the centre; after a moment the round's story takes the centre's place.
const STORY_AFTER_MS = 7000;
let storyTimer = null;
let storyOn = false;
function showStory(on) {
  storyOn = on;
  document.body.classList.toggle('story-on', on);
}

function onMessage(msg) {
  if (msg.type === 'state') {
    const before = store.view;
    const view = msg.view;
    store.view = view;
    store.table = msg.table || {};
    followTable(store.table.settings && store.table.settings.language);
    store.receivedAt = performance.now();
    const reveal = view.result && (view.phase === 'pause' || view.phase === 'over');
    const phaseChanged = !before || before.phase !== view.phase;
    if (reveal && before && before.phase === 'play') {
      showStory(false);
      clearTimeout(storyTimer);
      storyTimer = setTimeout(() => { showStory(true); render(); }, STORY_AFTER_MS);
    } else if (!reveal) {
      clearTimeout(storyTimer);
      showStory(false);
    } else if (!before) {
      showStory(true); // a page opened during the pause: the round is over, its story is the news
    }
    render(phaseChanged);
    // Hands turn over once, when the reveal starts — not on every later state of the pause.
    if (reveal && before && before.phase === 'play') turnOver();
    if (before && before.phase !== view.phase) {
      clearNotices();
      clearBursts(); // signals belong to the round in play
    }
    handleEvents(msg.events || []);
    // A page opened (or reloaded) mid-round missed the `dealt` event: the view still says the hands were re-dealt (R6).
    if (!before && view.phase === 'play' && view.redeals > 0 &&
        !(msg.events || []).some((e) => e.type === 'dealt' || e.type === 'reshuffled')) {
      addNotice(`🔄 ${t('redealt', { n: view.redeals })}`, 8000);
    }
  } else if (msg.type === 'vip_link') {
    panel.setVipLink(msg.url);
  } else if (msg.type === 'host_key') {
    host.keepHostKey(msg.key);
  } else if (msg.type === 'error' && msg.code === 'bad_host_secret') {
    host.rightsRefused(); // a banner that stays, with how to get the controls back
  } else if (msg.type === 'error' || msg.type === 'refused') {
    const key = `err_${msg.code || msg.reason}`;
    const text = t(key) !== key ? t(key) : (msg.message || msg.reason || msg.code || 'error');
    addNotice(`⚠ ${text}`, 6000, 'warn');
  }
}

// --- drawing: each renderer patches only what its data changed --------------------------------------------
function render(phaseChanged = false) {
  const view = store.view;
  if (!view) return;
  const body = document.body;
  if (body.dataset.phase !== view.phase) body.dataset.phase = view.phase;
  if (body.classList.contains('is-host') !== isHost()) body.classList.toggle('is-host', isHost());
  if (body.dataset.seats !== String(view.seat_count)) body.dataset.seats = String(view.seat_count);
  renderBar();
  renderJoin();
  host.renderHostBar(); // before the seats: the bar's height decides the room left for the table
  renderSeats(host.seatControls);
  const phase = view.phase;
  const reveal = view.result && (phase === 'pause' || phase === 'over');
  let middle = null;
  let below = null;
  let corner = null;
  if (phase === 'lobby') middle = lobbyMiddle(language());
  else if (phase === 'sign') { middle = signMiddle(t); below = signBelow(t); }
  else if (reveal) {
    middle = revealMiddle();
    const story = phase === 'pause' && storyOn ? storyPart() : null;
    if (story) below = story;
    if (phase === 'pause') corner = pauseCorner(host.nextRoundButton(), [howToButton()]);
  }
  body.classList.toggle('has-story', !!below && reveal);
  renderCentre(middle, below, corner);
  renderOver($('#over'), host.newGameButton());
  renderNotices();
  renderAttract(phaseChanged);
  renderPaused({ resume: () => send({ type: 'resume' }), howTo: hasAttract() ? replayAttract : null, rulesHref });
  panel.render();
  host.renderPowers();
  // The pause covers the table: what lies under it cannot be reached (modal), nor read by a screen reader. The host's
  // panel is a drawer beside the table: the table stays in view and within reach.
  const modal = !!view.paused;
  if ($('#stage').inert !== modal) $('#stage').inert = modal;
  tick();
}

function renderStatus() {
  const banner = $('#offline');
  const off = store.status !== 'open';
  banner.hidden = !off;
  banner.textContent = store.view ? t('offline_banner') : t('connecting');
  document.body.classList.toggle('offline', off);
}

// Anyone at the TV may replay "how to play" during a pause (the teaching module's loop, when it is there).
function howToButton() {
  if (!hasAttract()) return null;
  return { label: t('how_to'), node: () => button(t('how_to'), replayAttract, 'how-to') };
}

// --- countdowns, interpolated locally between states --------------------------------------------------------
function tick() {
  if (!store.view) return;
  const left = tickClock();
  const count = left === null ? '' : String(Math.ceil(left - 1e-6));
  for (const c of document.querySelectorAll('.countdown')) if (c.textContent !== count) c.textContent = count;
  renderVote();
  expireNotices();
}
setInterval(tick, 200);

// --- events: animations, notices, sound ----------------------------------------------------------------------
function handleEvents(events) {
  const view = store.view;
  const randomTeams = events.filter((e) => e.type === 'random_sign_given').map((e) => teamName(e.team));
  if (randomTeams.length) {
    addNotice(t('random_sign', { team: joinList(randomTeams), n: randomTeams.length }), 8000);
  }
  for (const e of events) {
    switch (e.type) {
      case 'swapped': animateSwap(e); break;
      case 'emitted': burst(e.seat, e.emoji); break;
      case 'dealt': if (e.redeals > 0) addNotice(`🔄 ${t('redealt', { n: e.redeals })}`, 8000); break;
      case 'reshuffled': addNotice(`🔀 ${t('reshuffled')}`, 6000); break;
      case 'vote_opened': case 'vote_answered': case 'vote_ended': voteEvent(e); break;
      case 'round_opened': sound.cue('start'); break;
      case 'seat_changed': if (e.kind !== 'empty') pop(e.seat); break; // a new face at the table
      case 'round_ended':
        if (e.result && e.result.end !== 'void') {
          callSplash(e.result);
          setTimeout(() => sound.cue('point'), 900);
        }
        break;
      case 'game_over': setTimeout(() => sound.cue('win'), 1400); break;
      case 'connection_changed': {
        const s = view.seats[e.seat];
        if (s && s.kind === 'human' && view.phase !== 'lobby') {
          addNotice(e.connected ? t('seat_back', { name: s.name }) : `⚠ ${t('seat_offline', { name: s.name })}`, 5000);
        }
        break;
      }
      default: break;
    }
  }
  renderVote();
}

// --- chrome: scale, language, mute ---------------------------------------------------------------------------
fit();
window.addEventListener('resize', () => { fit(); render(); });
// A new host link typed into the address bar: keep its secret and say hello again with it.
window.addEventListener('hashchange', () => { if (location.hash.includes('host=')) { takeSecret(); location.reload(); } });
// The host's pick in the top bar is the table's language too: the phones that picked none follow it.
languagePicker($('#lang'), { onPick: (lang) => { if (isHost()) send({ type: 'settings', language: lang }); } });
$('#mute').addEventListener('click', () => { sound.setMuted(!sound.isMuted()); if (store.view) renderBar(); });
$('#host-menu').addEventListener('click', () => { panel.toggle(); render(); });
document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && panel.isOpen()) { panel.toggle(false); render(); } });
onLanguageChange((lang) => { attractLang(lang); if (store.view) render(); renderStatus(); });
loadAttract(() => { if (store.view) render(); });
for (const ev of ['pointerdown', 'keydown']) document.addEventListener(ev, () => sound.unlock(), { once: true });
renderStatus();

// For tests and debugging: the last view the page drew (public data only), and the call splashes shown.
window.quatroScreen = {
  get view() { return store.view; },
  get table() { return store.table; },
  get status() { return store.status; },
  splashes,
  remaining,
};

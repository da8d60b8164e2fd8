// A reshuffle vote (R27–R31) never stops play: a slim bar in the play screen, above the centre and within the
// thumb's reach, with its rule in view ("Silence means no") and its countdown from the view.
import { S, me, seatName, paused, lang } from './state.js';
import { $, h } from './dom.js';
import { t, loadLaterWords } from './strings.js';
import { send, justSent } from './net.js';
import { styles } from './later.js';

await loadLaterWords(); // its words come with it (web/i18n/<lang>.json, group "phone_later")

await styles('vote'); // its own stylesheet, applied before it draws (the module is fetched during play)

let shownVote = null; // the key of the vote on screen
let endsAt = 0;

export function renderVote() {
  const v = S.view;
  const you = me();
  const vote = v && v.reshuffle && v.reshuffle.vote;
  const bar = $('vote-bar');
  if (!(vote && you && you.voter && v.phase === 'play')) {
    bar.hidden = true;
    shownVote = null;
    return;
  }
  const key = `${lang()}:${v.round}:${vote.requester}:${vote.voters.join(',')}`; // a new language redraws it too
  endsAt = S.at + vote.left * 1000;
  bar.dataset.paused = paused() ? 'true' : 'false';
  bar._frozenLeft = vote.left;
  if (shownVote === key && !bar.hidden) { tickVote(); return; }
  shownVote = key;
  bar.replaceChildren(
    h('div', { class: 'vote-text' },
      h('b', { id: 'vote-title', text: t('vote_title', { name: seatName(vote.requester) }) }),
      h('small', {}, h('span', { id: 'vote-rule', text: t('vote_rule') }), ' · ', h('span', { id: 'vote-secs' }))),
    h('div', { class: 'vote-actions' },
      h('button', { type: 'button', class: 'btn ghost', 'data-action': 'refuse', onclick: () => answer(false) }, t('refuse')),
      h('button', { type: 'button', class: 'btn primary', 'data-action': 'accept', onclick: () => answer(true) }, t('accept'))),
    h('div', { class: 'vote-count', 'aria-hidden': 'true' }, h('span')));
  bar.hidden = false;
  tickVote();
}

function answer(accept) {
  if (justSent('answer_vote')) return;
  send({ type: 'answer_vote', accept }, { anchor: $('vote-bar').querySelector(`[data-action="${accept ? 'accept' : 'refuse'}"]`) });
}

export function tickVote() {
  const bar = $('vote-bar');
  if (bar.hidden || !S.view) return;
  const total = (S.view.timing || {}).vote_length;
  const secs = bar.dataset.paused === 'true' ? bar._frozenLeft : Math.max(0, (endsAt - performance.now()) / 1000);
  const frac = total > 0 ? Math.max(0, Math.min(1, secs / total)) : 0;
  bar.style.setProperty('--frac', String(frac));
  const out = bar.querySelector('#vote-secs');
  if (out) out.textContent = `${Math.ceil(secs)} s`;
}

export function hideVote() {
  $('vote-bar').hidden = true;
  shownVote = null;
}

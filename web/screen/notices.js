// The notice line in the middle of the table: brief news (re-deal, random signs, a seat offline) and the
// reshuffle vote (R28) as it runs — who asked, who said yes, who is still to answer, the time left — then how
// it ended, with the name of whoever said no or stayed silent.
import { $, el, patch, teamText, setText } from './dom.js';
import { store, remaining, seatName } from './state.js';
import { t } from './strings.js';

const notices = []; // {id, text, until, kind}
let seq = 0;

export function addNotice(text, ms = 6000, kind = '') {
  notices.push({ id: ++seq, text, until: performance.now() + ms, kind });
  while (notices.length > 2) notices.shift();
  renderNotices();
}

export function clearNotices() {
  notices.length = 0;
  renderNotices();
}

export function renderNotices() {
  const box = $('#notice-list');
  const now = performance.now();
  for (let i = notices.length - 1; i >= 0; i--) if (notices[i].until <= now) notices.splice(i, 1);
  // Keep the elements already shown (their entry animation plays once), add the new, drop the old.
  const keep = new Set(notices.map((n) => String(n.id)));
  for (const node of [...box.children]) if (!keep.has(node.dataset.id)) node.remove();
  for (const n of notices) {
    if (!box.querySelector(`[data-id="${n.id}"]`)) {
      const node = el('div', `notice ${n.kind}`);
      node.append(teamText(n.text));
      node.dataset.id = String(n.id);
      box.append(node);
    }
  }
}

export function expireNotices() {
  const now = performance.now();
  if (notices.some((n) => n.until <= now)) renderNotices();
}

// --- the vote ---------------------------------------------------------------------------------------
// The running vote comes from the view (requester, voters, accepted, left); a "no" ends it at once, so who said
// no is only in the event: kept here with the last tally, shown with the result for a few seconds.
let lastVote = null; // {requester, voters, accepted, refused}
let ended = null; // {vote, passed, why, until}

export function voteEvent(e) {
  const v = store.view.reshuffle && store.view.reshuffle.vote;
  if (e.type === 'vote_opened') {
    lastVote = { requester: e.requester, voters: [...e.voters], accepted: [], refused: null };
    ended = null;
  } else if (e.type === 'vote_answered' && lastVote) {
    if (e.accept) { if (!lastVote.accepted.includes(e.seat)) lastVote.accepted.push(e.seat); }
    else lastVote.refused = e.seat;
  } else if (e.type === 'vote_ended') {
    if (e.why === 'round_over') { lastVote = null; ended = null; return; }
    const vote = lastVote || (v ? { ...v, refused: null } : null);
    if (vote) ended = { vote, passed: e.passed, why: e.why, until: performance.now() + 6000 };
    lastVote = null;
  }
}

export function renderVote() {
  const box = $('#vote');
  const view = store.view;
  const running = view.phase === 'play' && view.reshuffle && view.reshuffle.vote;
  if (running) {
    lastVote = { requester: running.requester, voters: running.voters, accepted: running.accepted,
      refused: lastVote ? lastVote.refused : null };
    ended = null;
  }
  if (ended && (ended.until <= performance.now() || view.phase !== 'play')) ended = null;
  const vote = running ? lastVote : ended ? ended.vote : null;
  box.hidden = !vote;
  if (!vote) { box.__sig = ''; return; }
  const answers = vote.voters.map((s) => [s, vote.accepted.includes(s) ? 'yes' : vote.refused === s ? 'no' : 'wait']);
  const head = running ? 'running' : `${ended.passed}|${ended.why}`;
  patch(box, JSON.stringify([vote.requester, answers, head, document.documentElement.lang]), () => {
    box.replaceChildren();
    const line = el('div', 'vote-head');
    if (running) {
      line.append(el('span', 'vote-ask', `🔀 ${t('vote_asks', { name: seatName(vote.requester) })}`),
        el('span', 'vote-left', ''));
    } else {
      let text = ended.passed ? t('vote_passed') : t('vote_failed');
      const silent = answers.filter(([, a]) => a === 'wait').map(([s]) => seatName(s));
      if (!ended.passed && vote.refused !== null && vote.refused !== undefined) {
        text = t('vote_refused_by', { name: seatName(vote.refused) });
      } else if (!ended.passed && ended.why === 'silence' && silent.length) {
        text = t('vote_silent', { names: silent.join(', ') });
      }
      line.append(el('span', 'vote-ask', text));
    }
    box.classList.toggle('ended', !running);
    const tally = el('div', 'vote-tally');
    for (const [s, a] of answers) {
      const chip = el('span', `voter ${a}`);
      chip.dataset.seat = String(s);
      chip.append(el('span', 'mark', a === 'yes' ? '✓' : a === 'no' ? '✗' : '…'), el('span', 'vname', seatName(s)));
      chip.title = t(`vote_${a}`);
      tally.append(chip);
    }
    box.append(line, tally);
  });
  if (running) {
    const left = box.querySelector('.vote-left');
    if (left) setText(left, t('vote_left', { s: Math.ceil(remaining(running.left) - 1e-6) }));
  }
}

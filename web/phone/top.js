// The top strip: the team sign (small, always there in play), the scores, the round clock, help and language; and
// the connection banner under it.
import { S, me, left, team, paused } from './state.js';
import { $, h } from './dom.js';
import { t } from './strings.js';
import { TEAM_SHAPES } from '../common/teams.js';
import { fmtClock, warningAt } from '../common/clock.js';

export function renderStatus() {
  const el = $('status');
  const offline = S.status !== 'open';
  el.hidden = !offline;
  el.textContent = S.everOnline ? t('reconnecting') : t('connecting');
  document.body.classList.toggle('offline', offline);
}

export function renderTop() {
  const v = S.view;
  const you = me();
  $('centre').setAttribute('aria-label', t('centre_group'));
  $('help').setAttribute('aria-label', t('help_label'));
  const bar = $('paused-bar');
  bar.hidden = !(v && v.paused);
  if (v && v.paused) bar.textContent = v.paused.by === 'restart' ? t('paused_restart') : t('paused');
  const sign = $('top-sign');
  const showSign = !!(you && you.sign && v.phase === 'play');
  sign.hidden = !showSign;
  if (showSign) {
    sign.textContent = you.sign;
    sign.setAttribute('aria-label', t('your_sign', { sign: you.sign }));
    sign.setAttribute('role', 'img');
  }
  const scores = $('scores');
  if (v && (you || S.watching) && v.practice) {
    // a practice round scores nothing: its place says so instead of showing 0–0
    scores.setAttribute('aria-label', t('practice_label'));
    scores.replaceChildren(h('span', { class: 'practice-pill', id: 'practice-pill', text: t('practice_short') }));
  } else if (v && (you || S.watching) && v.phase !== 'lobby') {
    scores.setAttribute('aria-label', t('scores_label'));
    scores.replaceChildren(...v.teams.map((tm) => h('span', {
      class: `score team-${tm.team}${you && tm.team === you.team ? ' mine' : ''}`,
      'aria-label': t('team_score', { team: team(tm.team), score: tm.score }),
    }, h('b', { class: 'shape', text: TEAM_SHAPES[tm.team] }), String(tm.score))));
  } else {
    scores.replaceChildren();
  }
  tickClock();
}

export function tickClock() {
  const v = S.view;
  const el = $('clock');
  const showClock = !!(v && (me() || S.watching) && v.clock != null && v.phase === 'play');
  el.hidden = !showClock;
  const frozen = paused();
  if (showClock) {
    const s = frozen ? v.clock : left(v.clock); // paused: the times as they stood
    el.textContent = fmtClock(s);
    // The warning at the same share of the round as the big screen's (both read the view's round length).
    el.classList.toggle('late', s <= warningAt(v.timing));
    el.classList.toggle('frozen', frozen);
    el.setAttribute('aria-label', t('clock_label'));
  }
  // Countdowns keep the moment they end (performance.now() ms), so a screen that is not rebuilt stays right.
  for (const c of document.querySelectorAll('[data-ends]')) {
    if (v && v.clock != null && !frozen) c.dataset.ends = String(S.at + v.clock * 1000);
    const s = frozen && v && v.clock != null ? v.clock : Math.max(0, (Number(c.dataset.ends) - performance.now()) / 1000);
    c.textContent = String(Math.ceil(s));
  }
}

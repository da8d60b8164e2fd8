// The reveal between rounds (R26), loaded during the first round (later('reveal')): what happened in one sentence, every hand with its carré, each team's sign, the
// scores and the next round's countdown. A spectator sees the same, without "your team".
import { S, me, team, teamName, seatName, left, changed } from './state.js';
import { $, h, miniHand, sentence } from './dom.js';
import { t, loadLaterWords } from './strings.js';
import { TEAM_SHAPES } from '../common/teams.js';
import { renderStory } from './story.js';
import { offerSeats } from './offer.js';
import { styles } from './later.js';
import { joinList } from '../common/i18n.js';

await loadLaterWords(); // its words come with it

await styles('reveal'); // its own stylesheet, applied before it draws

const NOBODY = '\u0001'; // where the scoring teams go in a result sentence

/** Who held `seat` in the round `r` tells of (its own record: a seat taken over since keeps its old name there). */
export function playedBy(r, seat) {
  return (r && r.names && r.names[seat]) || seatName(seat);
}

export function resultSentence(r) {
  const scorers = r.scorers || [];
  const teams = joinList(scorers.map(team));
  const n = scorers.length;
  const caller = r.caller != null ? playedBy(r, r.caller) : '';
  let said;
  if (r.end === 'quatro') {
    said = t(r.correct ? 'result_quatro_ok' : 'result_quatro_bad', { caller, target: playedBy(r, r.target), teams: NOBODY, n });
  } else if (r.end === 'contre') {
    // who held the carré, by name (the accused team's seats holding one when the round ended)
    const holders = (r.carres || []).filter((seat) => S.view.teams[r.target].seats.includes(seat));
    const holder = joinList(holders.map((seat) => playedBy(r, seat)));
    said = t(r.correct ? 'result_contre_ok' : 'result_contre_bad', { caller, accused: team(r.target), holder, teams: NOBODY, n });
  } else {
    return t('result_void');
  }
  // A practice round scores nobody: the sentence's last part (who scores) becomes "practice: no point".
  const cut = said.indexOf(NOBODY);
  if (!scorers.length && cut >= 0) return `${said.slice(0, cut).trimEnd()} ${t('result_practice')}`;
  return said.replace(NOBODY, teams);
}

/** Every team's label, for painting them in their colour inside a sentence. */
export function teamLabels() {
  return (S.view ? S.view.teams : []).map((tm) => [team(tm.team), tm.team]);
}

export function scoreTable(r) {
  const v = S.view;
  const you = me();
  return h('div', { class: 'score-table' }, v.teams.map((tm) => h('div', {
    class: `score-row team-${tm.team}${you && tm.team === you.team ? ' mine' : ''}${r && r.scorers.includes(tm.team) ? ' scored' : ''}`,
  },
  h('span', { class: 'team-tag' }, h('b', { class: 'shape', text: TEAM_SHAPES[tm.team] }), ' ', teamName(tm.team),
    you && tm.team === you.team ? h('small', { text: ` (${t('your_team')})` }) : null),
  r && r.signs ? h('span', { class: 'emoji reveal-sign', role: 'img', 'aria-label': `${t('signs_were')}: ${r.signs[tm.team] || '?'}`, text: r.signs[tm.team] || '?' }) : null,
  h('span', { class: 'big-score', text: String(tm.score) }),
  r ? h('div', { class: 'hands' }, tm.seats.map((i) => h('div', { class: 'hand-line' },
    h('span', { class: 'who', title: playedBy(r, i), text: playedBy(r, i) }), miniHand(r.hands[i], r.carres.includes(i))))) : null)));
}

export function renderReveal() {
  const v = S.view;
  const you = me();
  const r = v.result;
  if (!changed('reveal', v.phase, r, v.teams.map((x) => x.score), v.seats.map((s) => [s.name, s.kind]), !!v.paused,
    you && you.seat, S.watching, S.table.offered)) return;
  $('screen-reveal').className = `screen${you ? ` team-${you.team}` : ''}`;
  const kids = [];
  if (v.practice || (r && r.practice)) kids.push(h('p', { class: 'practice-tag', text: t('practice_round') }));
  if (r) {
    kids.push(h('p', { class: 'eyebrow', text: t('round_n', { n: r.round }) }),
      h('p', { class: 'result', id: 'result-sentence' }, sentence(resultSentence(r), teamLabels())));
  }
  if (r && r.story) kids.push(renderStory(r));
  kids.push(scoreTable(r));
  if (v.clock != null) {
    kids.push(h('div', { class: 'next' }, h('span', { text: t('next_round_in') }),
      h('b', { class: 'countdown-inline' }, h('span', { 'data-ends': String(S.at + v.clock * 1000), text: String(Math.ceil(left(v.clock))) }), ' s')));
  }
  if (!you) kids.push(offerSeats()); // a spectator may take a seat the table offers between rounds
  $('reveal-body').replaceChildren(...kids);
}

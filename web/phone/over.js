// Game over (R34): who won, the last round's reveal, the scores; the host starts a new game.
import { S, me, team, seatName, changed } from './state.js';
import { $, h, sentence } from './dom.js';
import { t, loadLaterWords } from './strings.js';
import { resultSentence, scoreTable, teamLabels } from './reveal.js';
import { styles } from './later.js';

await loadLaterWords(); // its words come with it

await styles('reveal'); // its own stylesheet, applied before it draws

export function renderOver() {
  const v = S.view;
  const you = me();
  const r = v.result;
  if (!changed('over', r, v.teams.map((x) => x.score), v.winners, v.seats.map((s) => s.name), you && you.seat,
    v.recap, v.awards, v.ended_by)) return;
  $('screen-over').className = `screen${you ? ` team-${you.team}` : ''}`;
  const winners = v.winners || [];
  const won = !!you && winners.includes(you.team);
  const kids = [
    h('h1', { class: 'over-title', text: t('game_over') }),
    h('p', { class: `winners${won ? ' won' : ''}`, id: 'over-winners' },
      v.ended_by === 'host' ? sentence(endedByHost(v), teamLabels())
        : won ? t('you_won') : sentence(t('winners', { teams: winners.map(team).join(' & '), n: winners.length }), teamLabels())),
  ];
  if (r) {
    kids.push(h('p', { class: 'eyebrow', text: t('round_n', { n: r.round }) }),
      h('p', { class: 'result', id: 'result-sentence' }, sentence(resultSentence(r), teamLabels())));
  }
  kids.push(scoreTable(r));
  if (Array.isArray(v.awards) && v.awards.length) {
    kids.push(h('ul', { class: 'awards' }, v.awards.map((a) => h('li', { class: 'award' },
      h('b', { text: t(`award_${a.award}`) }), ' ', h('span', { class: 'nm', text: a.name || seatName(a.seat) })))));
  }
  if (Array.isArray(v.recap) && v.recap.length) {
    // How each point was won, one line a round (the TV shows the long story).
    kids.push(h('ol', { class: 'recap', id: 'recap' }, v.recap.map((e) => h('li', { class: `recap-row how-${e.how}` },
      h('span', { class: 'r', text: t('round_n', { n: e.round }) }),
      h('span', { class: 'how' }, sentence(t(`how_${e.how}`, {
        caller: e.caller == null ? '' : (e.names && e.names[e.caller]) || seatName(e.caller),
        teams: (e.scorers || []).map(team).join(' & ') || '—',
      }), teamLabels()))))));
  }
  kids.push(h('p', { class: 'waiting pulse', id: 'over-next', text: t('waiting_new_game') }));
  $('over-body').replaceChildren(...kids);
}

// The host ended the game early: say so, and who led — the view's winners, the teams at the best score (R35).
function endedByHost(v) {
  const leaders = v.winners || [];
  if (!leaders.length) return t('ended_none');
  const n = v.teams[leaders[0]].score;
  return t(leaders.length > 1 ? 'ended_level' : 'ended_led', { teams: leaders.map(team).join(' & '), n });
}

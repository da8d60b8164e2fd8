// The reveal (R26) and the game's end (R34–R35): one sentence telling the room what happened and who scored,
// the countdown to the next round, and the game-over box with the final scores.
import { TEAM_SHAPES } from '../common/teams.js';
import { language } from '../common/i18n.js';
import { el, patch, teamText, teamName, teamAfter, teamWord, joinList } from './dom.js';
import { store, playedBy, timing } from './state.js';
import { t } from './strings.js';
import { recapList, awardList } from './story.js';

function fourOf(hand) {
  const counts = {};
  for (const c of hand || []) counts[c.rank] = (counts[c.rank] || 0) + 1;
  return Object.keys(counts).find((r) => counts[r] >= 4) || null;
}

// "four kings": the rank's plural noun from the catalog (rank_K).
const fourWords = (rank) => t('four_of', { rank: t(`rank_${rank}`) });

// A duration as the rules state it at this table (the view's timing), in words: "3 minutes", "90 seconds".
export function durationWords(seconds) {
  const s = Math.round(seconds);
  if (s >= 60 && s % 60 === 0) return t('minutes', { n: s / 60 }); // seconds in a minute: not a rule duration
  return t('seconds', { n: s });
}

// One sentence telling the room what happened and who scored (R22, R24, R32).
export function resultSentence(r) {
  const teams = joinList((r.scorers || []).map((team) => t('team', { team: teamAfter(team) })));
  // A practice round scores nothing: say so rather than "+1" for nobody.
  const scorers = r.practice || !teams ? t('practice_no_point') : t('scored', { teams });
  if (r.end === 'void') return t('res_void', { length: durationWords(timing().round_length || 0) });
  if (r.end === 'quatro') {
    const rank = fourOf(r.hands[r.target]);
    const what = rank ? fourWords(rank) : t('no_carre');
    return t('res_quatro', { caller: playedBy(r, r.caller), target: playedBy(r, r.target), what, scorers });
  }
  // Contre: the accused team is `target`.
  const members = store.view.seats.filter((s) => s.team === r.target).map((s) => s.seat);
  let what = t('no_carre');
  for (const seat of members) {
    const rank = fourOf(r.hands[seat]);
    if (rank) { what = t('has_four', { name: playedBy(r, seat), what: fourWords(rank) }); break; }
  }
  return t('res_contre', { caller: playedBy(r, r.caller), team: teamAfter(r.target), what, scorers });
}

export function revealMiddle() {
  const r = store.view.result;
  const text = resultSentence(r);
  return {
    sig: `reveal|${r.round}|${text}`,
    draw(node) {
      const sentence = el('p', `sentence end-${r.end}`);
      sentence.append(teamText(text));
      node.append(sentence);
    },
  };
}

// The corner of the pause: the host's "Next round now" (the countdown itself is the top bar's clock).
export function pauseCorner(next, extra = []) {
  const buttons = [next, ...extra].filter(Boolean);
  if (!buttons.length) return null;
  return {
    sig: `pause|${buttons.map((b) => b.label).join('|')}`,
    draw(node) {
      const row = el('div', 'pause-row');
      for (const b of buttons) row.append(b.node());
      node.append(row);
    },
  };
}

// Game over: the winners and the final scores, and (when the view carries them) the game's story — the recap
// of every round and the awards — on a second page; the box turns its pages by itself, or on a tab.
let overPage = 'scores';
let turner = null;
let redraw = () => {};

function showPage(page) {
  overPage = page;
  redraw();
}

// `newGame`: the host's "New game" button node factory, or null.
export function renderOver(box, newGame) {
  const view = store.view;
  box.hidden = view.phase !== 'over';
  const winners = view.winners || [];
  const story = view.phase === 'over' && ((view.recap && view.recap.length) || (view.awards && view.awards.length));
  if (view.phase !== 'over' || !story) { clearInterval(turner); turner = null; overPage = 'scores'; }
  else if (!turner) turner = setInterval(() => showPage(overPage === 'scores' ? 'story' : 'scores'), 12000);
  redraw = () => renderOver(box, newGame);
  const sig = view.phase !== 'over' ? '' :
    JSON.stringify([winners, view.teams.map((x) => x.score), view.result && view.result.round, language(), !!newGame,
      view.recap, view.awards, overPage, view.ended_by]);
  patch(box, sig, () => {
    box.replaceChildren();
    if (view.phase !== 'over') return;
    box.dataset.page = story ? overPage : 'scores';
    box.append(el('div', 'over-title', t(view.ended_by === 'host' ? 'over_title_host' : 'over_title')));
    const names = joinList(winners.map((w) => teamName(w)));
    const head = el('h2', 'over-winners');
    head.append(teamText(view.ended_by === 'host' ? endedByHost(view, names)
      : winners.length > 1 ? t('wins_many', { teams: names }) : t('wins_one', { teams: names })));
    box.append(head);
    if (story) {
      const tabs = el('div', 'over-tabs');
      for (const [page, label] of [['scores', t('over_scores')], ['story', t('over_story')]]) {
        const b = el('button', `over-tab tab-${page}${overPage === page ? ' on' : ''}`, label);
        b.type = 'button';
        b.addEventListener('click', () => { clearInterval(turner); turner = null; showPage(page); });
        tabs.append(b);
      }
      box.append(tabs);
    }
    if (story && overPage === 'story') {
      const cols = el('div', 'over-story');
      if (view.recap && view.recap.length) cols.append(recapList(view.recap));
      if (view.awards && view.awards.length) cols.append(awardList(view.awards));
      box.append(cols);
    } else {
      if (view.result) {
        const last = el('p', 'over-last');
        last.append(teamText(resultSentence(view.result)));
        box.append(last);
      }
      const list = el('div', 'final-scores');
      const sorted = [...view.teams].sort((a, b) => b.score - a.score);
      for (const team of sorted) {
        const row = el('div', `final team-${team.team}` + (winners.includes(team.team) ? ' winner' : ''));
        row.append(el('span', 'shape', TEAM_SHAPES[team.team]), el('span', 'tname', teamWord(team.team)),
          el('span', 'members', view.seats.filter((s) => s.team === team.team).map((s) => s.name).join(' · ')),
          el('span', 'points', String(team.score)));
        list.append(row);
      }
      box.append(list);
    }
    if (newGame) box.append(newGame());
  });
}

// The host ended the game early: say so, and who led — the view's winners, the teams at the best score (R35).
function endedByHost(view, names) {
  const winners = view.winners || [];
  if (!winners.length) return t('ended_none');
  const n = view.teams[winners[0]].score;
  return t(winners.length > 1 ? 'ended_level' : 'ended_led', { teams: names, n });
}

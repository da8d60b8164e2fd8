// The round's story at the reveal (R39: only once the round has ended, from `result.story`): a timeline by seat
// of every channel take and release, every emission marked the team's true sign or a decoy, the swaps, when a
// carré formed, and who called what on whom. At game over: the recap of every round and the game's awards.
import { TEAM_SHAPES } from '../common/teams.js';
import { el, teamName, joinList } from './dom.js';
import { store, playedBy } from './state.js';
import { t } from './strings.js';
import { formatNumber } from '../common/i18n.js';

const secs = (x) => formatNumber(Math.round(x * 10) / 10, 1);

// {sig, draw} for the table's middle: the timeline of the last round, or null when the view has no story.
export function storyPart() {
  const r = store.view.result;
  const story = r && r.story;
  if (!story || !story.events) return null;
  return {
    sig: `story|${r.round}|${story.events.length}|${document.documentElement.lang}`,
    draw(node) {
      // drawn once to measure its lanes, then again with flashes too close to read apart gathered into runs
      node.append(timeline(story, r));
      const lane = node.querySelector('.story-lane');
      if (lane && lane.clientWidth) node.replaceChildren(timeline(story, r, lane.clientWidth));
    },
  };
}

// An emission's mark is about this wide (stage px): closer flashes of one seat would pile up unreadably.
const EMIT_MARK_PX = 58;

export function timeline(story, r, laneWidth = 0) {
  const view = store.view;
  const events = story.events;
  const length = Math.max(story.length || 0, ...events.map((e) => e.t), 1);
  const box = el('div', 'story');
  box.append(el('div', 'story-title', t('story_title')));
  const rows = el('div', 'story-rows');
  const at = (x) => `${(x / length) * 100}%`;
  for (const s of view.seats) {
    const row = el('div', `story-row team-${s.team}`);
    row.dataset.seat = String(s.seat);
    row.append(el('span', 'story-name', `${TEAM_SHAPES[s.team]} ${playedBy(r, s.seat)}`));
    const lane = el('div', 'story-lane');
    const mine = events.filter((e) => e.seat === s.seat);
    // The channel held: from each take to the next release (or the round's end).
    let heldFrom = null;
    for (const e of mine) {
      if (e.kind === 'take') heldFrom = e.t;
      if (e.kind === 'release' && heldFrom !== null) { lane.append(held(heldFrom, e.t, at)); heldFrom = null; }
    }
    if (heldFrom !== null) lane.append(held(heldFrom, length, at));
    const marks = mine.map((e) => mark(e, at));
    gatherRuns(mine, marks, laneWidth ? (EMIT_MARK_PX / laneWidth) * length : 0, at);
    lane.append(...marks);
    row.append(lane);
    rows.append(row);
  }
  box.append(rows);
  const axis = el('div', 'story-axis');
  // a long legend wraps between its items, never inside one ("★" at a line's end, "carré" on the next)
  const legend = el('span', 'legend');
  t('legend').split(' · ').forEach((item, i) => legend.append(...(i ? [' · '] : []), el('span', '', item)));
  axis.append(el('span', '', t('story_s', { t: 0 })), legend, el('span', '', t('story_s', { t: secs(length) })));
  box.append(axis);
  return box;
}

// Flashes of one seat closer than `gap` seconds apart make one run: its first mark shows every emoji of it with
// its count ("🐙 ×12 ✓") over a bar from the first flash to the last; the others stay (each event keeps its mark,
// with its time and verdict) but are not drawn.
function gatherRuns(events, marks, gap, at) {
  if (!gap) return;
  let run = [];
  const close = () => {
    if (run.length > 1) {
      const [first, last] = [run[0], run[run.length - 1]];
      const counts = new Map();
      for (const i of run) {
        const e = events[i];
        const c = counts.get(e.emoji) || { n: 0, sign: e.sign };
        c.n += 1;
        counts.set(e.emoji, c);
      }
      const m = marks[first];
      m.classList.add('run');
      m.style.width = `calc(${at(events[last].t)} - ${at(events[first].t)})`;
      if (parseFloat(at(events[first].t)) > 50) { // late in the round: drawn back from its last flash, in the lane
        m.classList.add('from-end');
        m.style.left = at(events[last].t);
      }
      m.replaceChildren(...[...counts].flatMap(([emoji, c]) => [el('span', 'emoji', emoji),
        el('span', 'count', t('story_times', { n: c.n })), el('span', `verdict ${c.sign ? 'sign' : 'decoy'}`, c.sign ? '✓' : '✗')]));
      m.title = [...counts].map(([emoji, c]) => `${emoji} ×${c.n} — ${c.sign ? t('story_sign') : t('story_decoy')}`).join(' · ');
      for (const i of run.slice(1)) marks[i].classList.add('in-run');
    }
    run = [];
  };
  events.forEach((e, i) => {
    if (e.kind !== 'emit') return;
    if (run.length && e.t - events[run[run.length - 1]].t >= gap) close();
    run.push(i);
  });
  close();
}

function held(from, to, at) {
  const bar = el('span', 'story-held');
  bar.style.left = at(from);
  bar.style.width = `calc(${at(to)} - ${at(from)})`;
  return bar;
}

function mark(e, at) {
  let text = '';
  let cls = `story-mark kind-${e.kind}`;
  let title = '';
  if (e.kind === 'emit') {
    text = e.emoji || '';
    cls += e.sign ? ' sign' : ' decoy';
    title = `${e.emoji} — ${e.sign ? t('story_sign') : t('story_decoy')}`;
  } else if (e.kind === 'take') { text = '▸'; title = t('story_take'); }
  else if (e.kind === 'release') { text = '◂'; title = t('story_release'); }
  else if (e.kind === 'swap') { text = '·'; title = t('story_swap'); }
  else if (e.kind === 'carre') { text = '★'; title = t('story_carre'); }
  else if (e.kind === 'call') {
    text = e.call === 'contre' ? t('story_call_contre', { team: teamName(e.team) }) : t('story_call_quatro');
    text = `📣 ${text}`;
    cls += e.correct === false ? ' wrong' : e.correct ? ' right' : '';
    // the label ends at its moment; a call early in the round would then spill over the seat's name: it starts there
    if (parseFloat(at(e.t)) < 50) cls += ' after';
    title = text;
  }
  const m = el('span', cls);
  m.dataset.kind = e.kind;
  m.dataset.t = String(e.t);
  if (e.kind === 'emit') {
    m.dataset.sign = e.sign ? 'true' : 'false';
    m.append(el('span', 'emoji', text), el('span', 'verdict', e.sign ? '✓' : '✗'));
  } else {
    m.textContent = text;
  }
  m.style.left = at(e.t);
  m.title = `${title} · ${t('story_s', { t: secs(e.t) })}`;
  return m;
}

// --- game over ---------------------------------------------------------------------------------------
export function recapList(recap) {
  const box = el('div', 'recap');
  box.append(el('div', 'recap-title', t('recap_title')));
  for (const r of recap) {
    const teams = joinList((r.scorers || []).map((x) => teamName(x)));
    const how = r.how === 'void' ? t('how_void')
      : t(`how_${r.how}`, { caller: playedBy(r, r.caller), team: r.end === 'contre' ? teamName(r.target) : '' });
    const row = el('div', 'recap-row');
    row.dataset.round = String(r.round);
    row.append(el('span', 'recap-round', `${r.round}`), el('span', 'recap-how', how),
      el('span', 'recap-points', teams ? t('recap_points', { teams }) : t('recap_no_point')));
    box.append(row);
  }
  return box;
}

// What an award was won with, from the view's figures ("2 right Contres", "1.4 s after the carré").
function awardDetail(award, d) {
  switch (award) {
    case 'sharpest_reader': return t('award_detail_sharpest_reader', { n: d.contres });
    case 'boldest_decoy': return d.baited ? t('award_detail_boldest_decoy_baited', { n: d.baited })
      : t('award_detail_boldest_decoy_flashed', { n: d.decoys });
    case 'fastest_quatro': return t('award_detail_fastest_quatro', { seconds: formatNumber(d.seconds, 1) });
    case 'best_contre': return t('award_detail_best_contre', { round: d.round });
    default: return '';
  }
}

export function awardList(awards) {
  const box = el('div', 'awards');
  box.append(el('div', 'recap-title', t('awards_title')));
  for (const a of awards) {
    const row = el('div', `award team-${store.view.seats[a.seat] ? store.view.seats[a.seat].team : 0}`);
    row.dataset.award = a.award;
    row.append(el('span', 'award-name', t(`award_${a.award}`)), el('span', 'award-who', a.name || playedBy(null, a.seat)),
      el('span', 'award-detail', awardDetail(a.award, a.detail || {})));
    box.append(row);
  }
  return box;
}

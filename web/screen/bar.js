// The top bar: round, points to win, the round clock, the scores (colour + shape + name + number), the house
// rules in force, how many watch, and the mute and language buttons.
import { TEAM_SHAPES } from '../common/teams.js';
import { language } from '../common/i18n.js';
import { warningAt } from '../common/clock.js';
import { $, el, patch, setText, teamName, teamWord, fmtClock } from './dom.js';
import { store, remaining, timing } from './state.js';
import { t } from './strings.js';
import * as sound from './sound.js';

export function renderBar() {
  const view = store.view;
  setText($('#round'), view.phase === 'lobby' ? t('lobby') : t('round', { n: view.round }));
  setText($('#to-win'), t('to_win', { n: view.winning_score }));
  renderScores(view);
  renderHouse();
  const watching = store.table.watching;
  const w = $('#watching');
  w.hidden = !watching;
  if (watching) setText(w, t('watching', { n: watching }));
  renderTools();
}

function renderScores(view) {
  const box = $('#scores');
  const scorers = view.phase === 'pause' && view.result ? view.result.scorers || [] : [];
  // One chip per team, kept: a new score changes its number, nothing else.
  const teams = view.teams.map((x) => x.team).join(',');
  patch(box, `${teams}|${language()}`, () => {
    box.replaceChildren();
    for (const team of view.teams) {
      const s = el('div', `score team-${team.team}`);
      s.dataset.team = String(team.team);
      s.append(el('span', 'shape', TEAM_SHAPES[team.team]), el('span', 'tname', teamWord(team.team)),
        el('span', 'points', ''), el('span', 'extra'));
      box.append(s);
    }
  });
  for (const team of view.teams) {
    const s = box.querySelector(`.score[data-team="${team.team}"]`);
    setText(s.querySelector('.points'), String(team.score));
    s.classList.toggle('winner', (view.winners || []).includes(team.team));
    const scored = scorers.includes(team.team);
    s.classList.toggle('scored', scored);
    const dice = !!team.random_sign && view.phase === 'play';
    patch(s.querySelector('.extra'), `${dice}|${scored}|${language()}`, (x) => {
      x.replaceChildren();
      if (dice) {
        // in words: a marker drawn from the 24 signs would read as this team's sign
        const d = el('span', 'random-tag', t('random_tag'));
        d.title = t('random_sign', { team: teamName(team.team) });
        x.append(d);
      }
      if (scored) x.append(el('span', 'plus', '+1'));
    });
  }
}

// House rules that differ from the rules' defaults stay in view during play, so nobody is surprised.
function renderHouse() {
  const box = $('#house');
  const h = store.view.house_rules || store.table.house_rules;
  const changed = (h && h.changed) || [];
  const words = [];
  if (store.view.practice) words.push(t('practice_tag'));
  if (changed.includes('timer_factor')) words.push(t('house_timer', { f: Number(h.timer_factor) }));
  if (store.table.locked) words.push(t('house_locked'));
  const toWin = $('#to-win');
  if (toWin.classList.contains('changed') !== changed.includes('winning_score')) toWin.classList.toggle('changed');
  box.hidden = !words.length;
  setText(box, words.join(' · '));
}

function renderTools() {
  const mute = $('#mute');
  const m = sound.isMuted();
  setText(mute, m ? '🔇' : '🔊');
  mute.title = m ? t('unmute') : t('mute');
  mute.setAttribute('aria-pressed', m ? 'true' : 'false');
  setText($('#mute-label'), m ? t('unmute') : t('mute'));
}

// The clock, several times a second: counted down locally from the view's `clock`; amber over the round's
// warning share (common/clock.js: 0:30 of 3:00), a soft tick in the first third of it (both scaled like the clock).
let lastTick = null;
export function tickClock() {
  const view = store.view;
  const box = $('#clock-box');
  const left = remaining(view.clock);
  const labels = { sign: 'clock_sign', play: 'clock_play', pause: 'clock_pause' };
  if (left === null || !labels[view.phase]) {
    box.hidden = true;
    return left;
  }
  box.hidden = false;
  setText($('#clock-label'), t(labels[view.phase]));
  setText($('#clock'), fmtClock(left));
  const warnAt = warningAt(timing()); // the phone's top bar warns at the same moment
  box.classList.toggle('amber', view.phase === 'play' && left <= warnAt);
  const tickFrom = warnAt / 3;
  const step = tickFrom ? Math.ceil((left * 10) / tickFrom) : null;
  if (view.phase === 'play' && !view.paused && left > 0 && left <= tickFrom && step !== lastTick) {
    lastTick = step;
    sound.cue('tick');
  }
  return left;
}

// A spectator's way in: the seats the table offers now (a freed seat, or a bot's between rounds), each a button,
// with a name field (the join screen's is out of sight). Used by the audience's screen and the reveal.
import { S, teamName } from './state.js';
import { $, h } from './dom.js';
import { t } from './strings.js';
import { join, seatOffered } from './join.js';
import { TEAM_SHAPES } from '../common/teams.js';

/** For a spectator: the seats the table offers now (a freed seat, or a bot's between rounds), each a button. */
export function offerSeats() {
  const v = S.view;
  const offered = v.seats.filter(seatOffered);
  if (!offered.length) return h('p', { class: 'hint', id: 'offer-none', text: t('watch_wait_seat') });
  const name = h('input', { type: 'text', maxlength: '20', class: 'offer-name', autocomplete: 'nickname', placeholder: t('name_placeholder') });
  name.value = $('name').value;
  name.addEventListener('input', () => { $('name').value = name.value; });
  const onWatch = !!document.getElementById('watch-name') && !$('screen-watch').hidden;
  return h('div', { class: 'take-seat', id: 'offer' },
    h('p', { class: 'hint', text: t('take_offered') }),
    onWatch ? null : h('label', { class: 'name-field' }, h('span', { text: t('name_label') }), name),
    h('div', { class: 'pair' }, offered.map((s) => h('button', {
      type: 'button', class: `seat free team-${s.team}`, 'data-seat': s.seat, onclick: () => join(s.seat),
    }, h('span', { class: 'seat-no', text: String(s.seat + 1) }),
    h('span', { class: 'seat-text' }, h('span', { class: 'seat-name', text: seatTitle(s) }),
      h('small', { text: `${teamName(s.team)} ${TEAM_SHAPES[s.team]} · ${s.kind === 'bot' ? t('take_over_bot') : t('sit_here')}` }))))));
}

// A bot's seat is offered under the bot's name (the one the table has been seeing); its team goes below.
function seatTitle(s) {
  return s.name || `${teamName(s.team)} ${TEAM_SHAPES[s.team]}`;
}

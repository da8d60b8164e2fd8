// A spectator's phone (the audience): the public table only (R36) — who holds a channel and what it flashes, the
// centre, the clock — then the reveal and the story like everybody. A seat the table offers can be taken.
import { S, seatName, changed } from './state.js';
import { $, h, fillCard } from './dom.js';
import { t, loadLaterWords } from './strings.js';
import { seatOffered } from './join.js';
import { offerSeats } from './offer.js';
import { TEAM_SHAPES } from '../common/teams.js';
import { styles } from './later.js';

await loadLaterWords(); // its words come with it

await styles('watch'); // its own stylesheet, applied before it draws

export function renderWatch() {
  const field = $('watch-name');
  if (!field.dataset.wired) {
    // The join screen's name field is out of sight while watching: this one fills it (a join sends that one).
    field.dataset.wired = '1';
    field.value = $('name').value;
    field.addEventListener('input', () => { $('name').value = field.value; });
  }
  $('watch-name-label').textContent = t('name_label');
  const v = S.view;
  const offered = v.seats.filter(seatOffered).map((s) => s.seat);
  const body = $('watch-body');
  const key = [v.phase, v.round, v.seats.map((s) => [s.name, s.channel && s.channel.held, s.channel && s.channel.emoji, s.ready]),
    v.centre && v.centre.map((c) => c && c.id), offered, S.table.watching];
  if (!changed('watch', ...key)) return;
  const kids = [
    h('p', { class: 'eyebrow watching-tag', id: 'watching-tag', text: t('watching', { n: S.table.watching ?? 1 }) }),
    h('h2', { text: v.phase === 'sign' ? t('watch_sign') : t('watch_play') }),
    h('ul', { class: 'watch-seats' }, v.seats.map((s) => h('li', {
      class: `chip team-${s.team}${s.channel && s.channel.held ? ' held' : ''}`, 'data-seat': s.seat,
    }, h('span', { class: 'chip-emoji emoji', text: s.channel && s.channel.held ? (s.channel.emoji || '') : '' }),
    h('span', { class: 'chip-name' }, h('b', { class: 'shape', text: TEAM_SHAPES[s.team] }), h('span', { class: 'nm', text: seatName(s.seat) })),
    v.phase === 'sign' ? h('small', { text: s.ready ? '✓' : '…' }) : null))),
  ];
  if (v.phase === 'play' && Array.isArray(v.centre)) {
    kids.push(h('div', { class: 'centre watch-centre', 'aria-label': t('centre_group') }, v.centre.map((c) => {
      const b = h('span', { class: 'card place' });
      fillCard(b, c);
      return b;
    })));
  }
  kids.push(offerSeats());
  body.replaceChildren(...kids);
}

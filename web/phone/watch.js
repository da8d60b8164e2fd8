// A spectator's phone (the audience): the public table only (R36) — who holds a channel and what it flashes, the
// centre, the clock — then the reveal and the story like everybody. A seat the table offers can be taken.
import { S, seatName, teamName, changed } from './state.js';
import { $, h, fillCard } from './dom.js';
import { t } from './strings.js';
import { join, seatOffered } from './join.js';
import { TEAM_SHAPES } from '../shared/teams.js';

export function renderWatch() {
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
    kids.push(h('div', { class: 'centre watch-centre', 'aria-label': 'centre' }, v.centre.map((c) => {
      const b = h('span', { class: 'card place' });
      fillCard(b, c);
      return b;
    })));
  }
  if (offered.length) {
    kids.push(h('div', { class: 'take-seat' },
      h('p', { class: 'hint', text: t('take_offered') }),
      h('div', { class: 'pair' }, offered.map((i) => h('button', {
        type: 'button', class: `seat free team-${v.seats[i].team}`, 'data-seat': i, onclick: () => join(i),
      }, h('span', { class: 'seat-no', text: String(i + 1) }),
      h('span', { class: 'seat-text' }, h('span', { class: 'seat-name', text: `${teamName(v.seats[i].team)} ${TEAM_SHAPES[v.seats[i].team]}` }),
        h('small', { text: v.seats[i].kind === 'bot' ? t('take_over_bot') : t('sit_here') })))))));
  } else {
    kids.push(h('p', { class: 'hint', text: t('watch_wait_seat') }));
  }
  body.replaceChildren(...kids);
}

// The sign phase: pick the team's secret sign (R8–R10), lock it in, say ready (R11). Loaded when it is needed
// (phone.js fetches it ahead, in the lobby and during play), with its stylesheet.
import { S, me, mySeat, left, changed } from './state.js';
import { $, h } from './dom.js';
import { t, loadLaterWords } from './strings.js';
import { send, justSent } from './net.js';
import { atFinger, haptic } from './feedback.js';
import { keepAwake } from './awake.js';
import { TEAM_SHAPES } from '../common/teams.js';
import { styles } from './later.js';

await loadLaterWords(); // its words come with it (web/i18n/<lang>.json, group "phone_later")

await styles('sign'); // its own stylesheet, applied before it draws (fetched while the phone waits in the lobby)

export function renderSign() {
  const v = S.view;
  const you = me();
  const seat = mySeat();
  const fixed = you.sign;
  const pick = fixed || S.signPick;
  if (!changed('sign', v.round, fixed, S.signPick, you.last_sign, seat.ready, v.seats.map((s) => [s.ready, s.name]),
    !!v.paused, !!v.practice)) return;
  $('screen-sign').className = `screen team-${you.team}`;
  const grid = h('div', { class: 'emoji-grid', role: 'radiogroup', 'aria-label': t('sign_title') },
    v.signs.map((e) => {
      const last = e === you.last_sign;
      // A sign that cannot be picked still takes a tap, to say why at the finger (crossed out: last round's, R10).
      const why = fixed ? t('sign_fixed_why', { sign: fixed }) : last ? t('sign_last_round_why', { sign: e }) : null;
      return h('button', {
        type: 'button', class: `emoji-tile emoji${e === pick ? ' chosen' : ''}${last ? ' last' : ''}`,
        role: 'radio', 'aria-checked': e === pick ? 'true' : 'false', 'data-emoji': e,
        'aria-label': last ? `${e} — ${t('sign_last_round')}` : e, 'aria-disabled': why ? 'true' : 'false',
        onclick: (ev) => {
          keepAwake();
          if (why) { atFinger(why, 'refused', { anchor: ev.currentTarget }); haptic('refused'); return; }
          S.signPick = e;
          renderSign();
        },
      }, h('span', { class: 'e', text: e }));
    }));
  const big = h('div', { class: `sign-big${fixed ? ' fixed' : ''}` },
    h('span', { class: 'emoji', id: 'team-sign', role: 'img', 'aria-label': pick || '?', text: pick || '?' }),
    h('small', { text: fixed ? t('sign_fixed') : pick ? t('not_locked') : t('random_if_none') }));
  const lockBtn = !fixed && h('button', {
    type: 'button', class: 'btn', id: 'btn-lock', disabled: !S.signPick,
    onclick: () => { if (S.signPick) pickSign(S.signPick); },
  }, t('lock_sign', { sign: S.signPick || '' }));
  const readyBtn = h('button', {
    type: 'button', class: `btn primary${seat.ready ? ' done' : ''}`, id: 'btn-ready', disabled: seat.ready,
    'aria-label': t('ready_label'),
    onclick: () => {
      keepAwake();
      if (!you.sign && S.signPick) pickSign(S.signPick);
      if (!justSent('ready')) send({ type: 'ready' }); // a second one would be refused: "Not now"
    },
  }, seat.ready ? t('ready_done') : t('ready'));
  // What you touch comes before the explanation and the ready list: the coach's sign hint lies over those two (it
  // says the same, and more), never over the title, the countdown or a control.
  $('sign-body').replaceChildren(
    h('div', { class: 'sign-head' },
      h('div', {},
        h('p', { class: `eyebrow${v.practice ? ' practice' : ''}`, text: v.practice ? t('practice_tag') : t('round_n', { n: v.round }) }),
        h('h2', { text: t('sign_title') })),
      h('div', { class: 'countdown', role: 'timer', 'aria-label': t('round_starts_in') },
        h('span', { 'data-ends': String(S.at + (v.clock ?? 0) * 1000), text: String(Math.ceil(left(v.clock) || 0)) }),
        h('small', { text: 's' }))),
    big, grid,
    h('div', { class: 'sign-actions' }, lockBtn, readyBtn),
    h('div', { class: 'sign-about', 'data-coach-place': 'over' },
      h('p', { class: 'hint', id: 'sign-hint', text: t('sign_hint') }),
      h('ul', { class: 'ready-list', 'aria-label': t('ready') }, v.seats.filter((s) => s.kind !== 'empty').map((s) => {
        const name = s.seat === you.seat ? t('you_tag') : s.name; // whole in the title, if its chip cuts it
        // waiting is an hourglass: three dots after a name read as a name cut short
        return h('li', { class: `team-${s.team}${s.ready ? ' ok' : ''}${s.connected ? '' : ' gone'}`, title: name },
          h('b', { class: 'shape', text: TEAM_SHAPES[s.team] }), h('span', { class: 'nm', text: name }), s.ready ? '✓' : '⏳');
      }))));
}

// Send our team's sign once. A double tap on "Lock in" (or "Lock in" then "Ready" before the new view arrived)
// sent it twice, and the second came back "Your partner already picked the sign" although we had.
function pickSign(sign) {
  if (justSent('pick_sign')) return; // the first tap is on its way
  if (S.signOkRound === S.view.round) return; // ours was accepted: the view will show it fixed
  send({ type: 'pick_sign', sign }, { sign });
}

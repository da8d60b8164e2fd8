// The round's story in compact form, at the reveal (never before the round ended: R39): each channel take and
// release, each emission marked as its team's sign or a decoy, each carré and each call, by seat and time.
import { S, seatName, team } from './state.js';
import { h } from './dom.js';
import { t, loadLaterWords } from './strings.js';
import { TEAM_SHAPES } from '../common/teams.js';

await loadLaterWords(); // its words come with it

function line(ev, r) {
  const s = S.view.seats[ev.seat];
  // the round's own names (a seat taken over since keeps its old name here); a long name ends in an ellipsis in
  // its narrow column, the whole name stays in the title
  const name = (r.names && r.names[ev.seat]) || seatName(ev.seat);
  const who = h('span', { class: `who team-${s ? s.team : 0}`, title: name }, h('b', { class: 'shape', text: TEAM_SHAPES[s ? s.team : 0] }), ' ', name);
  let what;
  switch (ev.kind) {
    case 'take': what = t('story_take'); break;
    case 'release': what = t('story_release'); break;
    case 'emit': what = h('span', {}, h('span', { class: 'emoji', text: ev.emoji || '' }), ' ',
      h('small', { class: ev.sign ? 'true-sign' : 'decoy', text: ev.sign ? t('story_sign') : t('story_decoy') })); break;
    case 'swap': what = t('story_swap'); break;
    case 'carre': what = t('story_carre'); break;
    case 'call': what = `${ev.call === 'contre' && ev.team != null
      ? t('story_contre', { team: team(ev.team) }) : t('story_quatro')}${ev.correct === true ? ' ✓' : ev.correct === false ? ' ✗' : ''}`; break;
    default: what = ev.kind;
  }
  return h('li', { class: `story-ev ev-${ev.kind}${ev.kind === 'emit' ? (ev.sign ? ' sign' : ' decoy') : ''}` },
    h('span', { class: 't', text: t('seconds_short', { t: Math.floor(ev.t) }) }), who, h('span', { class: 'what' }, what));
}

/** The story list (swaps are left out: too many for a phone, the TV shows them). */
export function renderStory(r) {
  const events = ((r.story && r.story.events) || []).filter((e) => e.kind !== 'swap');
  return h('details', { class: 'story', id: 'story', open: events.length <= 8 },
    h('summary', { text: t('story_title', { n: events.filter((e) => e.kind === 'emit').length }) }),
    h('ol', { class: 'story-list' }, events.map((ev) => line(ev, r))));
}

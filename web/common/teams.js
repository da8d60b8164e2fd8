// Team identity that never depends on colour alone: colour + shape + name ("Blue ●"), on both pages. The names are
// the catalogs' (common.team_N; common.team_after_N where a language makes the colour agree: "l'équipe verte").
// A no-break space: a line never ends on "Blue" and starts on "●".
import { teamWord } from './i18n.js';

export const TEAM_SHAPES = ['●', '▲', '■', '◆'];
export function teamLabel(team, after = false) {
  return `${teamWord(team, after)}\u00a0${TEAM_SHAPES[team]}`;
}
export const SUIT_RED = new Set(['♥', '♦']);

// Team identity that never depends on colour alone: colour + shape + name ("Blue ●"), on both pages.
export const TEAM_SHAPES = ['●', '▲', '■', '◆'];
export const TEAM_NAMES = {
  en: ['Blue', 'Orange', 'Green', 'Red'],
  fr: ['Bleu', 'Orange', 'Vert', 'Rouge'],
};
export function teamLabel(team, lang = 'en') {
  return `${(TEAM_NAMES[lang] || TEAM_NAMES.en)[team]} ${TEAM_SHAPES[team]}`;
}
export const SUIT_RED = new Set(['♥', '♦']);

// Team identity that never depends on colour alone: colour + shape + name ("Blue ●"), on both pages.
export const TEAM_SHAPES = ['●', '▲', '■', '◆'];
export const TEAM_NAMES = {
  en: ['Blue', 'Orange', 'Green', 'Red'],
  fr: ['Bleu', 'Orange', 'Vert', 'Rouge'],
};
// In French a colour agrees with "l'équipe" (feminine): "l'équipe verte ■", not "l'équipe Vert ■".
export const TEAM_NAMES_AFTER_TEAM = {
  en: TEAM_NAMES.en,
  fr: ['bleue', 'orange', 'verte', 'rouge'],
};
export function teamLabel(team, lang = 'en') {
  return `${(TEAM_NAMES[lang] || TEAM_NAMES.en)[team]} ${TEAM_SHAPES[team]}`;
}
export const SUIT_RED = new Set(['♥', '♦']);

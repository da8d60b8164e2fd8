// The words of the host's powers on the TV (English and French): the screen that lost the host's rights, the
// journal found damaged at start, and who holds the host's remote. Kept apart so that they can join the
// screen's catalogue as they are.
import { language } from '../common/i18n.js';

const WORDS = {
  en: {
    lost_title: 'This screen no longer has the host’s controls',
    lost_text: 'The host restarted, or this screen was opened from an old link. To get the controls back, open the address printed in the host’s terminal (it ends in /screen#host=…) on this computer.',
    damage_resumed: ({ line, kept, file }) => `The saved game was damaged at line ${line}: the table is back as it stood just before it (${kept} lines kept). What followed is kept in ${file}.`,
    damage_fresh: ({ line, file }) => `The saved game could not be read (line ${line}): a new table starts. The old one is kept in ${file}.`,
    damage_ok: 'OK',
    remote_by: ({ who }) => `📱 Remote: ${who}`,
    remote_watching: 'a phone without a seat',
    remote_away: 'away',
    remote_once: 'Works once, for 5 minutes: the first phone to open it becomes the remote (only one phone holds it).',
  },
  fr: {
    lost_title: 'Cet écran n’a plus les commandes de l’hôte',
    lost_text: 'L’hôte a redémarré, ou cet écran a été ouvert depuis un ancien lien. Pour retrouver les commandes, ouvre sur cet ordinateur l’adresse affichée dans le terminal de l’hôte (elle finit par /screen#host=…).',
    damage_resumed: ({ line, kept, file }) => `La partie enregistrée était abîmée à la ligne ${line} : la table reprend telle qu’elle était juste avant (${kept} lignes gardées). La suite est gardée dans ${file}.`,
    damage_fresh: ({ line, file }) => `La partie enregistrée n’a pas pu être lue (ligne ${line}) : une nouvelle table commence. L’ancienne est gardée dans ${file}.`,
    damage_ok: 'OK',
    remote_by: ({ who }) => `📱 Télécommande : ${who}`,
    remote_watching: 'un téléphone sans place',
    remote_away: 'absent',
    remote_once: 'Valable une fois, 5 minutes : le premier téléphone qui l’ouvre devient la télécommande (un seul à la fois).',
  },
};

/** The word for `key` in the page's language (a function of `vars` for the sentences that hold figures). */
export function hw(key, vars = {}) {
  const v = (WORDS[language()] || WORDS.en)[key];
  return typeof v === 'function' ? v(vars) : v;
}

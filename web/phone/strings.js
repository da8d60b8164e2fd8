// The phone's words: which language, and how a refusal is said. The words themselves are in words-en.js and
// words-fr.js.
import { makeI18n, language } from '../common/i18n.js';

// One language at a time: the page loads the words of the language it shows (and the other one only when the
// player switches), so a phone downloads half of them.
const dicts = {};
export const t = makeI18n(dicts);

const laterLoaded = new Set(); // languages whose later words are here
let laterWanted = false; // a module that needs them was loaded: a language switch brings them too

/** Load the words of `lang` ('en' | 'fr') if they are not here yet. */
export async function loadWords(lang) {
  if (!dicts[lang]) dicts[lang] = { ...(await import(`./words-${lang}.js`)).default, ...(dicts[lang] || {}) };
  if (laterWanted) await loadLaterWords(lang);
}

/** The words only the reveal, game over, the audience, help and the seat link use (their modules call this). */
export async function loadLaterWords(lang) {
  laterWanted = true;
  if (laterLoaded.has(lang)) return;
  const more = (await import(`./words-later-${lang}.js`)).default;
  dicts[lang] = { ...(dicts[lang] || {}), ...more };
  laterLoaded.add(lang);
}

/** The words for a refusal (refused.reason) or an error code: the server's reason, said for a player. */
export function refusalText(msg) {
  const wait = msg.details && msg.details.wait;
  switch (msg.reason) {
    case 'card_taken': return t('just_taken');
    case 'swap_cooldown': return t('wait_s', { s: (wait || 0).toFixed(1) });
    case 'channel_cooldown': return t('channel_cooldown', { s: (wait || 0).toFixed(1) });
    case 'vote_running': return t('vote_running_r');
    case 'paused': return t('paused_short');
    case 'table_locked': return t('table_locked');
    case 'not_host': return t('not_host');
    case 'sign_used_last_round': case 'sign_already_fixed': case 'vote_too_soon':
    case 'reshuffle_already_done': case 'bad_team': case 'not_your_card':
      return t(msg.reason);
    case 'wrong_phase': case 'already_ready': case 'channel_already_held': case 'channel_not_held':
    case 'no_vote': case 'not_a_voter': case 'already_answered':
      return t('refused');
    default: return language() === 'en' && msg.message ? msg.message : t('refused');
  }
}

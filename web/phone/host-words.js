// The words of the host's remote on a phone (English and French): a link another phone already used, and a
// remote the host took back. Kept apart so that they can join the phone's catalogue as they are.
import { language } from '../common/i18n.js';

const WORDS = {
  en: {
    vip_used: 'Another phone already opened this remote link. Ask the host to show a new one on the TV.',
    remote_taken_back: 'The host took the remote back: you play on as a player.',
  },
  fr: {
    vip_used: 'Un autre téléphone a déjà ouvert ce lien de télécommande. Demande à l’hôte d’en afficher un nouveau sur la télé.',
    remote_taken_back: 'L’hôte a repris la télécommande : tu continues comme joueur.',
  },
};

/** The word for `key` in the page's language. */
export const hw = (key) => (WORDS[language()] || WORDS.en)[key];

// The remote's key, kept on this phone (localStorage: it outlives a closed tab and a host restart).
const REMOTE_KEY = 'quatro.remote';
export const remoteKey = () => localStorage.getItem(REMOTE_KEY);
/** The server gave this phone the remote: keep its key; the one-time invitation is spent. */
export function keepRemote(key) {
  localStorage.setItem(REMOTE_KEY, key);
  sessionStorage.removeItem('quatro.vip');
}
/** The remote is not (or no longer) this phone's. */
export function forgetRemote() {
  localStorage.removeItem(REMOTE_KEY);
  sessionStorage.removeItem('quatro.vip');
}

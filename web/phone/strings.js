// The phone's words (web/i18n/<lang>.json: "phone" with the page, "phone_later" with the rarer screens).
import { translator, loadGroups, language, formatNumber } from '../common/i18n.js';

export const t = translator(['phone', 'phone_later', 'common']);

/** Seconds to wait, with one decimal ("1.5", in French "1,5"). */
export const seconds = (x) => formatNumber(x || 0, 1);

/** The words only the rarer screens use (their modules call this). */
export const loadLaterWords = () => loadGroups(['phone_later']);

// a refusal's reason → its key (OWN: the same); NOT_NOW: "Not now"
const SAID = { card_taken: 'just_taken', swap_cooldown: 'wait_s', vote_running: 'vote_running_r', paused: 'paused_short' };
const OWN = ['channel_cooldown', 'table_locked', 'not_host', 'sign_used_last_round', 'sign_already_fixed',
  'vote_too_soon', 'reshuffle_already_done', 'bad_team', 'not_your_card'];
const NOT_NOW = ['wrong_phase', 'already_ready', 'channel_already_held', 'channel_not_held', 'no_vote', 'not_a_voter',
  'already_answered'];

/** A refusal (refused.reason) or an error code, said for a player. */
export function refusalText(msg) {
  const key = SAID[msg.reason] || (OWN.includes(msg.reason) ? msg.reason : null);
  if (key) return t(key, { s: seconds(msg.details && msg.details.wait) });
  const english = !NOT_NOW.includes(msg.reason) && language() === 'en' && msg.message;
  return english || t('refused');
}

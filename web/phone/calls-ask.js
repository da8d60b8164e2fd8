// The questions a call may ask (calls.js decides, this module asks; it is fetched during play): R23's reminder
// when you hold a carré yourself, the accused team, and the plain confirm of a double tap or a keyboard. Each
// opens once the thumb has lifted, away from the button held, its answers armed a beat (modal.js).
import { S, me, team, seatName } from './state.js';
import { $ } from './dom.js';
import { t, loadLaterWords } from './strings.js';
import { whenLifted } from './gestures.js';
import { openModal } from './modal.js';
import { sendCall } from './calls.js';

await loadLaterWords(); // its words come with it (web/i18n/<lang>.json, group "phone_later")

const inPlay = () => me() && S.view.phase === 'play' && !S.callBusy;

/** R23: you hold a carré yourself — asked before a Quatro goes out (also when the server asks: confirm_own_carre). */
export function askR23() {
  whenLifted(() => {
    if (!inPlay()) return;
    openModal('r23', {
      title: t('r23_title'), text: t('r23_text'), cls: 'warn', avoid: $('btn-quatro'),
      actions: [
        { id: 'cancel', label: t('cancel'), cls: 'ghost' },
        { id: 'confirm', label: t('r23_yes'), cls: 'danger', run: () => sendCall({ type: 'call_quatro', confirmed: true }) },
      ],
    });
  });
}

/** R24: which team holds a carré? (At 4 seats only a double tap or a keyboard asks it: one team to confirm.) */
export function pickAccused(others) {
  whenLifted(() => {
    if (!inPlay()) return;
    openModal('contre', {
      title: t('pick_accused'), cls: 'pick', avoid: $('btn-contre'),
      actions: [
        ...others.map((x) => ({
          id: `team-${x}`, cls: `team-btn team-${x}`,
          label: `${team(x)} — ${S.view.teams[x].seats.map(seatName).join(' & ')}`,
          aria: t('accuse', { team: team(x) }),
          run: () => sendCall({ type: 'call_contre', team: x }),
        })),
        { id: 'cancel', label: t('cancel'), cls: 'ghost' },
      ],
    });
  });
}

/**
 * A double tap, a keyboard or a screen reader's call: the question a hold would ask, or a plain confirm where a
 * hold asks none — a call never goes out without a hold or an answer.
 */
export function askFirst(which) {
  if (!inPlay()) return;
  if (which === 'contre') pickAccused(S.view.teams.map((x) => x.team).filter((x) => x !== me().team));
  else if (me().has_carre) askR23();
  else confirmQuatro();
}

function confirmQuatro() {
  whenLifted(() => {
    if (!inPlay()) return;
    openModal('confirm', {
      title: t('quatro'), text: t('confirm_quatro'), avoid: $('btn-quatro'),
      actions: [{ id: 'cancel', label: t('cancel'), cls: 'ghost' },
        { id: 'confirm', label: t('quatro'), cls: 'danger', run: () => sendCall({ type: 'call_quatro', confirmed: false }) }],
    });
  });
}

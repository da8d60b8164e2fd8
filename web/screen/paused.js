// The pause the host asked for (or the hold after a host restart): every clock stands still, and the whole room
// sees why. From here the host resumes, and anyone may replay "how to play" or open the rules.
import { $, el, button, patch } from './dom.js';
import { store, isHost } from './state.js';
import { t } from './strings.js';

// `resume()` sends the host's resume; `howTo()` replays the attract loop (null when there is none).
export function renderPaused({ resume, howTo, rulesHref }) {
  const box = $('#paused');
  const p = store.view.paused;
  box.hidden = !p;
  document.body.classList.toggle('is-paused', !!p);
  const sig = p ? JSON.stringify([p.by, isHost(), !!howTo, document.documentElement.lang]) : '';
  patch(box, sig, () => {
    box.replaceChildren();
    if (!p) return;
    const card = el('div', 'paused-card');
    card.append(el('div', 'paused-icon', '⏸'), el('h2', 'paused-title', p.by === 'restart' ? t('paused_restart') : t('paused_host')),
      el('p', 'paused-sub', t('paused_sub')));
    const row = el('div', 'paused-buttons');
    if (isHost()) row.append(button(t('resume'), resume, 'primary resume')); // a restart's hold too: the host need not wait
    if (howTo) row.append(button(t('how_to'), howTo, 'how-to'));
    const a = el('a', 'rules-button', t('rules_page'));
    a.href = rulesHref();
    a.target = '_blank';
    a.rel = 'noopener';
    row.append(a);
    card.append(row);
    box.append(card);
  });
}

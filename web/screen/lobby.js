// The lobby: the QR code is the hero, the join URL under it, the seats fill in live; in the middle of the
// table a short "how to play" and (when the teaching module is there) the attract loop, and a link to /rules.
import { $, el, setText } from './dom.js';
import { store, isHost } from './state.js';
import { t } from './strings.js';

export function renderJoin() {
  const table = store.table;
  const url = table.join_url || `${location.protocol}//${location.host}/`;
  setText($('#join-title'), t('join_title'));
  setText($('#join-url'), url.replace(/^https?:\/\//, '').replace(/\/$/, ''));
  setText($('#join-mdns'), table.mdns_name ? `${t('join_or')} ${table.mdns_name}` : '');
  setText($('#spectator'), isHost() ? '' : t('spectator'));
}

export function lobbyMiddle(lang) {
  return {
    sig: `lobby|${lang}|${store.view.seat_count}`,
    draw(node) {
      const box = el('div', 'howto');
      box.append(el('h2', 'howto-title', t('howto_title')));
      const list = el('ol');
      for (const k of ['howto_1', 'howto_2', 'howto_3', 'howto_4']) {
        const li = el('li');
        li.innerHTML = t(k); // our own fixed strings, never user text
        list.append(li);
      }
      box.append(list);
      box.append(rulesLink());
      node.append(box);
    },
  };
}

// The rules, served by the host at /rules, in the screen's language.
export function rulesLink() {
  const a = el('a', 'rules-link', t('rules_link'));
  a.href = `/rules?lang=${document.documentElement.lang || 'en'}`;
  a.target = '_blank';
  a.rel = 'noopener';
  return a;
}

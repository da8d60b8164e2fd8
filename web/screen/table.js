// The table's centre: the four places (a node per place, kept; a swap changes one place's card), and the words
// in the middle of the oval, which the phase's own module draws (lobby, sign, reveal).
import { $, patch } from './dom.js';
import { store, revealing } from './state.js';
import { cardEl, setCard, emptyPlaceEl } from './cards.js';

// `middle`, `below` and `corner` (the table's bottom-right corner): {sig, draw(node)} from the phase's module,
// or null for nothing.
export function renderCentre(middle, below, corner = null) {
  const view = store.view;
  const places = $('#places');
  let cards = [];
  let mode = 'none';
  if (view.phase === 'play') { cards = view.centre; mode = 'cards'; }
  else if (revealing(view)) { cards = view.result.centre; mode = 'cards'; }
  else if (view.phase === 'sign') mode = 'empty';
  patch(places, mode, () => {
    places.replaceChildren();
    if (mode === 'empty') for (let i = 0; i < 4; i++) places.append(emptyPlaceEl());
  });
  if (mode === 'cards') {
    cards.forEach((c, i) => {
      let node = places.children[i];
      if (!node) {
        node = cardEl(c, 'big');
        node.dataset.place = String(i);
        places.append(node);
      } else if (node.dataset.card !== String(c.id)) {
        setCard(node, c);
      }
    });
    while (places.children.length > cards.length) places.lastChild.remove();
  }
  const m = $('#middle');
  const b = $('#below');
  patch(m, middle ? middle.sig : '', () => { m.replaceChildren(); if (middle) middle.draw(m); });
  patch(b, below ? below.sig : '', () => { b.replaceChildren(); if (below) below.draw(b); });
  const c = $('#corner');
  patch(c, corner ? corner.sig : '', () => { c.replaceChildren(); if (corner) corner.draw(c); });
}

export const placeOf = (i) => $(`#places .card[data-place="${i}"]`);

// The sign phase (R8–R12): what to do, the countdown, how many are ready.
export function signMiddle(t) {
  return {
    sig: `sign|${t('sign_title')}`,
    draw(node) {
      node.append(Object.assign(document.createElement('h2'), { className: 'sign-title', textContent: t('sign_title') }));
      node.append(Object.assign(document.createElement('p'), { className: 'sign-sub', textContent: t('sign_sub') }));
    },
  };
}

export function signBelow(t) {
  const humans = store.view.seats.filter((s) => s.kind !== 'empty');
  const ready = t('ready_count', { n: humans.filter((s) => s.ready).length, of: humans.length });
  return {
    sig: `sign|${ready}`,
    draw(node) {
      const row = document.createElement('div');
      row.className = 'sign-row';
      const count = document.createElement('span');
      count.className = 'countdown sign-count';
      const words = document.createElement('span');
      words.className = 'ready-count';
      words.textContent = ready;
      row.append(count, words);
      node.append(row);
    },
  };
}

// Card faces for the big screen: off-white card, big rank, small suit (decoration only, R4).
import { SUIT_RED } from '../common/teams.js';

export function cardEl(card, size = 'big') {
  const el = document.createElement('div');
  el.className = `card card-${size}`;
  const corner = document.createElement('span');
  corner.className = 'corner';
  const rank = document.createElement('span');
  rank.className = 'rank';
  const suit = document.createElement('span');
  suit.className = 'suit';
  el.append(corner, rank, suit);
  setCard(el, card);
  return el;
}

// Show another card on the same node (a centre place keeps its node from state to state).
export function setCard(el, card) {
  el.classList.toggle('red', SUIT_RED.has(card.suit));
  el.classList.remove('empty');
  el.dataset.card = String(card.id);
  el.dataset.rank = card.rank;
  el.children[0].textContent = `${card.rank}${card.suit}`;
  el.children[1].textContent = card.rank;
  el.children[2].textContent = card.suit;
  el.setAttribute('aria-label', `${card.rank}${card.suit}`);
}

export function emptyPlaceEl() {
  const el = document.createElement('div');
  el.className = 'card card-big empty';
  return el;
}

// Card faces for the big screen: off-white card, big rank, small suit (decoration only, R4).
import { SUIT_RED } from '../shared/teams.js';

export function cardEl(card, size = 'big') {
  const el = document.createElement('div');
  el.className = `card card-${size}` + (SUIT_RED.has(card.suit) ? ' red' : '');
  el.dataset.card = String(card.id);
  el.dataset.rank = card.rank;
  const rank = document.createElement('span');
  rank.className = 'rank';
  rank.textContent = card.rank;
  const suit = document.createElement('span');
  suit.className = 'suit';
  suit.textContent = card.suit;
  const corner = document.createElement('span');
  corner.className = 'corner';
  corner.textContent = `${card.rank}${card.suit}`;
  el.append(corner, rank, suit);
  el.setAttribute('aria-label', `${card.rank}${card.suit}`);
  return el;
}

export function emptyPlaceEl() {
  const el = document.createElement('div');
  el.className = 'card card-big empty';
  return el;
}

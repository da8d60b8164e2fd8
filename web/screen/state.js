// What the big screen knows: the last public table view and the server's public table part, when they came,
// and a few facts derived from them. Only the public view ever reaches this page (R36–R39).
export const store = {
  view: null, // the last table view
  table: {}, // join_url, mdns_name, bots, freed, settings, host, and what the server adds (house_rules, locked…)
  receivedAt: 0, // performance.now() when `view` arrived: countdowns are interpolated from it
  status: 'connecting',
  revealAt: -Infinity, // performance.now() when the hands turned over (the reveal started)
};

export const isHost = () => !!store.table.host;
export const isPaused = () => !!(store.view && store.view.paused);

// Seconds left of a duration the view gave, counted down locally since it arrived (frozen while paused).
export function remaining(seconds) {
  if (seconds === null || seconds === undefined) return null;
  if (isPaused()) return Math.max(0, seconds);
  return Math.max(0, seconds - (performance.now() - store.receivedAt) / 1000);
}

export function seatName(seat) {
  const v = store.view;
  return v && v.seats[seat] ? v.seats[seat].name || `#${seat + 1}` : `#${seat + 1}`;
}

// Who held `seat` in the round `r` (a reveal or a recap entry) tells of: its own record, since a seat taken over
// between rounds keeps its old player's name there; the seat's name now for a record without names.
export function playedBy(r, seat) {
  return (r && r.names && r.names[seat]) || seatName(seat);
}

// The table's rule durations as the view states them (already scaled by the host's settings).
export const timing = () => (store.view && store.view.timing) || {};

export const revealing = (v = store.view) => !!(v && v.result && (v.phase === 'pause' || v.phase === 'over'));

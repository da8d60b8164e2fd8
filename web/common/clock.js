// Clocks shared by the big screen and the phone: how a count of seconds reads, and when a round's clock warns.
// Every duration comes from the view (seconds remaining when the frame was built, `timing` for the table's rule
// durations, already scaled by the host); nothing here knows how long a round lasts.

// The clock warns over the round's last sixth (the last 30 s of a 3:00 round, the game's visual direction): a share of the view's
// own round length, so a host's --time-scale or relaxed timers move the warning with the round.
export const WARNING_SHARE = 1 / 6;

/** Seconds at or below which a running round's clock shows its warning colour, from the view's timing. */
export function warningAt(timing) {
  const length = timing && timing.round_length;
  return typeof length === 'number' && length > 0 ? length * WARNING_SHARE : 0;
}

/** "2:05" for 124.2 s (whole seconds rounded up, as a countdown reads). */
export function fmtClock(secs) {
  const c = Math.max(0, Math.ceil(secs - 1e-6));
  return `${Math.floor(c / 60)}:${String(c % 60).padStart(2, '0')}`;
}

/** Seconds still to go of `secs` (seconds remaining when a view arrived at performance.now() `at`). */
export function remaining(secs, at) {
  return secs == null ? null : Math.max(0, secs - (performance.now() - at) / 1000);
}

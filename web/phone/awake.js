// Keep the phone's screen on while playing. The means (phone/nosleep.js: the Wake Lock, else a looping muted video)
// weigh about 4 KB, fetched the first time a tap wants them: the page a player opens stays within its weight budget.
// Arming a moment later still works: a tap's user activation outlives the fetch (5 s in Chrome), and a muted inline
// video may play without one (iOS, Chrome).
import { later } from './later.js';

let means = null;

/** Call from a user gesture (a tap): from then on the screen is kept awake. */
export function keepAwake() {
  later('nosleep').then((m) => {
    means = m;
    m.keepAwake();
  }, () => { /* the host is restarting: the next tap fetches it again */ });
}

/** 'wakelock' | 'video' | 'none' (for the tests). */
export const awakeMode = () => (means ? means.awakeMode() : 'none');

// The host's remote key, kept on this phone (localStorage: it outlives a closed tab and a host restart).
const REMOTE_KEY = 'quatro.remote';
export const remoteKey = () => localStorage.getItem(REMOTE_KEY);
/** The server gave this phone the remote: keep its key; the one-time invitation is spent. */
export function keepRemote(key) {
  localStorage.setItem(REMOTE_KEY, key);
  sessionStorage.removeItem('quatro.vip');
}
/** The remote is not (or no longer) this phone's. */
export function forgetRemote() {
  localStorage.removeItem(REMOTE_KEY);
  sessionStorage.removeItem('quatro.vip');
}

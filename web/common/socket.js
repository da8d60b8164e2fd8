// A JSON WebSocket that reconnects by itself (network blip, locked phone, server restart).
// On every (re)connection it sends `hello()` again, so the server answers with a full, fresh view.
// A socket that goes quiet is checked (see LIVENESS): a link that died without closing is replaced.
//
//   const link = new Link('/ws/phone', { hello: () => ({type: 'hello', token}), onMessage, onStatus });
//   link.send({type: 'ready'});   // returns the id it attached, or null while offline

// Liveness. Browsers never show ping frames to JavaScript, so a socket that died without a close (flaky Wi-Fi, a
// phone back from sleep) looks open for minutes. After quietMs with nothing received the link says hello again (the
// server answers every hello with a fresh state and keeps the seat or host rights); with nothing back within
// answerMs the socket is replaced. 10 s matches the server's own ping timeout, so the page learns it is offline about
// when the table does; a quiet lobby costs one hello and one state per 10 s. 3 s leaves a busy host or a slow radio
// room before giving up. Tests shorten both with `window.quatroLinkTiming = {quietMs, answerMs}` (before load).
const LIVENESS = { quietMs: 10000, answerMs: 3000, ...(globalThis.quatroLinkTiming || {}) };
const PROBE_ID = 'probe'; // the id of a liveness hello: the server echoes it in its reply

export class Link {
  constructor(path, { hello, onMessage, onStatus = () => {}, maxDelayMs = 5000 }) {
    this.path = path;
    this.maxDelayMs = maxDelayMs;
    this.hello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.nextId = 1;
    this.retry = 0;
    this.ws = null;
    this.timer = null; // the next reconnection attempt
    this.watchdog = null; // the one liveness timer of the open socket
    this.lastRx = 0; // performance.now() of the last message received
    this.probedAt = null; // when the liveness hello went out, while it is unanswered
    this.errorCodes = new Set(); // error codes this socket already delivered
    this.closedByUs = false;
    // Back on the tab or the network, the socket may be dead although it looks open: check it at once. A page away
    // (hidden, frozen, in the page cache) longer than a probe's answer window gets a new socket at once: iOS stops
    // a background page's scripts and keeps its socket looking open; asking it first would cost answerMs more.
    this.awayAt = null;
    const away = () => { if (this.awayAt === null) this.awayAt = performance.now(); };
    const back = () => {
      const gone = this.awayAt === null ? 0 : performance.now() - this.awayAt;
      this.awayAt = null;
      if (gone > LIVENESS.answerMs) this.replaceNow(); else this.probeNow();
    };
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') back(); else away();
    });
    document.addEventListener('freeze', away);
    document.addEventListener('resume', back);
    window.addEventListener('pagehide', away);
    window.addEventListener('pageshow', back);
    window.addEventListener('online', () => this.probeNow());
    this.connect();
  }

  url() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${scheme}//${location.host}${this.path}`;
  }

  connect() {
    clearTimeout(this.timer);
    clearTimeout(this.watchdog);
    this.onStatus(this.retry ? 'reconnecting' : 'connecting');
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (e) {
      this.schedule();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.retry = 0;
      this.onStatus('open');
      ws.send(JSON.stringify(this.hello()));
      this.lastRx = performance.now();
      this.probedAt = null;
      this.errorCodes.clear();
      this.arm(ws, LIVENESS.quietMs);
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return; // a socket given up: its late replies (e.g. 'seat_moved') are not ours any more
      this.lastRx = performance.now();
      this.probedAt = null;
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg && msg.type === 'error') {
        // The probe asks "are you there?": an error the page was already told (a screen's wrong host secret)
        // is not news, and must not come back as a notice every quiet 10 s.
        if (msg.id === PROBE_ID && this.errorCodes.has(msg.code)) return;
        this.errorCodes.add(msg.code);
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      clearTimeout(this.watchdog);
      this.ws = null;
      if (!this.closedByUs) this.schedule();
    };
    ws.onerror = () => { try { ws.close(); } catch { /* already closing */ } };
  }

  // The liveness timer: one timeout per open socket, re-armed from the time of the last message (a message does
  // not touch the timer, so a busy game costs nothing).
  arm(ws, ms) {
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => this.check(ws), Math.max(0, ms));
  }

  check(ws) {
    if (this.ws !== ws || this.closedByUs) return;
    const now = performance.now();
    if (this.probedAt === null) {
      const quiet = now - this.lastRx;
      if (quiet < LIVENESS.quietMs && ws.readyState === WebSocket.OPEN) {
        this.arm(ws, LIVENESS.quietMs - quiet);
        return;
      }
      if (ws.readyState === WebSocket.OPEN) {
        this.probe(ws);
        return;
      }
    }
    // Nothing since the probe (or a socket stuck closing): give it up and connect a new one at once (the backoff
    // is for a host that does not answer connections; this one may well answer a new socket).
    this.ws = null; // its close, whenever it comes, is ignored
    this.probedAt = null;
    try { ws.close(); } catch { /* already dead */ }
    this.retry = Math.max(this.retry, 1);
    this.connect();
  }

  // "Are you there?": the page's hello again, answered by a fresh state; no answer within ANSWER ms gives it up.
  probe(ws) {
    this.probedAt = performance.now();
    ws.send(JSON.stringify({ ...this.hello(), id: PROBE_ID }));
    this.arm(ws, LIVENESS.answerMs);
  }

  // Check the socket now: probe an open one (unless a probe is already out), connect when there is none.
  probeNow() {
    const ws = this.ws;
    if (ws && ws.readyState === WebSocket.OPEN) {
      if (this.probedAt === null) this.probe(ws);
      return;
    }
    this.reconnectNow();
  }

  // Give the current socket up and connect a new one now (its late messages and close are ignored).
  replaceNow() {
    const ws = this.ws;
    this.ws = null;
    this.probedAt = null;
    clearTimeout(this.watchdog);
    if (ws) { try { ws.close(); } catch { /* already dead */ } }
    this.retry = Math.max(this.retry, 1);
    this.connect();
  }

  schedule() {
    this.retry += 1;
    this.onStatus('reconnecting');
    // 0.5 s, 1 s, 2 s … capped at 5 s (or maxDelayMs): quick after a blip, gentle on a host that restarts.
    const delay = Math.min(this.maxDelayMs, 500 * 2 ** Math.min(this.retry - 1, 4));
    this.timer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) return;
    this.retry = Math.max(this.retry, 1);
    this.connect();
  }

  get online() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  send(msg) {
    if (!this.online) return null;
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ ...msg, id }));
    return id;
  }
}

// A JSON WebSocket that reconnects by itself (network blip, locked phone, server restart).
// On every (re)connection it sends `hello()` again, so the server answers with a full, fresh view.
//
//   const link = new Link('/ws/phone', { hello: () => ({type: 'hello', token}), onMessage, onStatus });
//   link.send({type: 'ready'});   // returns the id it attached, or null while offline

export class Link {
  constructor(path, { hello, onMessage, onStatus = () => {} }) {
    this.path = path;
    this.hello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.nextId = 1;
    this.retry = 0;
    this.ws = null;
    this.timer = null;
    this.closedByUs = false;
    // A phone waking up or coming back to the tab: check at once rather than wait for the backoff.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.reconnectNow();
    });
    window.addEventListener('online', () => this.reconnectNow());
    window.addEventListener('pageshow', () => this.reconnectNow());
    this.connect();
  }

  url() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${scheme}//${location.host}${this.path}`;
  }

  connect() {
    clearTimeout(this.timer);
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
      this.retry = 0;
      this.onStatus('open');
      ws.send(JSON.stringify(this.hello()));
    };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (!this.closedByUs) this.schedule();
    };
    ws.onerror = () => { try { ws.close(); } catch { /* already closing */ } };
  }

  schedule() {
    this.retry += 1;
    this.onStatus('reconnecting');
    // 0.5 s, 1 s, 2 s … capped at 5 s: quick after a blip, gentle on a host that restarts.
    const delay = Math.min(5000, 500 * 2 ** Math.min(this.retry - 1, 4));
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

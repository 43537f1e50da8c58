// The table's WebSocket (docs/protocol.md): hello with the seat token and the last
// version seen, automatic reconnection with backoff, and actions that carry a fresh id
// and the version the client saw. An action still unanswered when the connection drops
// is sent again with the same id after reconnecting: the server applies an id once.

const PING_EVERY_MS = 25000;
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];

function newId() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  // crypto.randomUUID needs a secure context; plain-http LAN addresses fall back here.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class Connection {
  /**
   * handlers: welcome(msg), update(msg), ack(msg), error(msg, {resent}), table(msg),
   * status("connecting" | "open" | "closed" | "reconnecting", attempt), and one for any
   * other message type the page listens to (chat, rematch...)
   * getVersion(): the last version the page has seen (or null).
   */
  constructor(tableId, token, handlers, getVersion) {
    this.tableId = tableId;
    this.token = token || null;
    this.handlers = handlers;
    this.getVersion = getVersion;
    this.socket = null;
    this.attempt = 0;
    this.timer = null;
    this.pinger = null;
    this.pending = null; // {id, action, version, resent, needsResend}
    this.log = []; // the last messages received, for debugging and tests
    this.stopped = false;
    this.welcomes = 0; // connections the server has accepted (reconnections show here)
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws/${encodeURIComponent(this.tableId)}`;
  }

  start() {
    this.stopped = false;
    this.open();
  }

  /** Become another seat (after joining): reconnect with the new token. */
  setToken(token) {
    this.token = token;
    this.pending = null;
    this.reconnect();
  }

  /** Drop the socket and open a new one now (a new token, or to resync after a gap). */
  reconnect() {
    if (this.socket) {
      const old = this.socket;
      this.socket = null;
      old.onclose = null;
      old.onmessage = null;
      old.close(1000);
    }
    if (this.pending) this.pending.needsResend = true;
    this.attempt = 0;
    this.open();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.socket) this.socket.close(1000);
  }

  open() {
    clearTimeout(this.timer);
    this.handlers.status(this.attempt ? "reconnecting" : "connecting", this.attempt);
    let socket;
    try {
      socket = new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      socket.send(JSON.stringify({ type: "hello", token: this.token, version: this.getVersion() }));
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.raw({ type: "ping" }), PING_EVERY_MS);
    };
    socket.onmessage = (event) => {
      // Only the current socket speaks for the page (an old one may still deliver).
      if (this.socket === socket) this.receive(event.data);
    };
    socket.onclose = () => {
      clearInterval(this.pinger);
      if (this.pending) this.pending.needsResend = true;
      if (this.socket === socket) this.socket = null;
      if (!this.stopped) this.retry();
    };
    socket.onerror = () => {
      /* onclose follows and schedules the retry */
    };
  }

  retry() {
    this.handlers.status("reconnecting", this.attempt + 1);
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    const delay = base / 2 + Math.random() * base;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), delay);
  }

  /** Reconnect now (after the browser says it is online again, or a tab comes back). */
  nudge() {
    if (!this.stopped && !this.socket) {
      this.attempt = 0;
      this.open();
    }
  }

  raw(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  receive(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    this.log.push(msg.type === "update" ? { type: "update", version: msg.version, first: msg.events[0] && msg.events[0].index, n: msg.events.length, resync: msg.resync } : msg);
    if (this.log.length > 50) this.log.shift();
    switch (msg.type) {
      case "welcome":
        this.welcomes += 1;
        this.attempt = 0;
        this.handlers.status("open", 0);
        this.handlers.welcome(msg);
        break;
      case "update":
        this.handlers.update(msg);
        // An action that was in flight when the connection dropped: send it again.
        if (this.pending && !this.pending.resent && this.pending.needsResend) {
          this.pending.resent = true;
          this.pending.needsResend = false;
          this.raw({ type: "act", action: this.pending.action, version: this.pending.version, id: this.pending.id });
        }
        break;
      case "ack":
        if (this.pending && this.pending.id === msg.id) this.pending = null;
        this.handlers.ack(msg);
        break;
      case "error": {
        const mine = this.pending && msg.id && this.pending.id === msg.id;
        const resent = Boolean(mine && this.pending.resent);
        if (mine) this.pending = null;
        this.handlers.error(msg, { resent });
        break;
      }
      case "table":
        this.handlers.table(msg);
        break;
      default:
        // Messages of other parts of the page (chat, rematch...), by type, if it listens.
        if (Object.hasOwn(this.handlers, msg.type)) this.handlers[msg.type](msg);
        break;
    }
  }

  /** Send an action with a fresh id and the version it was chosen at. */
  act(action, version) {
    const pending = { id: newId(), action, version, resent: false, needsResend: false };
    this.pending = pending;
    // Never leave the buttons locked if no answer comes: the version check on the server
    // refuses a later action chosen on a position that has already moved on.
    setTimeout(() => {
      if (this.pending === pending) {
        this.pending = null;
        this.handlers.status(this.socket ? "open" : "reconnecting", this.attempt);
      }
    }, 10000);
    if (!this.raw({ type: "act", action, version, id: pending.id })) pending.needsResend = true;
    return pending.id;
  }

  get busy() {
    return this.pending !== null;
  }
}

// HTTP calls of docs/protocol.md and the seat tokens this browser keeps.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
  }
}

async function call(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(0, "network", String(error.message || error));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const detail = data && (data.message || (typeof data.detail === "string" ? data.detail : null));
    throw new ApiError(response.status, data && data.error, detail || response.statusText);
  }
  return data;
}

export const api = {
  // A game's bot levels (the server's default game, Odin's, without one).
  levels: (game = null) => call("GET", game ? `/api/levels?game=${encodeURIComponent(game)}` : "/api/levels"),
  // The open tables of a game (the server's default game without one).
  openTables: (game = null) => call("GET", game ? `/api/tables?status=open&game=${encodeURIComponent(game)}` : "/api/tables?status=open"),
  myTables: (tokens) => call("POST", "/api/tables/mine", { tokens }),
  table: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`),
  join: (id, seat, name) => call("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}`, { name }),
  rematch: (id, token, answer, extra = {}) => call("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, { token, answer, ...extra }),
  record: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/record`),
  // The creator's powers over a waiting table (access.js).
  cancelTable: (id, creator) => call("POST", `/api/tables/${encodeURIComponent(id)}/cancel`, { creator }),
  lockSeat: (id, seat, locked, creator) => call("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/lock`, { creator, locked }),
  // A seat handed to a bot and back, and the vote for an absent player (clock.js).
  leave: (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/leave`, { token }),
  takeBack: (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/take-back`, { token }),
  vote: (id, token, seat) => call("POST", `/api/tables/${encodeURIComponent(id)}/vote`, { token, seat }),
};

// ---------------------------------------------------------------- seat tokens

const TOKENS = "odin.seats";
const NAME = "odin.name";

function readSeats() {
  try {
    const data = JSON.parse(localStorage.getItem(TOKENS) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

/** The seat this browser holds at a table: {seat, token, name} or null. */
export function seatAt(tableId) {
  return readSeats()[tableId] || null;
}

export function rememberSeat(tableId, seat, token, name) {
  const seats = readSeats();
  seats[tableId] = { seat, token, name, saved: Date.now() };
  localStorage.setItem(TOKENS, JSON.stringify(seats));
}

export function forgetSeat(tableId) {
  const seats = readSeats();
  delete seats[tableId];
  localStorage.setItem(TOKENS, JSON.stringify(seats));
}

/** Every table id -> seat record this browser holds. */
export function allSeats() {
  return readSeats();
}

export function savedName() {
  return localStorage.getItem(NAME) || "";
}

export function saveName(name) {
  localStorage.setItem(NAME, name);
}

// ---------------------------------------------------------------- page helpers

/** The table id and mode from the URL: /t/{id}, /t/{id}/watch, /t/{id}/replay. */
export function pageTable() {
  const m = /^\/t\/([^/]+)(?:\/(watch|replay))?\/?$/.exec(location.pathname);
  return m ? { id: decodeURIComponent(m[1]), mode: m[2] || "play" } : { id: null, mode: "play" };
}

export function absoluteUrl(path) {
  return new URL(path, location.origin).href;
}

/** Copy text to the clipboard, with a fallback for insecure (http) origins. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

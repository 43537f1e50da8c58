// The table page, /t/{id} (join and play) and /t/{id}/watch (spectate): the shell.
//
// The shell owns what every game's table has: the connection, the seats and joining, the
// chat, the clock, presence, rematch, the move log, the settings, the end-of-game frame,
// the translations and the turn notifications. The board module of the table's game
// (boards.js; docs/ui.md, Boards) draws the State and turns clicks into the game's actions
// through the context the shell gives it. The page keeps the public event list and the
// latest State (folded by table-model.js) and draws from them; the server stays the
// authority on what may be played (State.legal).

import { closedNotice } from "./access.js";
import { api, forgetSeat, pageTable, rememberSeat, saveName, seatAt } from "./api.js";
import { loadBoard, loadWords } from "./boards.js";
import { ChatPanel } from "./chat.js";
import { TableClock } from "./clock.js";
import { Connection } from "./connection.js";
import { endFrame } from "./end-frame.js";
import { hintControls } from "./hints.js";
import { explainError, initI18n, t } from "./i18n.js";
import { TurnAlerts, turnTitle } from "./notify.js";
import { applyLook, loadPrefs, savePrefs } from "./prefs.js";
import { applyPresence, presenceDot, reportVisibility } from "./presence.js";
import { UpdateQueue } from "./queue.js";
import { Sound } from "./sound.js";
import { gameFrame, eventText } from "./table-frame.js";
import { applyUpdate, emptyModel, gameOver, isMyTurn, myUpdatePending, newEvents, turnMessage } from "./table-model.js";
import { clear, h, levelName, rulesOf, seatName, setLevels, setupHeader, toast } from "./ui.js";
import { joinForm, waitingRoom } from "./waiting.js";

const P = {
  id: null,
  mode: "play", // "play" or "watch"
  table: null, // the table as the API shows it
  seat: null, // my seat once the server welcomed my token
  token: null,
  model: emptyModel(), // version, events, state (table-model.js)
  prefs: loadPrefs(), // the shell's (motion, sound, look) and the board's (prefs.js)
  sideTab: null, // the side panel's open tab (null: the first)
  notes: [], // {after: events seen, text}: lines the board adds to the move log
  shownAt: [], // {version, at}: when each update was shown (performance.now), for the tests
  ackedVersion: null, // the version my last acknowledged action made
  drawerOpen: false, // the side panel on phones
  connection: null,
  status: "connecting",
  announced: "",
  loaded: false,
  join: { draft: null, focused: false }, // the join form's name being typed, and its focus
  chat: null, // the chat panel (chat.js)
  tellVisibility: null, // tell the server now whether the page is shown (presence.js)
  clock: null, // the TableClock (clock.js): countdown, stand-ins, bots for people
  rematch: null, // the rematch's answers at a finished table (rematch.js)
  sound: null, // the Sound (sound.js)
  alerts: null, // the TurnAlerts (notify.js): notifications when my turn comes while hidden
  module: null, // the board module of the table's game (docs/ui.md, Boards)
  board: null, // its board, mounted
  ctx: null, // the context the board was given
  boardEl: h("div.board-area", { "data-testid": "board" }), // where the board draws, kept
  endPlaced: false, // whether the board placed the end frame in its last drawing
};

const main = document.getElementById("main");
const statusEl = h("span.conn", { role: "status", "aria-live": "polite" });
const announcer = h("div.visually-hidden", { "aria-live": "assertive", id: "announcer" });
// Every move told in words as it arrives (the turn changes go to the assertive announcer).
const movesAnnouncer = h("div.visually-hidden", { "aria-live": "polite", id: "moves-announcer", "data-testid": "moves-announcer" });
document.body.append(announcer, movesAnnouncer);
/** The wide layout (the side panel beside the game, not a drawer): table.css's breakpoint. */
const WIDE = matchMedia("(min-width: 900px)");
WIDE.addEventListener("change", () => render());

/**
 * The test and debugging hook (docs/ui.md, The test hook): what this page holds, read
 * only; never anything the server did not send to this viewer. `board` is what the board
 * module chooses to show of itself (its `inspect()`), `connection` the live Connection.
 */
Object.defineProperty(window, "odinTable", {
  value: Object.freeze({
    get id() {
      return P.id;
    },
    get game() {
      return P.table ? P.table.game : null;
    },
    get seat() {
      return P.seat;
    },
    get token() {
      return P.token;
    },
    get table() {
      return P.table;
    },
    get version() {
      return P.model.version;
    },
    get events() {
      return P.model.events;
    },
    get state() {
      return P.model.state;
    },
    get prefs() {
      return P.prefs;
    },
    get status() {
      return P.status;
    },
    get connection() {
      return P.connection;
    },
    get sound() {
      return P.sound;
    },
    get alerts() {
      return P.alerts;
    },
    get shownAt() {
      return P.shownAt;
    },
    get board() {
      return P.board && P.board.inspect ? P.board.inspect() : null;
    },
  }),
});

function names() {
  const st = P.model.state;
  return (st && st.names) || (P.table ? P.table.seats.map((s) => s.name || null) : []);
}

function nameOf(seat) {
  return seatName(seat, names(), P.table);
}

function isMine(seat) {
  return P.seat !== null && seat === P.seat;
}

/**
 * A seat's name as an element: a link to the profile (/u/<name>) when an account holds the
 * seat (the table's `account`, docs/protocol.md), plain text for a guest, a bot, a deleted
 * account's seat.
 */
function seatNameEl(tag, seat, attrs = {}) {
  const info = P.table && P.table.seats[seat];
  const name = nameOf(seat);
  if (info && info.account && !info.bot) {
    const href = `/u/${encodeURIComponent(info.account)}`;
    return h(`a.${tag}.account-name`, { ...attrs, href, title: name, "data-account": info.account }, name);
  }
  return h(`span.${tag}`, { ...attrs, title: name }, name);
}

// ------------------------------------------------------------------ lifecycle

async function start() {
  await initI18n();
  setupHeader([statusEl]);
  const { id, mode } = pageTable();
  if (!id) {
    showFatal(t("no_table"));
    return;
  }
  P.id = id;
  P.alerts = new TurnAlerts(id);
  P.mode = mode === "watch" ? "watch" : "play";
  document.body.classList.toggle("watching", P.mode === "watch");
  try {
    P.table = (await api.table(id)).table;
  } catch (error) {
    showFatal(error.status === 404 ? t("table_not_found") : t("load_failed", { message: error.message }));
    return;
  }
  rulesOf(P.table.game);
  let module;
  try {
    let levels;
    let words;
    [module, levels, words] = await Promise.all([
      loadBoard(P.table.game),
      api.levels(P.table.game).catch(() => []),
      loadWords(P.table.game),
    ]);
    setLevels(levels, words);
  } catch (error) {
    showFatal(t("load_failed", { message: String(error.message || error) }));
    return;
  }
  // A seat link from another device (#seat=<token>): keep the token, drop it from the URL.
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("seat");
  if (fromLink && P.mode === "play") {
    rememberSeat(id, null, fromLink, "");
    history.replaceState(null, "", location.pathname);
  }
  const mine = P.mode === "play" ? seatAt(id) : null;
  P.token = mine ? mine.token : null;
  P.clock = new TableClock(id, { token: () => P.token, seat: () => P.seat, name: nameOf, table: () => P.table, refresh: render });
  P.module = module;
  P.ctx = boardContext();
  P.board = module.mount(P.boardEl, P.ctx);
  P.connection = new Connection(
    id,
    P.token,
    { welcome: onWelcome, update: onUpdate, ack: onAck, error: onError, table: onTable, status: onStatus, clock: (msg) => P.clock.receive(msg), chat: (msg) => P.chat.receive(msg), rematch: onRematch, presence: onPresence },
    () => P.model.version,
  );
  P.chat = new ChatPanel(
    id,
    (message) => P.connection.raw(message),
    () => (P.seat === null ? null : `s${P.seat}`),
    () => Boolean(P.table && P.table.chat && P.table.chat.spectators),
    (text) => toast(text),
  );
  document.body.append(P.chat.el);
  P.tellVisibility = reportVisibility((message) => P.connection.raw(message));
  P.connection.start();
  window.addEventListener("online", () => P.connection.nudge());
  // Leaving for good (not into the back-forward cache): the board stops its timers.
  window.addEventListener("pagehide", (event) => {
    if (!event.persisted) P.board.destroy();
  });
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) P.connection.nudge();
  });
  render();
}

function showFatal(message) {
  clear(main).append(
    h("section.panel.fatal", {}, h("h1", {}, t("oops")), h("p", {}, message), h("p", {}, h("a.button", { href: "/" }, t("back_home")))),
  );
}

// ------------------------------------------------------------- the board's context

/** What the board of the table's game may use of the page (docs/ui.md, Boards). */
function boardContext() {
  return Object.freeze({
    game: P.table.game,
    tableId: P.id,
    get seat() {
      return P.seat;
    },
    get table() {
      return P.table;
    },
    get prefs() {
      return P.prefs;
    },
    t,
    act,
    canAct: () => !actionPending() && P.status === "open",
    nameOf,
    seatHead: (seat) => [presenceDot(P.table && P.table.seats[seat]), seatNameEl("player-name", seat), h("span.clock", { "data-slot": "clock" })],
    seatBadges,
    setPref,
    sound: (name) => P.sound.play(name),
    hold: (ms) => updates.hold(ms),
    release: () => updates.release(),
    redraw: () => render(),
    keepFocus: (draw) => refresh(draw),
    toast,
    note: (text) => P.notes.push({ after: P.model.events.length, text }),
    endFrame: (options = {}) => {
      P.endPlaced = true;
      return endFrame({ ...options, state: P.model.state, table: P.table, rematch: P.rematch, mySeat: P.seat, nameOf, answer: answerRematch, follow: followRematch });
    },
    hint: (onHint, redraw) => hintControls({ id: P.id, table: P.table, token: P.token, seat: P.seat, version: P.model.version, state: P.model.state }, redraw || render, onHint),
    handedToBot: () => P.seat !== null && Boolean(P.token) && !over() && Boolean(P.clock.bots()[String(P.seat)]),
    takeBackButton: () => P.clock.button("take_back", "take-back-bar", () => api.takeBack(P.id, P.token), "primary"),
  });
}

/** Whether the game is over (table-model.js's gameOver, on the page's State and table). */
function over() {
  return gameOver(P.model.state, P.table);
}

/** The shell's badges of a seat: you, the bot's level, and the clock's (bot for, stand-in). */
function seatBadges(seat) {
  const info = P.table && P.table.seats[seat];
  const badges = [];
  if (isMine(seat)) badges.push(h("span.badge.you", { title: t("you") }, t("you")));
  if (info && info.bot) badges.push(h("span.badge.bot", { title: t("bot_badge", { level: levelName(info.bot) }) }, t("bot_badge", { level: levelName(info.bot) })));
  badges.push(...P.clock.badges(seat));
  return badges;
}

// ------------------------------------------------------------- server messages

function onStatus(status, attempt) {
  P.status = status;
  const text =
    status === "open" ? t("conn_open") : status === "connecting" ? t("conn_connecting") : t("conn_reconnecting", { n: attempt });
  statusEl.textContent = text;
  statusEl.className = `conn conn-${status}`;
  refreshActions();
}

function onWelcome(msg) {
  P.table = msg.table;
  if (P.token && msg.seat === null) {
    // The token no longer opens a seat here (a reset server, an old link): forget it.
    forgetSeat(P.id);
    P.token = null;
    toast(t("seat_lost"), "error");
  }
  P.seat = msg.seat;
  if (P.token && msg.seat !== null) {
    const mine = seatAt(P.id);
    const seated = msg.table.seats[msg.seat];
    const name = (seated && seated.name) || (mine && mine.name) || "";
    if (!mine || mine.seat !== msg.seat || mine.name !== name) rememberSeat(P.id, msg.seat, P.token, name);
  }
  P.loaded = true;
  P.chat.connected();
  P.tellVisibility();
  render();
}

function onPresence(msg) {
  P.table = applyPresence(P.table, msg);
  render();
}

function onRematch(msg) {
  P.rematch = msg.rematch;
  if (msg.rematch.next_table && P.table) P.table = { ...P.table, next_table: msg.rematch.next_table };
  render();
}

P.sound = new Sound(() => P.prefs);
// Updates that arrive together are shown one after the other (queue.js).
const updates = new UpdateQueue(showUpdate, () => P.prefs.motion);

function onUpdate(msg) {
  if (msg.resync) updates.clear(); // everything again: what was queued is in it
  updates.push(msg);
}

/** Show one update: fold it into the model, tell its moves, and let the board draw it. */
function showUpdate(msg) {
  const before = P.model;
  const { model, gap } = applyUpdate(P.model, msg);
  P.model = model;
  if (gap) {
    // We missed events: ask for everything again.
    updates.clear();
    P.connection.reconnect();
    return false;
  }
  const fresh = newEvents(before, model);
  P.shownAt.push({ version: model.version, at: performance.now() });
  if (P.shownAt.length > 50) P.shownAt.shift();
  announceMoves(fresh);
  P.loaded = true;
  if (model.state.outcome && P.table) P.table = { ...P.table, status: "finished" };
  render({ fresh, first: before.state === null });
  return fresh.length > 0;
}

function onAck(msg) {
  // My action is applied; its update may still wait in the queue behind others' moves.
  P.ackedVersion = Math.max(P.ackedVersion || 0, msg.version);
  refreshActions();
}

/** An action of mine is unanswered, or answered but not shown yet: no new one now. */
function actionPending() {
  return !P.connection || P.connection.busy || myUpdatePending(P.model.version, P.ackedVersion);
}

function onError(msg, { resent }) {
  if (resent && msg.code === "stale") return; // our retried action had already moved on
  if (msg.code === "unauthorized" && !msg.id && P.token) {
    // The hello's token opens no seat here (an old link, a reset server): watch instead.
    forgetSeat(P.id);
    P.token = null;
    P.seat = null;
    toast(t("seat_lost"), "error");
    P.connection.setToken(null);
    render();
    return;
  }
  const explain = P.board && P.board.explain ? (message) => P.board.explain(message) : null;
  toast(explainError(msg.code, msg.message, explain), "error");
  refreshActions();
}

function onTable(msg) {
  P.table = msg.table;
  P.clock.tableChanged(msg.table);
  render();
}

// ---------------------------------------------------------------- actions

/** Send an action (its text, as State.legal says it) unless one of mine is pending. */
function act(action) {
  if (actionPending()) return;
  P.connection.act(action, P.model.version);
  refreshActions();
}

/** Redraw part of the page without losing the keyboard focus. */
function refresh(...parts) {
  const focused = focusKey();
  for (const part of parts) part();
  restoreFocus(focused);
}

/** Whether an action may be sent changed (connection, a pending action): the board's
 * controls follow, without drawing the whole board again when it can do less. */
function refreshActions() {
  if (!P.board || !P.model.state || !document.body.classList.contains("in-game")) return;
  if (P.board.refresh) refresh(() => P.board.refresh());
  else render();
}

async function join(seat, nameInput) {
  const name = nameInput.value.trim();
  if (!name) {
    nameInput.focus();
    toast(t("name_needed"), "error");
    return;
  }
  try {
    const answer = await api.join(P.id, seat, name);
    saveName(name);
    rememberSeat(P.id, answer.seat, answer.token, name);
    P.token = answer.token;
    P.seat = answer.seat;
    P.model = { ...P.model, version: null };
    P.connection.setToken(answer.token);
    P.table = (await api.table(P.id)).table;
    render();
  } catch (error) {
    // An account's name (409 account_name): the server's words say to log in as it.
    const key = error.code === "account_name" ? null : error.status === 409 ? "seat_taken" : error.status === 422 ? "bad_name" : null;
    toast(key ? t(key) : t("join_failed", { message: error.message }), "error");
    try {
      P.table = (await api.table(P.id)).table;
    } catch {
      /* keep the old table */
    }
    render();
  }
}

async function answerRematch(answer, extra) {
  const mine = seatAt(P.id);
  if (!mine) return;
  try {
    const result = await api.rematch(P.id, mine.token, answer, extra);
    onRematch({ rematch: result.rematch });
  } catch (error) {
    toast(t("rematch_failed", { message: error.message }), "error");
  }
}

/** Go to the next table: seated there with my token if I accepted, else watching. */
function followRematch(next, seated) {
  const mine = seatAt(P.id);
  if (seated && mine) {
    rememberSeat(next, mine.seat, mine.token, mine.name);
    location.href = `/t/${encodeURIComponent(next)}`;
  } else location.href = `/t/${encodeURIComponent(next)}/watch`;
}

function setPref(name, value) {
  P.prefs = { ...P.prefs, [name]: value };
  savePrefs(P.prefs);
  applyLook(P.prefs);
  render();
}

// ---------------------------------------------------------------- rendering

/**
 * Keep keyboard focus on the same control across a re-render (a card, a button, the chat):
 * an element with `data-card`, `data-testid` or an id is found again; one that is gone
 * leaves the focus on the first button of the board's `[data-focus-home]` (the hand).
 * The chat waits outside the table until the first position shows: moving it in must not
 * take the focus from what is being typed there either.
 */
function focusKey() {
  const el = document.activeElement;
  if (!el || el === document.body || !(main.contains(el) || (P.chat && P.chat.el.contains(el)))) return null;
  const tag = el.tagName.toLowerCase();
  if (el.dataset.card) return `${tag}[data-card="${el.dataset.card}"]`;
  if (el.dataset.testid) return `${tag}[data-testid="${el.dataset.testid}"]`;
  if (el.id) return `#${CSS.escape(el.id)}`;
  return null;
}

function restoreFocus(key) {
  if (!key) return;
  const selector = `${key}:not([disabled])`;
  const el = main.querySelector(selector) || (P.chat && P.chat.el.querySelector(selector)) || main.querySelector("[data-focus-home] button");
  if (el && el !== document.activeElement) el.focus({ preventScroll: true });
}

/** Tell screen readers each move that arrived, in the board's words (else the log's). */
function announceMoves(events) {
  const said = [];
  for (const e of events) {
    const text = P.board && P.board.say ? P.board.say(e) : eventText(e, nameOf);
    if (text) said.push(text);
  }
  if (!said.length) return;
  // Added lines are read out; the last few stay, older ones leave.
  movesAnnouncer.append(h("p", {}, said.join(" ")));
  while (movesAnnouncer.childElementCount > 6) movesAnnouncer.firstElementChild.remove();
}

/** Whose turn it is and what to do: the board's words, else the plain ones. */
function turnText(st) {
  if (!st) return "";
  if (P.board && P.board.turnText) return P.board.turnText(st);
  const turn = turnMessage(st, P.seat, over());
  if (!turn) return "";
  return t(turn.key, { ...turn.params, name: turn.seat === undefined ? "" : nameOf(turn.seat) });
}

/** Tell screen readers (and the tab title) when the turn changes, once per change. */
function announce(st) {
  const text = st ? turnText(st) : "";
  if (text && text !== P.announced) {
    P.announced = text;
    announcer.textContent = text;
    // Phones buzz briefly on your turn (browsers allow it only after a first tap).
    const active = navigator.userActivation ? navigator.userActivation.hasBeenActive : false;
    const mine = isMyTurn(st, P.seat) && !over();
    if (mine && navigator.vibrate && active) navigator.vibrate(80);
    if (mine) P.sound.play("turn");
  }
}

/** Draw the page again; `update`: {fresh, first} when an update from the server caused it. */
function render(update = null) {
  if (!P.table || !P.board) return;
  const focused = focusKey();
  try {
    draw(update);
  } finally {
    restoreFocus(focused);
    const st = P.table.status === "waiting" ? null : P.model.state;
    announce(st);
    P.alerts.update(st, P.seat, () => turnText(P.model.state));
    P.clock.paint();
  }
}

function draw(update) {
  document.title = titleText();
  const closed = closedNotice(P.table);
  const waiting = P.table.status === "waiting";
  const playing = !closed && !waiting && P.model.state && P.board;
  if (!playing) {
    clear(main);
    document.body.classList.remove("in-game");
    if (closed) {
      main.append(closed);
      return;
    }
  }
  if (P.mode === "play" && P.seat === null && !P.token && waiting) {
    main.append(joinForm({ id: P.id, table: P.table, form: P.join, join }));
  }
  if (waiting) {
    const options = P.module.describeOptions ? P.module.describeOptions(P.table.options, P.table.players) : "";
    main.append(waitingRoom({ table: P.table, mySeat: P.seat, options, seatNameEl, changed: (table) => ((P.table = table), render()) }), P.chat.el);
    return;
  }
  if (!playing) {
    main.append(h("p.loading", {}, P.loaded ? t("waiting_for_state") : t("loading")));
    return;
  }
  const st = P.model.state;
  // The board's last drawing stays in place while the frame around it is built again, so
  // that it can measure where its pieces were before it draws the new position.
  const frame = gameFrame({
    state: st,
    board: P.board,
    boardEl: P.boardEl,
    banner: turnText(st),
    mine: isMyTurn(st, P.seat),
    seat: P.seat,
    id: P.id,
    token: P.token,
    wide: WIDE.matches,
    over: over(),
    tools: [P.seat !== null && !over() ? P.alerts.button(render) : null, P.clock.controls(!over())],
    sideTab: P.sideTab,
    drawerOpen: P.drawerOpen,
    prefs: P.prefs,
    events: P.model.events,
    notes: P.notes,
    chatEl: P.chat.el,
    nameOf,
    onTab: (key) => ((P.sideTab = key), render()),
    onDrawer: (open) => ((P.drawerOpen = open), render()),
    onPref: setPref,
  });
  main.replaceChildren(frame);
  document.body.classList.add("in-game");
  P.endPlaced = false;
  const fresh = update ? update.fresh : [];
  const info = { version: P.model.version, events: P.model.events, fresh, first: Boolean(update && update.first), over: over() };
  P.board.update(st, info);
  if (info.over && !P.endPlaced) P.boardEl.prepend(P.ctx.endFrame());
}

function titleText() {
  const st = P.model.state;
  if (P.table && P.table.status === "waiting") return `${t("waiting_title")} · Odin`;
  if (st && over()) return `${t("game_over")} · Odin`;
  return turnTitle(st, P.seat, nameOf) || "Odin";
}

start();

// The table page, /t/{id} (join and play) and /t/{id}/watch (spectate).
//
// The page keeps the public event list and the latest State from the server (folded by
// the pure functions of table-state.js) and re-renders from them; the only local state is
// the card selection and the viewer's preferences. Legal actions come from State.legal:
// the client explains a selection (value, does it beat the table) but never decides
// legality on its own.

import { hintControls } from "./hints.js";
import { closedNotice, closesText, creatorControls } from "./access.js";
import { api, absoluteUrl, copyText, forgetSeat, pageTable, rememberSeat, savedName, saveName, seatAt } from "./api.js";
import { playText, sortCards } from "./cards.js";
import { ChatPanel } from "./chat.js";
import { TableClock } from "./clock.js";
import { Connection } from "./connection.js";
import { handSummaries, winnersOf } from "./history.js";
import { explainError, initI18n, t } from "./i18n.js";
import { optionsSummaryText } from "./options-text.js";
import { applyPresence, presenceDot, reportVisibility } from "./presence.js";
import { animateEvents, snapshot, UpdateQueue } from "./motion.js";
import { applyLook, loadPrefs, savePrefs } from "./prefs.js";
import { rematchPanel } from "./rematch.js";
import { Sound } from "./sound.js";
import { statisticsPanel, TableStatistics } from "./statistics.js";
import { TurnAlerts, turnTitle } from "./notify.js";
import {
  applyUpdate,
  automaticAction,
  emptyModel,
  eventMessage,
  isMyTurn,
  keepSelection,
  myUpdatePending,
  newEvents,
  nextCardIndex,
  roundKey,
  scoreShown,
  seatPlaces,
  seatStatus,
  selectionVerdict,
  takeableCards,
  toggleSelection,
  turnMessage,
  usableCards,
} from "./table-state.js";
import { backsEl, cardEl, cardLabel, cardRow, clear, h, levelName, seatName, setLevels, setupHeader, toast } from "./ui.js";

const SORT_KEY = "odin.sort";
const SCORE_KEY = "odin.scoreView";

const S = {
  id: null,
  mode: "play", // "play" or "watch"
  table: null,
  seat: null, // my seat once the server welcomed my token
  token: null,
  ...emptyModel(), // version, events, state, summarySeen, summaryOpen (table-state.js)
  selection: [], // the cards selected in my hand
  sortBy: localStorage.getItem(SORT_KEY) === "number" ? "number" : "colour",
  // Scores as penalty points counting up, or counting down from the target (as on Board
  // Game Arena): the same rules, two presentations (RULES.md).
  scoreView: localStorage.getItem(SCORE_KEY) === "countdown" ? "countdown" : "points",
  sideTab: "scores", // the side panel's open tab
  prefs: loadPrefs(), // automation, motion, sound (prefs.js)
  passRound: null, // roundKey of the round I pass for to its end (null: not chosen)
  autoNotes: [], // {after: events seen, text}: what my automation did, shown in the log
  autoVersion: null, // the version my automation last acted at (never twice at one)
  motionLog: [], // {type, seat} of each animation started (motion.js), for the tests
  shownAt: [], // {version, at}: when each update was shown (performance.now), for the tests
  holdMs: null, // how long a hand's summary holds the next hand (null: HOLD_MS); tests lengthen it
  sound: null, // the Sound (sound.js)
  alerts: null, // the TurnAlerts (notify.js): notifications when my turn comes while hidden
  statistics: null, // the TableStatistics (statistics.js), once the game is over
  ackedVersion: null, // the version my last acknowledged action made
  drawerOpen: false, // the side panel on phones
  connection: null,
  status: "connecting",
  announced: "",
  loaded: false,
  nameDraft: null, // the name being typed in the join form
  nameFocused: false,
  chat: null, // the chat panel (chat.js)
  clock: null, // the TableClock (clock.js): countdown, stand-ins, bots for people
  rematch: null, // the rematch's answers at a finished table (rematch.js)
};

// Test and debugging hook: the page's own view only (never anything hidden from it).
window.odin = S;

const main = document.getElementById("main");
const statusEl = h("span.conn", { role: "status", "aria-live": "polite" });
const announcer = h("div.visually-hidden", { "aria-live": "assertive", id: "announcer" });
// Every move told in words as it arrives (the turn changes go to the assertive announcer).
const movesAnnouncer = h("div.visually-hidden", { "aria-live": "polite", id: "moves-announcer", "data-testid": "moves-announcer" });
document.body.append(announcer, movesAnnouncer);
/** The wide layout (the side panel beside the game, not a drawer): table.css's breakpoint. */
const WIDE = matchMedia("(min-width: 900px)");
WIDE.addEventListener("change", () => render());

function names() {
  return (S.state && S.state.names) || (S.table ? S.table.seats.map((s) => s.name || null) : []);
}

function nameOf(seat) {
  return seatName(seat, names(), S.table);
}

function isMine(seat) {
  return S.seat !== null && seat === S.seat;
}

/**
 * A seat's name as an element: a link to the profile (/u/<name>) when an account holds the
 * seat (the table's `account`, docs/protocol.md), plain text for a guest, a bot, a deleted
 * account's seat.
 */
function seatNameEl(tag, seat, attrs = {}) {
  const info = S.table && S.table.seats[seat];
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
  S.id = id;
  S.alerts = new TurnAlerts(id);
  setLevels(await api.levels().catch(() => []));
  S.mode = mode === "watch" ? "watch" : "play";
  document.body.classList.toggle("watching", S.mode === "watch");
  try {
    S.table = (await api.table(id)).table;
  } catch (error) {
    showFatal(error.status === 404 ? t("table_not_found") : t("load_failed", { message: error.message }));
    return;
  }
  // A seat link from another device (#seat=<token>): keep the token, drop it from the URL.
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("seat");
  if (fromLink && S.mode === "play") {
    rememberSeat(id, null, fromLink, "");
    history.replaceState(null, "", location.pathname);
  }
  const mine = S.mode === "play" ? seatAt(id) : null;
  S.token = mine ? mine.token : null;
  S.clock = new TableClock(id, { token: () => S.token, seat: () => S.seat, name: nameOf, table: () => S.table, refresh: render });
  S.connection = new Connection(
    id,
    S.token,
    { welcome: onWelcome, update: onUpdate, ack: onAck, error: onError, table: onTable, status: onStatus, clock: (msg) => S.clock.receive(msg), chat: (msg) => S.chat.receive(msg), rematch: onRematch, presence: onPresence },
    () => S.version,
  );
  S.chat = new ChatPanel(
    id,
    (message) => S.connection.raw(message),
    () => (S.seat === null ? null : `s${S.seat}`),
    () => Boolean(S.table && S.table.chat && S.table.chat.spectators),
    (text) => toast(text),
  );
  document.body.append(S.chat.el);
  S.tellVisibility = reportVisibility((message) => S.connection.raw(message));
  S.connection.start();
  window.addEventListener("online", () => S.connection.nudge());
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) S.connection.nudge();
  });
  render();
}

function showFatal(message) {
  clear(main).append(
    h("section.panel.fatal", {}, h("h1", {}, t("oops")), h("p", {}, message), h("p", {}, h("a.button", { href: "/" }, t("back_home")))),
  );
}

// ------------------------------------------------------------- server messages

function onStatus(status, attempt) {
  S.status = status;
  const text =
    status === "open" ? t("conn_open") : status === "connecting" ? t("conn_connecting") : t("conn_reconnecting", { n: attempt });
  statusEl.textContent = text;
  statusEl.className = `conn conn-${status}`;
  refresh(renderActions);
}

function onWelcome(msg) {
  S.table = msg.table;
  if (S.token && msg.seat === null) {
    // The token no longer opens a seat here (a reset server, an old link): forget it.
    forgetSeat(S.id);
    S.token = null;
    toast(t("seat_lost"), "error");
  }
  S.seat = msg.seat;
  if (S.token && msg.seat !== null) {
    const mine = seatAt(S.id);
    const seated = msg.table.seats[msg.seat];
    const name = (seated && seated.name) || (mine && mine.name) || "";
    if (!mine || mine.seat !== msg.seat || mine.name !== name) rememberSeat(S.id, msg.seat, S.token, name);
  }
  S.loaded = true;
  S.chat.connected();
  S.tellVisibility();
  render();
}

function onPresence(msg) {
  S.table = applyPresence(S.table, msg);
  render();
}

function onRematch(msg) {
  S.rematch = msg.rematch;
  if (msg.rematch.next_table && S.table) S.table = { ...S.table, next_table: msg.rematch.next_table };
  render();
}

S.sound = new Sound(() => S.prefs);
// Updates that arrive together are shown one after the other (motion.js).
const updates = new UpdateQueue(showUpdate, () => S.prefs.motion);

function onUpdate(msg) {
  if (msg.resync) updates.clear(); // everything again: what was queued is in it
  updates.push(msg);
}

// Sounds by importance: one per update, the most important of its events.
const SOUNDS = [
  ["game_end", "game"],
  ["hand_end", "hand"],
  ["round", "round"],
  ["take", "take"],
  ["play", "play"],
];

/** Show one update: fold it into the model, redraw, animate and sound its moves. */
function showUpdate(msg) {
  const before = { version: S.version, events: S.events };
  const rects = snapshot(main);
  const { model, gap, summary } = applyUpdate(S, msg);
  Object.assign(S, model);
  if (gap) {
    // We missed events: ask for everything again.
    updates.clear();
    S.connection.reconnect();
    return false;
  }
  const fresh = newEvents(before, model);
  S.shownAt.push({ version: S.version, at: performance.now() });
  if (S.shownAt.length > 50) S.shownAt.shift();
  announceMoves(fresh);
  S.loaded = true;
  S.selection = keepSelection(S.selection, S.state.hand);
  if (S.state.outcome && S.table) S.table = { ...S.table, status: "finished" };
  // A hand's end holds the next hand's first moves until the summary is closed (or a few
  // seconds pass); the next hand's first move then closes it.
  if (summary && !S.state.outcome) updates.hold(S.holdMs ?? HOLD_MS);
  else if (S.summaryOpen && !S.state.outcome && fresh.some((e) => e.type !== "deal")) S.summaryOpen = null;
  render();
  animateEvents(fresh, {
    root: main,
    before: rects,
    mySeat: S.seat,
    speed: S.prefs.motion,
    makeCard: (card) => cardEl(card, { size: "lg" }),
    log: S.motionLog,
  });
  const types = new Set(fresh.map((e) => e.type));
  const sound = SOUNDS.find(([type]) => types.has(type));
  if (sound) S.sound.play(sound[1]);
  return fresh.some((e) => e.type !== "deal");
}

const HOLD_MS = 6000;

function onAck(msg) {
  // My action is applied; its update may still wait in the queue behind others' moves.
  S.ackedVersion = Math.max(S.ackedVersion || 0, msg.version);
  refresh(renderActions);
}

/** An action of mine is unanswered, or answered but not shown yet: no new one now. */
function actionPending() {
  return !S.connection || S.connection.busy || myUpdatePending(S.version, S.ackedVersion);
}

function onError(msg, { resent }) {
  if (resent && msg.code === "stale") return; // our retried action had already moved on
  if (msg.code === "unauthorized" && !msg.id && S.token) {
    // The hello's token opens no seat here (an old link, a reset server): watch instead.
    forgetSeat(S.id);
    S.token = null;
    S.seat = null;
    toast(t("seat_lost"), "error");
    S.connection.setToken(null);
    render();
    return;
  }
  toast(explainError(msg.code, msg.message), "error");
  refresh(renderActions);
}

function onTable(msg) {
  S.table = msg.table;
  S.clock.tableChanged(msg.table);
  render();
}

// ---------------------------------------------------------------- actions

function act(action) {
  if (actionPending()) return;
  S.connection.act(action, S.version);
  refresh(renderActions);
}

function legal() {
  return (S.state && S.state.legal) || [];
}

/** Redraw part of the page without losing the keyboard focus. */
function refresh(...parts) {
  const focused = focusKey();
  for (const part of parts) part();
  restoreFocus(focused);
}

function toggleCard(card) {
  S.selection = toggleSelection(S.selection, card);
  refresh(renderHand, renderActions);
}

function playSelection() {
  if (!selectionVerdict(S.state, S.seat, S.selection).canPlay) return;
  const text = playText(S.selection);
  // The selection stays until the update removes the played cards from the hand, so
  // that a refused action (a stale version) can simply be played again.
  act(text);
}

async function join(seat, nameInput) {
  const name = nameInput.value.trim();
  if (!name) {
    nameInput.focus();
    toast(t("name_needed"), "error");
    return;
  }
  try {
    const answer = await api.join(S.id, seat, name);
    saveName(name);
    rememberSeat(S.id, answer.seat, answer.token, name);
    S.token = answer.token;
    S.seat = answer.seat;
    S.version = null;
    S.connection.setToken(answer.token);
    S.table = (await api.table(S.id)).table;
    render();
  } catch (error) {
    // An account's name (409 account_name): the server's words say to log in as it.
    const key = error.code === "account_name" ? null : error.status === 409 ? "seat_taken" : error.status === 422 ? "bad_name" : null;
    toast(key ? t(key) : t("join_failed", { message: error.message }), "error");
    try {
      S.table = (await api.table(S.id)).table;
    } catch {
      /* keep the old table */
    }
    render();
  }
}

async function answerRematch(answer, extra) {
  const mine = seatAt(S.id);
  if (!mine) return;
  try {
    const result = await api.rematch(S.id, mine.token, answer, extra);
    onRematch({ rematch: result.rematch });
  } catch (error) {
    toast(t("rematch_failed", { message: error.message }), "error");
  }
}

/** Go to the next table: seated there with my token if I accepted, else watching. */
function followRematch(next, seated) {
  const mine = seatAt(S.id);
  if (seated && mine) {
    rememberSeat(next, mine.seat, mine.token, mine.name);
    location.href = `/t/${encodeURIComponent(next)}`;
  } else location.href = `/t/${encodeURIComponent(next)}/watch`;
}

// ---------------------------------------------------------------- rendering

/**
 * Keep keyboard focus on the same control across a re-render (a card, a button, the chat).
 * The chat waits outside the table until the first position shows: moving it in must not
 * take the focus from what is being typed there either.
 */
function focusKey() {
  const el = document.activeElement;
  if (!el || el === document.body || !(main.contains(el) || (S.chat && S.chat.el.contains(el)))) return null;
  const tag = el.tagName.toLowerCase();
  if (el.dataset.card) return `${tag}[data-card="${el.dataset.card}"]`;
  if (el.dataset.testid) return `${tag}[data-testid="${el.dataset.testid}"]`;
  if (el.id) return `#${CSS.escape(el.id)}`;
  return null;
}

function restoreFocus(key) {
  if (!key) return;
  const selector = `${key}:not([disabled])`;
  const el = main.querySelector(selector) || (S.chat && S.chat.el.querySelector(selector)) || main.querySelector('[data-testid="hand"] button');
  if (el && el !== document.activeElement) el.focus({ preventScroll: true });
}

/** Tell screen readers each move that arrived ("Bob plays blue 3 blue 7, worth 73."). */
function announceMoves(events) {
  const said = [];
  for (const e of events) {
    const message = eventMessage(e);
    if (!message) continue;
    const params = { ...message.params, name: nameOf(message.seat) };
    if (e.type === "play") params.cards = e.cards.map(cardLabel).join(", ");
    if (e.type === "take") params.card = cardLabel(e.card);
    said.push(t(message.key, params));
  }
  if (!said.length) return;
  // Added lines are read out; the last few stay, older ones leave.
  movesAnnouncer.append(h("p", {}, said.join(" ")));
  while (movesAnnouncer.childElementCount > 6) movesAnnouncer.firstElementChild.remove();
}

/** Tell screen readers (and the tab title) when the turn changes, once per change. */
function announce(st) {
  const text = st ? turnText(st) : "";
  if (text && text !== S.announced) {
    S.announced = text;
    announcer.textContent = text;
    // Phones buzz briefly on your turn (browsers allow it only after a first tap).
    const active = navigator.userActivation ? navigator.userActivation.hasBeenActive : false;
    if (st && isMine(st.to_move) && !st.outcome && navigator.vibrate && active) navigator.vibrate(80);
    if (st && isMine(st.to_move) && !st.outcome) S.sound.play("turn");
  }
}

function render() {
  if (!S.table) return;
  const focused = focusKey();
  try {
    draw();
  } finally {
    restoreFocus(focused);
    announce(S.table.status === "waiting" ? null : S.state);
    S.alerts.update(S.table.status === "waiting" ? null : S.state, S.seat, () => turnText(S.state));
    scheduleAutomation();
    S.clock.paint();
  }
}

let automationTimer = null;

/**
 * My automation preferences act a moment after the position shows (so that the move can
 * be seen), once per version, and each action is logged where I can see it.
 */
function scheduleAutomation() {
  clearTimeout(automationTimer);
  if (!S.state || S.seat === null || S.autoVersion === S.version) return;
  if (!automaticAction(S.state, S.seat, S.events, S.prefs, S.passRound)) return;
  automationTimer = setTimeout(() => {
    const auto = automaticAction(S.state, S.seat, S.events, S.prefs, S.passRound);
    if (!auto || S.autoVersion === S.version || actionPending() || S.status !== "open") return;
    S.autoVersion = S.version;
    const params = { ...auto.params };
    if (params.card) params.card = cardLabel(params.card);
    const text = t(auto.key, params);
    S.autoNotes.push({ after: S.events.length, text });
    toast(text);
    act(auto.action);
    render();
  }, 400);
}

function setPref(name, value) {
  S.prefs = { ...S.prefs, [name]: value };
  savePrefs(S.prefs);
  applyLook(S.prefs);
  render();
}

function draw() {
  document.title = titleText();
  clear(main);
  document.body.classList.remove("in-game");
  const waiting = S.table.status === "waiting";
  const closed = closedNotice(S.table);
  if (closed) {
    main.append(closed);
    return;
  }
  if (S.mode === "play" && S.seat === null && !S.token && S.table.status === "waiting") main.append(renderJoin());
  if (waiting) {
    main.append(renderWaiting(), S.chat.el);
    return;
  }
  if (!S.state) {
    main.append(h("p.loading", {}, S.loaded ? t("waiting_for_state") : t("loading")));
    return;
  }
  document.body.classList.add("in-game");
  main.append(renderGame());
  renderHand();
  renderActions();
}

function titleText() {
  const st = S.state;
  if (S.table && S.table.status === "waiting") return `${t("waiting_title")} · Odin`;
  if (st && st.outcome) return `${t("game_over")} · Odin`;
  return turnTitle(st, S.seat, nameOf) || "Odin";
}

function linkBox(labelKey, url, testId) {
  const input = h("input.link", { type: "text", readonly: true, value: url, "aria-label": t(labelKey), "data-testid": testId });
  const button = h("button.secondary", {
    type: "button",
    onclick: async () => toast((await copyText(url)) ? t("copied") : t("copy_failed")),
  }, t("copy"));
  return h("div.linkbox", {}, h("label", {}, t(labelKey)), h("div.linkrow", {}, input, button));
}

function renderJoin() {
  const input = h("input", { id: "name",
    type: "text",
    maxlength: "24",
    autocomplete: "nickname",
    value: S.nameDraft ?? savedName(),
    placeholder: t("your_name"),
    "aria-label": t("your_name"),
  });
  // The page re-renders when someone else sits down: keep what is being typed, and focus.
  input.addEventListener("input", () => (S.nameDraft = input.value));
  input.addEventListener("keydown", (e) => {
    const first = S.table.seats.find((seat) => !seat.taken && !seat.bot && !seat.locked);
    if (e.key === "Enter" && first) join(first.seat, input);
  });
  requestAnimationFrame(() => {
    if (document.activeElement === document.body || S.nameFocused) input.focus();
  });
  input.addEventListener("focus", () => (S.nameFocused = true));
  input.addEventListener("blur", () => (S.nameFocused = false));
  const free = S.table.seats.filter((s) => !s.taken && !s.bot && !s.locked);
  const seats = free.length
    ? free.map((s) =>
        h("button.primary.seat-button", { type: "button", "data-seat": String(s.seat), onclick: () => join(s.seat, input) }, t("take_seat", { n: s.seat + 1 })),
      )
    : [h("p", {}, t("no_free_seat"))];
  return h(
    "section.panel.join",
    {},
    h("h1", {}, t("join_title")),
    h("p", {}, t("join_help")),
    h("label.field", {}, h("span", {}, t("your_name")), input),
    h("div.seat-buttons", {}, seats),
    h("p.small", {}, h("a", { href: `/t/${encodeURIComponent(S.id)}/watch` }, t("just_watch"))),
  );
}

function renderWaiting() {
  const table = S.table;
  const filled = table.seats.filter((s) => s.taken || s.bot).length;
  const list = h(
    "ul.seat-list",
    {},
    table.seats.map((s) =>
      h(
        "li",
        { class: isMine(s.seat) ? "me" : "" },
        h("span.seat-no", {}, t("seat_n", { n: s.seat + 1 })),
        presenceDot(s),
        s.bot || s.taken
          ? seatNameEl("seat-who", s.seat, { "data-testid": `seat-who-${s.seat}` })
          : h("span.seat-who", { "data-testid": `seat-who-${s.seat}` }, t(s.locked ? "locked_seat" : "free_seat")),
        isMine(s.seat) ? h("span.badge.you", {}, t("you")) : null,
      ),
    ),
  );
  return h(
    "section.panel.waiting",
    { "data-testid": "waiting" },
    h("h1", {}, t("waiting_title")),
    h("p.lead-text", {}, t("waiting_count", { filled, players: table.players })),
    list,
    linkBox("invite_link", absoluteUrl(table.invite_url || `/t/${table.id}`), "invite"),
    linkBox("watch_link", absoluteUrl(table.watch_url || `/t/${table.id}/watch`), "watch"),
    h("p.small", {}, optionsSummaryText(table.options, table.players)),
    closesText(table) ? h("p.small.closes", { "data-testid": "closes" }, closesText(table)) : null,
    creatorControls(table, (changed) => ((S.table = changed), render())),
  );
}

function turnText(st) {
  const turn = turnMessage(st, S.seat);
  if (!turn) return "";
  return t(turn.key, { ...turn.params, name: turn.seat === undefined ? "" : nameOf(turn.seat) });
}

/**
 * The one-screen table: the turn banner, the other players around the felt, the set on
 * the table in the middle, my seat and hand at the bottom with Play / Pass / Clear; the
 * scores and the move log in a side panel (a drawer on phones). Each seat has empty slots
 * for a clock and a presence dot, filled by later features.
 */
function renderGame() {
  const st = S.state;
  const mineTurn = isMyTurn(st, S.seat);
  const places = seatPlaces(st.players, S.seat);
  const around = { left: [], top: [], right: [] };
  for (const { seat, place } of places) if (place !== "bottom") around[place].push(renderPlayer(st, seat, place));
  const drawerButton = h(
    "button.ghost.drawer-toggle",
    {
      type: "button",
      "aria-controls": "side",
      "aria-expanded": S.drawerOpen ? "true" : "false",
      "data-testid": "drawer-toggle",
      onclick: () => {
        S.drawerOpen = !S.drawerOpen;
        render();
      },
    },
    t("scores_and_moves"),
  );
  // My seat's tools (turn alerts, leave): beside the turn on a wide screen; on a phone in the
  // drawer, so that the table still fits one screen.
  const tools = [S.seat !== null && !st.outcome ? S.alerts.button(render) : null, S.clock.controls(!st.outcome)];
  const head = h(
    "div.stage-head",
    {},
    h("div.turn-banner", { id: "turn", "data-testid": "turn", class: mineTurn ? "mine" : "" }, turnText(st)),
    WIDE.matches ? tools : null,
    drawerButton,
  );
  const ring = h(
    "div.ring",
    { role: "group", "aria-label": t("players"), class: `opponents-${places.filter((p) => p.place !== "bottom").length}` },
    h("div.seats-top", {}, around.top),
    h("div.seats-left", {}, around.left),
    h("div.seats-right", {}, around.right),
    renderTableArea(st),
  );
  const mine = S.seat !== null && !st.outcome ? renderMySeat(st) : null;
  const stage = h("div.stage", { class: mine ? "" : "no-hand" }, head, ring, mine);
  const side = renderSide(st, WIDE.matches ? null : h("div.side-tools", {}, tools));
  return h("div.game", { "data-testid": "game", class: S.drawerOpen ? "drawer-open" : "" }, stage, side);
}

/** One player's place at the table: name, points, hand size, status, known cards. */
function renderPlayer(st, seat, place) {
  const info = S.table && S.table.seats[seat];
  const status = seatStatus(st, S.events, seat);
  const classes = ["player", `place-${place}`];
  if (status.toMove) classes.push("to-move");
  if (isMine(seat)) classes.push("me");
  if (status.passed) classes.push("passed");
  const badges = [];
  if (isMine(seat)) badges.push(h("span.badge.you", { title: t("you") }, t("you")));
  if (info && info.bot) badges.push(h("span.badge.bot", { title: t("bot_badge", { level: levelName(info.bot) }) }, t("bot_badge", { level: levelName(info.bot) })));
  badges.push(...S.clock.badges(seat));
  if (status.toMove) badges.push(h("span.badge.turn", { title: t("to_move") }, t("to_move")));
  if (status.passed) badges.push(h("span.badge.pass", { title: t("passed") }, t("passed")));
  if (status.leader) badges.push(h("span.badge.leader", { title: t("hand_leader") }, t("hand_leader_short")));
  const known = status.known;
  return h(
    "article",
    { class: classes.join(" "), "data-seat": String(seat), "aria-current": status.toMove ? "true" : null },
    h(
      "div.player-head",
      {},
      presenceDot(info),
      seatNameEl("player-name", seat),
      h("span.clock", { "data-slot": "clock" }),
    ),
    h("div.player-line", {}, h("span.player-score", { title: t("points") }, scoreText(st, status.points)), backsEl(status.handSize)),
    h("div.badges", {}, badges),
    known.length && !isMine(seat) ? h("div.known", { title: t("known_cards") }, h("span.small", {}, t("known_cards")), cardRow(known, "xs")) : null,
  );
}

/** My seat at the bottom of the table: my line (like the others'), my hand, the buttons. */
function renderMySeat(st) {
  return h(
    "section.myseat",
    { "aria-label": t("your_hand") },
    renderPlayer(st, S.seat, "bottom"),
    st.hand ? h("div.myhand", { id: "me" }) : null,
  );
}

/** The side panel (a drawer on phones): tabs for the scores and the move log. */
/** The viewer's preferences: automation, motion, sound (remembered, prefs.js). */
function renderSettings() {
  const check = (name, label, help) =>
    h(
      "label.check",
      {},
      h("input", {
        type: "checkbox",
        id: `pref-${name}`,
        "data-testid": `pref-${name}`,
        checked: S.prefs[name],
        onchange: (e) => setPref(name, e.target.checked),
      }),
      h("span", {}, label),
      help ? h("span.help", {}, help) : null,
    );
  const choice = (name, label, values, prefix) =>
    h(
      "div.segmented",
      { role: "group", "aria-label": label },
      values.map((value) =>
        h(
          "button",
          {
            type: "button",
            "aria-pressed": S.prefs[name] === value ? "true" : "false",
            "data-testid": `${prefix}-${value}`,
            onclick: () => setPref(name, value),
          },
          t(`${prefix}_${value}`),
        ),
      ),
    );
  return h(
    "section.settings",
    { "aria-label": t("settings") },
    // Automation plays for a seat: spectators have none.
    S.seat === null ? null : h("h3", {}, t("automation")),
    S.seat === null ? null : check("autoPass", t("pref_auto_pass"), t("pref_auto_pass_help")),
    S.seat === null ? null : check("autoTake", t("pref_auto_take"), t("pref_auto_take_help")),
    h("h3", {}, t("look")),
    choice("theme", t("theme"), ["auto", "light", "dark"], "theme"),
    choice("cardSize", t("card_size"), ["small", "normal", "large"], "cards"),
    h("h3", {}, t("motion")),
    h(
      "div.segmented",
      { role: "group", "aria-label": t("motion") },
      ["normal", "fast", "off"].map((speed) =>
        h(
          "button",
          {
            type: "button",
            "aria-pressed": S.prefs.motion === speed ? "true" : "false",
            "data-testid": `motion-${speed}`,
            onclick: () => setPref("motion", speed),
          },
          t(`motion_${speed}`),
        ),
      ),
    ),
    h("h3", {}, t("sound")),
    check("sound", t("pref_sound")),
    h(
      "label.volume",
      {},
      h("span", {}, t("volume")),
      h("input", {
        type: "range",
        min: "0",
        max: "100",
        step: "5",
        value: String(Math.round(S.prefs.volume * 100)),
        "data-testid": "pref-volume",
        disabled: !S.prefs.sound,
        onchange: (e) => setPref("volume", Number(e.target.value) / 100),
      }),
    ),
  );
}

function renderSide(st, tools) {
  const tabs = [
    ["scores", t("scores"), () => renderScores(st)],
    ["log", t("move_log"), () => renderLog()],
    ["settings", t("settings"), () => renderSettings()],
  ];
  const tablist = h(
    "div.side-tabs",
    { role: "tablist", "aria-label": t("scores_and_moves") },
    tabs.map(([key, label]) =>
      h(
        "button",
        {
          type: "button",
          role: "tab",
          id: `tab-${key}`,
          "aria-selected": S.sideTab === key ? "true" : "false",
          "aria-controls": `panel-${key}`,
          tabindex: S.sideTab === key ? "0" : "-1",
          "data-testid": `tab-${key}`,
          onclick: () => {
            S.sideTab = key;
            render();
          },
        },
        label,
      ),
    ),
  );
  const panels = tabs.map(([key, , draw]) =>
    h("div.side-panel", { role: "tabpanel", id: `panel-${key}`, "aria-labelledby": `tab-${key}`, hidden: S.sideTab !== key }, S.sideTab === key ? draw() : null),
  );
  const meta = h(
    "div.game-meta",
    {},
    h("span", {}, t("hand_n", { n: st.hand_number })),
    h("span", {}, optionsSummaryText(st.options, st.players)),
    S.seat === null ? h("span.badge.watch", {}, t("watching")) : null,
  );
  const close = h(
    "button.ghost.drawer-close",
    {
      type: "button",
      "aria-label": t("close"),
      onclick: () => {
        S.drawerOpen = false;
        render();
      },
    },
    "×",
  );
  return h(
    "aside.side",
    { id: "side", "aria-label": t("scores_and_moves") },
    h("div.side-head", {}, meta, close),
    tools,
    tablist,
    panels,
    S.seat !== null && !st.outcome ? renderSeatLink() : null,
    S.chat.el, // the same element each time: what is being typed stays
  );
}

function renderTableArea(st) {
  const area = h("section.table-area", { "aria-label": t("table_set"), "data-testid": "table-area" });
  if (st.outcome) {
    // The game's end: the standings and the last hand's summary take the felt.
    const summaries = handSummaries(S.events, st.players);
    const last = summaries[summaries.length - 1];
    area.classList.add("game-end");
    area.append(renderFinal(st), last ? renderSummary(last) : "");
    return area;
  }
  // A hand's end: its summary lies over the felt, the table still visible around it.
  if (S.summaryOpen) area.append(renderSummary(S.summaryOpen));
  if (st.decision === "take" && st.beaten && st.beaten.length) {
    const taker = st.to_move;
    const mine = isMine(taker);
    const takes = new Set(takeableCards(legal()));
    area.append(
      h("div.felt-label", {}, mine ? t("choose_take") : t("other_chooses_take", { name: nameOf(taker) })),
      h(
        "div.card-row.take-row",
        {},
        st.beaten.map((card) =>
          mine
            ? cardEl(card, { size: "lg", button: true, onclick: () => takes.has(card) && act(`take ${card}`) })
            : cardEl(card, { size: "md" }),
        ),
      ),
      h("div.felt-sub", {}, t("beaten_by", { name: nameOf(taker) }), " ", cardRow(st.table, "sm")),
    );
    if (mine) for (const btn of area.querySelectorAll("button.card")) btn.classList.add("takeable");
    return area;
  }
  if (st.table && st.table.length) {
    area.append(
      h("div.felt-label", {}, t("played_by", { name: nameOf(st.table_player) }), " · ", h("span.value", {}, t("value_is", { value: st.table_value }))),
      h("div.card-row.table-set", { "data-testid": "table-set" }, st.table.map((c) => cardEl(c, { size: "lg" }))),
    );
  } else if (!st.outcome) {
    area.append(h("div.felt-empty", {}, t("table_empty", { name: nameOf(st.to_move) })));
  }
  if (st.discards && st.discards.length) {
    area.append(
      h("details.discards", {}, h("summary", {}, t("discards", { n: st.discards.length })), cardRow(sortCards(st.discards), "xs")),
    );
  }
  return area;
}

function renderHand() {
  const me = document.getElementById("me");
  const st = S.state;
  if (!me || !st || !st.hand) return;
  clear(me);
  const myTurn = isMyTurn(st, S.seat);
  const usable = usableCards(legal());
  const sortButtons = h(
    "div.segmented",
    { role: "group", "aria-label": t("sort_by") },
    ["colour", "number"].map((by) =>
      h(
        "button",
        {
          type: "button",
          "aria-pressed": S.sortBy === by ? "true" : "false",
          "data-testid": `sort-${by}`,
          onclick: () => {
            S.sortBy = by;
            localStorage.setItem(SORT_KEY, by);
            refresh(renderHand, renderActions);
          },
        },
        t(`sort_${by}`),
      ),
    ),
  );
  const cards = sortCards(st.hand, S.sortBy).map((card) => {
    const el = cardEl(card, { size: "lg", button: true, selected: S.selection.includes(card), onclick: () => toggleCard(card) });
    if (myTurn && st.decision !== "take" && !usable.has(card)) el.classList.add("unusable");
    return el;
  });
  me.append(
    h("div.hand", { "data-testid": "hand", role: "group", "aria-label": t("your_hand_n", { n: st.hand.length }), onkeydown: onHandKey }, cards),
    h(
      "div.hand-foot",
      {},
      h("div.selection", { id: "selection", "aria-live": "polite" }),
      sortButtons,
      h("div.actions", { id: "actions" }),
    ),
  );
}

/** Arrow keys, Home and End move between the cards; Enter plays the selection. */
function onHandKey(event) {
  const buttons = [...event.currentTarget.querySelectorAll("button.card")];
  const index = buttons.indexOf(document.activeElement);
  if (event.key === "Enter") {
    event.preventDefault(); // Space selects (the button's own click); Enter plays
    playSelection();
    return;
  }
  if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) return;
  const next = nextCardIndex(buttons.length, index, event.key);
  if (next >= 0) {
    event.preventDefault();
    buttons[next].focus();
  }
}

function renderActions() {
  const st = S.state;
  const box = document.getElementById("actions");
  const selBox = document.getElementById("selection");
  if (!st || !box) return;
  // "Tap" on touch screens, "click" (and the keys) with a mouse.
  const verdict = selectionVerdict(st, S.seat, S.selection, matchMedia("(pointer: coarse)").matches);
  const busy = actionPending() || S.status !== "open";
  const passingRound = S.passRound !== null && S.passRound === roundKey(S.events);
  if (S.seat !== null && S.token && !st.outcome && S.clock.bots()[String(S.seat)]) {
    // A bot plays my seat (I left, or missed moves): the one thing to do here is take it back.
    if (selBox) selBox.textContent = t("bot_for", { name: nameOf(S.seat) });
    clear(box).append(S.clock.button("take_back", "take-back-bar", () => api.takeBack(S.id, S.token), "primary"));
    return;
  }
  if (selBox) {
    selBox.textContent = verdict.key ? t(verdict.key, verdict.params) : "";
    selBox.className = `selection ${verdict.verdict === true ? "ok" : verdict.verdict === false ? "bad" : ""}`;
  }
  clear(box).append(
    h("button.primary.play", { type: "button", disabled: !verdict.canPlay || busy, onclick: playSelection, "data-testid": "play" }, t("play")),
    h("button.secondary.pass", { type: "button", disabled: !verdict.canPass || busy, onclick: () => act("pass"), "data-testid": "pass" }, t("pass")),
    h(
      "button.ghost.pass-round",
      {
        type: "button",
        "aria-pressed": passingRound ? "true" : "false",
        disabled: isMyTurn(st, S.seat) && st.decision !== "follow" && !passingRound,
        title: t("pass_round_help"),
        "data-testid": "pass-round",
        onclick: () => {
          S.passRound = passingRound ? null : roundKey(S.events);
          S.autoVersion = null;
          render();
        },
      },
      t("pass_round"),
    ),
    h(
      "button.ghost.clear",
      {
        type: "button",
        disabled: !verdict.canClear,
        "data-testid": "clear",
        onclick: () => {
          S.selection = [];
          refresh(renderHand, renderActions);
        },
      },
      t("clear"),
    ),
    // (append writes a null as the text "null": no hint control, nothing)
    hintControls(S, () => refresh(renderHand, renderActions), (cards) => (S.selection = cards)) || "",
  );
}

/** A private link that opens this seat on another device (the token in the fragment). */
function renderSeatLink() {
  const url = `${absoluteUrl(`/t/${encodeURIComponent(S.id)}`)}#seat=${encodeURIComponent(S.token)}`;
  return h(
    "details.panel.seat-link",
    {},
    h("summary", {}, t("other_device")),
    h("p.small", {}, t("other_device_help")),
    h(
      "button.secondary",
      { type: "button", "data-testid": "seat-link", onclick: async () => toast((await copyText(url)) ? t("copied") : t("copy_failed")) },
      t("copy_seat_link"),
    ),
  );
}

/** A seat's score as the viewer chose to see it: points, or points left to the target. */
function scoreText(st, points) {
  const shown = scoreShown(points, st.options, S.scoreView);
  return t(shown.key, { n: shown.n });
}

function renderScores(st) {
  const target = st.options.one_hand ? null : st.options.target;
  const toggle = target
    ? h(
        "div.segmented.score-view",
        { role: "group", "aria-label": t("score_view") },
        ["points", "countdown"].map((view) =>
          h(
            "button",
            {
              type: "button",
              "aria-pressed": S.scoreView === view ? "true" : "false",
              "data-testid": `score-${view}`,
              onclick: () => {
                S.scoreView = view;
                localStorage.setItem(SCORE_KEY, view);
                render();
              },
            },
            t(`score_${view}`),
          ),
        ),
      )
    : null;
  const rows = [];
  for (let seat = 0; seat < st.players; seat++) {
    const shown = scoreShown(st.scores[seat], st.options, S.scoreView);
    const meter = h("span.meter", { class: S.scoreView === "countdown" ? "left" : "" });
    meter.style.width = `${Math.round(100 * (shown.fill || 0))}%`; // CSSOM: allowed under the CSP
    rows.push(
      h(
        "tr",
        { class: isMine(seat) ? "me" : "" },
        h("th", { scope: "row" }, nameOf(seat)),
        h("td.num", {}, String(shown.n)),
        shown.fill === null ? null : h("td.bar", {}, meter),
      ),
    );
  }
  return h(
    "section.scores",
    { "aria-label": t("scores") },
    h("div.scores-head", {}, h("h2", {}, t("scores"), target ? h("span.small", {}, " ", t("target_points", { n: target })) : null), toggle),
    h("table", {}, h("tbody", {}, rows)),
  );
}

function logLine(e) {
  switch (e.type) {
    case "deal":
      return h("li.log-hand", {}, t("log_deal", { n: e.hand, name: nameOf(e.leader) }));
    case "play":
      return h("li", {}, h("b", {}, nameOf(e.seat)), " ", h("code", {}, e.text), h("span.small", {}, ` (${e.value})`));
    case "take":
    case "pass":
      return h("li", {}, h("b", {}, nameOf(e.seat)), " ", h("code", {}, e.text));
    case "round":
      return h("li.log-round", {}, t("log_round", { name: nameOf(e.leader) }));
    case "hand_end":
      return h("li.log-end", {}, t("log_hand_end", { name: nameOf(e.seat) }), " ", e.points.map((p, s) => `${nameOf(s)} ${p}`).join(", "));
    case "game_end":
      return h("li.log-end", {}, t("log_game_end", { names: e.winners.map(nameOf).join(", ") }));
    default:
      return null;
  }
}

function renderLog() {
  const lines = [];
  S.events.forEach((e, i) => {
    lines.push(logLine(e));
    for (const note of S.autoNotes) if (note.after === i + 1) lines.push(h("li.log-auto", { "data-testid": "auto-note" }, note.text));
  });
  const list = h("ol.log", { "data-testid": "log" }, lines);
  requestAnimationFrame(() => {
    const panel = list.closest(".side-panel");
    if (panel) panel.scrollTop = panel.scrollHeight;
  });
  return list;
}

/** Who ended a hand, with the play that ended it. */
function finalPlay(summary) {
  const last = S.events.slice(0, summary.index).reverse().find((e) => e.type === "play");
  return h(
    "p.final-play",
    { "data-testid": "final-play" },
    t("hand_ended_by", { name: nameOf(summary.ender) }),
    last ? cardRow(last.cards, "sm") : null,
  );
}

/** Close the hand's summary and show the moves it held back. */
function closeSummary() {
  S.summaryOpen = null;
  render();
  updates.release();
}

function renderSummary(summary) {
  const st = S.state;
  const rows = summary.points.map((points, seat) =>
    h(
      "tr",
      { class: isMine(seat) ? "me" : "" },
      h("th", { scope: "row" }, nameOf(seat)),
      h(
        "td.left",
        { "data-testid": "cards-left" },
        h(
          "div.left-cards",
          {},
          h("span.left-count", {}, String(summary.cardsLeft[seat])),
          summary.cards[seat].length ? cardRow(summary.cards[seat], "xs") : null,
        ),
      ),
      h("td.num", {}, `+${points}`),
      h("td.num", {}, String(summary.totals[seat])),
    ),
  );
  return h(
    "section.panel.summary",
    { "data-testid": "hand-summary", role: "region", "aria-label": t("hand_over", { n: summary.hand }) },
    h(
      "div.summary-head",
      {},
      h("h2", {}, t("hand_over", { n: summary.hand })),
      st && !st.outcome
        ? h("button.primary", { type: "button", "data-testid": "summary-continue", onclick: closeSummary }, t("continue"))
        : null,
    ),
    finalPlay(summary),
    h(
      "table.summary-table",
      {},
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th.left", {}, t("cards_left")), h("th", {}, t("points")), h("th", {}, t("total")))),
      h("tbody", {}, rows),
    ),
  );
}

function renderFinal(st) {
  const winners = new Set(st.outcome.winners || winnersOf(S.events) || []);
  const order = [...Array(st.players).keys()].sort((a, b) => st.outcome.scores[a] - st.outcome.scores[b]);
  const winnerNames = [...winners].map(nameOf).join(", ");
  return h(
    "section.panel.final",
    { "data-testid": "final" },
    h("h2", {}, t("final_standings")),
    h("p.winner", {}, winners.size > 1 ? t("winners_shared", { names: winnerNames }) : t("winner_is", { name: winnerNames })),
    h(
      "ol.standings",
      {},
      order.map((seat) =>
        h(
          "li",
          { class: winners.has(seat) ? "won" : "" },
          h("span.player-name", {}, nameOf(seat)),
          winners.has(seat) ? h("span.badge.win", {}, t("winner")) : null,
          h("span.num", {}, scoreText(st, st.outcome.scores[seat])),
        ),
      ),
    ),
    rematchPanel({ table: S.table, rematch: S.rematch, mySeat: S.seat, nameOf, answer: answerRematch, follow: followRematch }),
    h(
      "div.actions",
      {},
      h("a.button.secondary", { href: `/t/${encodeURIComponent(S.id)}/replay` }, t("open_replay")),
      h("a.button.ghost", { href: "/" }, t("back_home")),
    ),
    renderGameStats(st, order),
    renderStatistics(st, order),
  );
}

/** The game's statistics and points chart, from its record (Odin's tables; statistics.js). */
function renderStatistics(st, order) {
  if (S.table.game && S.table.game !== "odin") return null;
  S.statistics = S.statistics || new TableStatistics(() => api.record(S.id));
  const target = S.table.options && !S.table.options.one_hand ? S.table.options.target : null;
  return S.statistics.element((stats) => statisticsPanel(stats, { nameOf, order, target }));
}

/** The game hand by hand: each player's points per hand (from the public events). */
function renderGameStats(st, order) {
  const hands = handSummaries(S.events, st.players);
  if (!hands.length) return null;
  return h(
    "section.game-stats",
    { "data-testid": "game-stats" },
    h("h3", {}, t("hand_by_hand", { n: hands.length })),
    h(
      "div.stats-scroll",
      { tabindex: "0", role: "region", "aria-label": t("hand_by_hand", { n: hands.length }) },
      h(
        "table.summary-table",
        {},
        h(
          "thead",
          {},
          h("tr", {}, h("th", {}, ""), hands.map((hand) => h("th", { scope: "col" }, t("hand_short", { n: hand.hand }))), h("th", { scope: "col" }, t("total"))),
        ),
        h(
          "tbody",
          {},
          order.map((seat) =>
            h(
              "tr",
              { class: isMine(seat) ? "me" : "" },
              h("th", { scope: "row" }, nameOf(seat)),
              hands.map((hand) => h("td.num", {}, String(hand.points[seat]))),
              h("td.num", {}, String(st.outcome.scores[seat])),
            ),
          ),
        ),
      ),
    ),
  );
}

start();

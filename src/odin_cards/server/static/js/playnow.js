// Play now (docs/matchmaking.md): the home page's panel, for the lobby's chosen game
// (lobby-games.js; hidden for a game without Play now presets). Choose players, one of the
// game's presets and the clock; the server matches waiting people of similar rating
// (guests with guests). While waiting
// the panel shows the time waited and how many wait with the same choices, polls every
// two seconds (a page that stops polling loses its ticket), and after the wait offers to
// fill the other seats with bots. Once matched, the ticket's secret is the seat's token:
// it is remembered like any seat and the page goes to the table.

import { accountFetch, currentAccount } from "./account.js";
import { rememberSeat, saveName, savedName } from "./api.js";
import { loadWords } from "./boards.js";
import { initI18n, t } from "./i18n.js";
import { chosenGame, lobbyGames, onGameChosen, presetName } from "./lobby-games.js";
import { clear, h, levelName, toast } from "./ui.js";

const KEPT = "odin.playnow"; // sessionStorage: the waiting ticket of this tab
const POLL_MS = 2000;
const CLOCK_TEXT = { fast: "playnow_fast", normal: "playnow_normal", slow: "playnow_slow" };
const choice = { players: 2, target: null, clock: "normal", level: "" };
let box = null;
let account = null;
let game = null; // the lobby's chosen game (GET /api/games)
let words = {}; // its own words (its presets' labels)
const known = new Map(); // key -> {game, words}: the games this panel has shown
let waiting = null; // {ticket, name, game (its key), status, since (ms of the last status)}
let pollTimer = null;
let tickTimer = null;

function radios(name, label, items, value, onchange) {
  return h(
    "div.segmented",
    { role: "radiogroup", "aria-label": label },
    items.map(([key, label]) =>
      h(
        "button",
        {
          type: "button",
          role: "radio",
          "aria-checked": String(value) === String(key) ? "true" : "false",
          "data-value": String(key),
          "data-group": `playnow-${name}`,
          onclick: () => onchange(key),
        },
        label,
      ),
    ),
  );
}

function field(label, control) {
  return h("div.field", {}, h("span.field-label", {}, label), control);
}

function message(error) {
  return (error && error.message) || t("playnow_failed");
}

// ------------------------------------------------------------------ choosing

/** The game `key` with its own words (null for a game the server does not offer). */
async function know(key) {
  if (!known.has(key)) {
    const found = (await lobbyGames()).find((g) => g.key === key);
    if (!found) return null;
    known.set(key, { game: found, words: await loadWords(key) });
  }
  return known.get(key);
}

/** Follow the lobby's chosen game: its seats and presets (the middle preset first: Odin's
 * 15 points); the panel is hidden for a game without presets. */
async function follow(chosen) {
  const { words: own } = await know(chosen.key);
  if ((await chosenGame()) !== chosen) return; // another game was chosen meanwhile
  game = chosen;
  words = own;
  const { min, max } = game.players;
  choice.players = Math.min(max, Math.max(min, choice.players));
  const presets = game.play_now.map((preset) => preset.key);
  if (!presets.includes(choice.target)) choice.target = presets[Math.floor(presets.length / 2)] ?? null;
  if (!game.levels.some((level) => level.key === choice.level)) choice.level = "";
  if (!waiting) renderChoice();
}

function renderChoice(note) {
  box.hidden = !game.play_now.length;
  if (box.hidden) {
    clear(box);
    return;
  }
  const sizes = [];
  for (let p = game.players.min; p <= game.players.max; p++) sizes.push([p, String(p)]);
  const name = h("input", {
    id: "playnow-name",
    type: "text",
    maxlength: "24",
    autocomplete: "nickname",
    value: savedName(),
    "aria-label": t("your_name"),
  });
  clear(box).append(
    h("h2", { id: "playnow-title" }, t("playnow_title")),
    h("p.help", {}, account ? t("playnow_help_account") : t("playnow_help_guest")),
    h("p.playnow-note", { role: "status" }, note || ""),
    h(
      "form.playnow-form",
      {
        onsubmit: (event) => {
          event.preventDefault();
          join(account ? null : name.value);
        },
      },
      field(t("players"), radios("players", t("players"), sizes, choice.players, (p) => ((choice.players = p), renderChoice()))),
      field(
        words.preset || t("playnow_preset"),
        radios(
          "target",
          words.preset || t("playnow_preset"),
          game.play_now.map((preset) => [preset.key, presetName(preset, words)]),
          choice.target,
          (v) => ((choice.target = v), renderChoice()),
        ),
      ),
      field(
        t("playnow_clock"),
        radios(
          "clock",
          t("playnow_clock"),
          [["fast", t("playnow_fast")], ["normal", t("playnow_normal")], ["slow", t("playnow_slow")]],
          choice.clock,
          (v) => ((choice.clock = v), renderChoice()),
        ),
      ),
      account ? null : h("label.field", { for: "playnow-name" }, h("span.field-label", {}, t("your_name")), name),
      h("div.actions", {}, h("button.primary", { type: "submit", id: "playnow-start" }, t("playnow_start"))),
    ),
  );
}

async function join(name) {
  if (!account) {
    name = (name || "").trim();
    if (!name) {
      toast(t("playnow_name_required"), "error");
      return;
    }
    saveName(name);
  }
  const kept = readKept();
  try {
    const body = { game: game.key, players: choice.players, target: choice.target, clock: choice.clock };
    if (!account) body.name = name;
    if (kept) body.previous = kept.ticket;
    const answer = await accountFetch("/api/play-now", { method: "POST", body });
    waiting = { ticket: answer.ticket, name: answer.name, game: game.key };
    sessionStorage.setItem(KEPT, JSON.stringify(waiting));
    show(answer);
  } catch (error) {
    toast(message(error), "error");
  }
}

// ------------------------------------------------------------------ waiting

function readKept() {
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEPT) || "null");
    return kept && typeof kept.ticket === "string" ? kept : null;
  } catch {
    return null;
  }
}

function stopTimers() {
  clearTimeout(pollTimer);
  clearInterval(tickTimer);
  pollTimer = tickTimer = null;
}

function show(status) {
  if (!waiting) return;
  waiting.status = status;
  waiting.since = Date.now();
  if (status.state === "matched") {
    stopTimers();
    sessionStorage.removeItem(KEPT);
    rememberSeat(status.table, status.seat, waiting.ticket, waiting.name);
    clear(box).append(h("h2", { id: "playnow-title" }, t("playnow_title")), h("p", { role: "status" }, t("playnow_matched")));
    location.assign(`/t/${encodeURIComponent(status.table)}`);
    return;
  }
  if (status.state !== "waiting" && status.state !== "matching") {
    stopTimers();
    sessionStorage.removeItem(KEPT);
    waiting = null;
    renderChoice(status.state === "expired" ? t("playnow_expired") : t("playnow_cancelled"));
    return;
  }
  renderWaiting();
  clearTimeout(pollTimer);
  pollTimer = setTimeout(poll, POLL_MS);
  if (!tickTimer) tickTimer = setInterval(tick, 1000);
}

function elapsed() {
  const status = waiting.status;
  return Math.floor(status.waited + (Date.now() - waiting.since) / 1000);
}

function botsIn() {
  const status = waiting.status;
  return Math.max(0, Math.ceil(status.bots_after - (Date.now() - waiting.since) / 1000));
}

function tick() {
  if (!waiting || !waiting.status) return;
  const clock = box.querySelector("#playnow-elapsed");
  if (clock) clock.textContent = t("playnow_waited", { n: elapsed() });
  const wasReady = box.querySelector("#playnow-bots") !== null;
  if ((botsIn() === 0) !== wasReady) renderWaiting();
  const later = box.querySelector("#playnow-bots-later");
  if (later) later.textContent = t("playnow_bots_in", { n: botsIn() });
}

function renderWaiting() {
  box.hidden = false; // waiting for a game, whichever game the lobby shows now
  const status = waiting.status;
  const chosen = status.choice || { ...choice, game: waiting.game || game.key };
  // The ticket's game (after a reload, maybe not the lobby's), once its words are known.
  const ticket = known.get(chosen.game);
  if (!ticket) know(chosen.game).then((found) => found && waiting && renderWaiting());
  const { game: playing, words: own } = ticket || { game, words };
  const preset = playing.play_now.find((p) => p.key === chosen.target);
  const summary = t("playnow_summary", {
    players: chosen.players,
    target: preset ? presetName(preset, own) : chosen.target,
    clock: t(CLOCK_TEXT[chosen.clock] || "playnow_normal"),
  });
  const select = h("select", { id: "playnow-level", "aria-label": t("playnow_bot_level") });
  select.append(new Option(t("playnow_level_auto"), ""));
  for (const level of playing.levels) select.append(new Option(levelName(level.key), level.key));
  select.value = choice.level;
  select.addEventListener("change", () => (choice.level = select.value));
  const ready = botsIn() === 0;
  clear(box).append(
    h("h2", { id: "playnow-title" }, t("playnow_title")),
    h(
      "div.playnow-waiting",
      { "data-testid": "playnow-waiting", "aria-live": "polite" },
      h("span.playnow-spinner", { "aria-hidden": "true" }),
      h("div", {}, h("strong", {}, t("playnow_looking")), h("p.help", {}, summary)),
    ),
    h(
      "p.playnow-stats",
      {},
      h("span", { id: "playnow-elapsed" }, t("playnow_waited", { n: elapsed() })),
      " · ",
      h("span", { id: "playnow-count" }, t("playnow_count", { n: status.waiting })),
    ),
    ready
      ? h(
          "div.playnow-bots",
          {},
          h("label", { for: "playnow-level" }, t("playnow_bot_level")),
          select,
          h("button", { type: "button", id: "playnow-bots", onclick: fillWithBots }, t("playnow_fill_bots")),
        )
      : h("p.help", { id: "playnow-bots-later" }, t("playnow_bots_in", { n: botsIn() })),
    h("div.actions", {}, h("button", { type: "button", id: "playnow-cancel", onclick: cancel }, t("playnow_cancel"))),
  );
}

async function poll() {
  if (!waiting) return;
  try {
    show(await accountFetch("/api/play-now/poll", { method: "POST", body: { ticket: waiting.ticket } }));
  } catch (error) {
    if (error.code === "not_found") {
      show({ state: "expired" });
      return;
    }
    clearTimeout(pollTimer);
    pollTimer = setTimeout(poll, POLL_MS * 2); // the network or server: try again
  }
}

async function cancel() {
  if (!waiting) return;
  const ticket = waiting.ticket;
  try {
    show(await accountFetch("/api/play-now/cancel", { method: "POST", body: { ticket } }));
  } catch (error) {
    toast(message(error), "error");
  }
}

async function fillWithBots() {
  if (!waiting) return;
  const body = { ticket: waiting.ticket };
  if (choice.level) body.level = choice.level;
  try {
    show(await accountFetch("/api/play-now/bots", { method: "POST", body }));
  } catch (error) {
    toast(message(error), "error");
  }
}

// ------------------------------------------------------------------ start

function slot() {
  return new Promise((resolve) => {
    const found = document.getElementById("playnow");
    if (found) return resolve(found);
    const watch = new MutationObserver(() => {
      const el = document.getElementById("playnow");
      if (el) {
        watch.disconnect();
        resolve(el);
      }
    });
    watch.observe(document.body, { childList: true, subtree: true });
  });
}

async function start() {
  await initI18n();
  box = await slot();
  box.classList.add("panel", "playnow");
  box.setAttribute("aria-labelledby", "playnow-title");
  box.dataset.testid = "playnow";
  account = (await currentAccount()).account;
  const chosen = await chosenGame();
  if (!chosen) {
    box.hidden = true;
    return;
  }
  await follow(chosen);
  onGameChosen(follow);
  const kept = readKept();
  if (kept) {
    waiting = kept; // a reload while waiting: carry on with the same ticket
    waiting.status = { state: "waiting", waited: 0, waiting: 1, bots_after: 0 };
    waiting.since = Date.now();
    poll();
    renderWaiting();
    return;
  }
  renderChoice();
}

start();

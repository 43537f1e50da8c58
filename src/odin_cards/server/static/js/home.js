// The home page, /: the game choice, create a table of the chosen game, the open tables of
// that game waiting for players, my tables of every game. Play now (playnow.js) follows the
// same choice (lobby-games.js).

import { closesText, rememberCreator, visibilityField } from "./access.js";
import { accountFetch } from "./account.js";
import { absoluteUrl, allSeats, api, copyText, rememberSeat } from "./api.js";
import { gamePage, loadBoard, loadWords, pageContext } from "./boards.js";
import { initI18n, t } from "./i18n.js";
import { clockChoice, clockField, clockSummary, newClockForm } from "./clock.js";
import { chooseGame, chosenGame, gameName, gameParts, lobbyGames, onGameChosen } from "./lobby-games.js";
import { presenceDot } from "./presence.js";
import { clear, h, levelDescription, levelName, rulesOf, setLevels, setupHeader, toast } from "./ui.js";

const main = document.getElementById("main");
const form = {
  players: 4,
  seats: {}, // seat -> "" (a person) or a bot level key
  chatSpectators: false, // settings.chat.spectators: players see spectators' chat
  hints: false, // settings.hints: players may ask the strongest bot for a hint
  visibility: "public", // settings.visibility: listed, or by invite link only (access.js)
  rated: false, // settings.rated: a rated table, for a signed-in creator (docs/ratings.md)
  signedIn: false,
  ...newClockForm(), // settings.clock: the time control (clock.js)
};
/** The chosen game: {game (as GET /api/games lists it), words (its own), module (its
 * board's), options (its board's optionsForm, or null: the rules' defaults)}. */
const lobby = { game: null, words: {}, module: null, options: null };
let offered = []; // the server's games (GET /api/games), in its order
const names = {}; // every game's name in the page's language, by key
const modules = {}; // the board modules of the games in the lists, by key (their options in words)
let created = null;

const openList = h("div.table-list", { id: "open-tables", "aria-live": "polite" });
const mineList = h("div.table-list", { id: "my-tables", "aria-live": "polite" });
const formBox = h("div");
const resultBox = h("div");
const choiceBox = h("div.game-choice", { hidden: true });
const howTo = h("details.panel.how-to", { hidden: true });

async function start() {
  await initI18n();
  setupHeader([h("a.leaderboard-link", { href: "/leaderboard" }, t("leaderboard"))]);
  fetch("/api/account", { headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : null))
    .then((a) => {
      form.signedIn = Boolean(a && a.account);
      if (form.signedIn) renderForm();
    })
    .catch(() => {});
  clear(main).append(
    h(
      "section.hero",
      {},
      h("h1", {}, t("home_title")),
      h("p", {}, t("home_tagline")),
      choiceBox,
    ),
    h(
      "div.home-grid",
      {},
      h("section.panel.create", { "aria-labelledby": "create-title" }, h("h2", { id: "create-title" }, t("new_table")), resultBox, formBox),
      h(
        "div.lists",
        {},
        h("section", { id: "playnow" }), // Play now (playnow.js)
        h("section", { id: "friends", hidden: true }), // friends, signed in (friends.js)
        h("section.panel", { "aria-labelledby": "mine-title" }, h("h2", { id: "mine-title" }, t("my_tables")), mineList),
        h("section.panel", { "aria-labelledby": "open-title" }, h("h2", { id: "open-title" }, t("open_tables")), openList),
        howTo,
      ),
    ),
  );
  offered = await lobbyGames();
  await Promise.all(offered.map(async (game) => (names[game.key] = gameName(game, await loadWords(game.key)))));
  onGameChosen(show);
  await show(await chosenGame());
  setInterval(refreshLists, 10000);
}

// ------------------------------------------------------------------ the game

/** Show the lobby of `game`: its choice, its form, its rules, its open tables. */
async function show(game) {
  if (!game) {
    clear(formBox).append(h("p.empty", {}, t("list_failed")));
    return;
  }
  let parts;
  try {
    parts = await gameParts(game);
  } catch {
    parts = { words: await loadWords(game.key), module: {} };
  }
  if ((await chosenGame()) !== game) return; // another game was chosen meanwhile
  lobby.game = game;
  lobby.words = parts.words;
  lobby.module = parts.module;
  lobby.options = parts.module.optionsForm ? parts.module.optionsForm(optionsContext()) : null;
  setLevels(game.levels, parts.words);
  const { min, max } = game.players;
  form.players = Math.min(max, Math.max(min, form.players));
  const levelKeys = new Set(game.levels.map((level) => level.key));
  for (const [seat, level] of Object.entries(form.seats)) if (!levelKeys.has(level)) delete form.seats[seat];
  if (!game.rated) form.rated = false;
  if (!game.levels.length) form.hints = false;
  created = null;
  clear(resultBox);
  renderChoice();
  renderForm();
  rulesOf(game.key);
  renderHowTo(game);
  refreshLists();
}

/** The game choice (from two games on): the games by name, the chosen one's summary. */
function renderChoice() {
  choiceBox.hidden = offered.length < 2;
  if (choiceBox.hidden) return;
  const game = lobby.game;
  clear(choiceBox).append(
    field(
      "game",
      segmented(
        "game",
        offered.map((g) => [g.key, names[g.key] || g.name]),
        game.key,
        (key) => chooseGame(key),
      ),
      lobby.words.summary || game.summary,
    ),
  );
}

/** How to play the chosen game: its rules page's summary and links (Odin's: the rules in
 * six points, the tutorial and the worked examples), or links to its pages; hidden for a
 * game without pages. */
async function renderHowTo(game) {
  const rules = gamePage(game.key, "rules");
  const tutorial = gamePage(game.key, "tutorial");
  let lines = null;
  if (rules) {
    try {
      const module = await import(`/games/${encodeURIComponent(game.key)}/rules.js`);
      if (module.summary) lines = module.summary(pageContext(game.key));
    } catch {
      lines = null;
    }
  }
  if (lobby.game !== game) return;
  if (!lines) {
    const links = [
      rules ? h("a", { href: rules }, t("help_link")) : null,
      tutorial ? h("a", { href: tutorial }, t("tutorial_page")) : null,
    ].filter(Boolean);
    lines = links.length ? [h("p", {}, links.flatMap((link, i) => (i ? [" · ", link] : [link])))] : null;
  }
  howTo.hidden = !lines;
  clear(howTo).append(h("summary", {}, t("rules_title")), ...(lines || []));
}

// ------------------------------------------------------------------ the form

function segmented(name, choices, value, onchange) {
  return h(
    "div.segmented",
    { role: "radiogroup", "aria-label": t(name) },
    choices.map(([key, label]) =>
      h(
        "button",
        {
          type: "button",
          role: "radio",
          "aria-checked": String(value) === String(key) ? "true" : "false",
          "data-value": String(key),
          "data-group": name,
          onclick: () => onchange(key),
        },
        label,
      ),
    ),
  );
}

function field(labelKey, control, help) {
  return h("div.field", {}, h("span.field-label", {}, t(labelKey)), control, help ? h("span.help", {}, help) : null);
}

/** What the board's optionsForm may use to draw its fields as the shell draws its own
 * (docs/ui.md, Boards). */
function optionsContext() {
  return Object.freeze({ t, field, segmented, redraw: () => renderForm() });
}

function renderForm() {
  const game = lobby.game;
  if (!game) return;
  const n = form.players;
  for (const seat of Object.keys(form.seats)) if (Number(seat) >= n) delete form.seats[seat];
  const levels = game.levels;

  const seatRows = [];
  for (let seat = 0; seat < n; seat++) {
    const select = h("select", { id: `seat-${seat}`, "aria-label": t("seat_n", { n: seat + 1 }) });
    select.append(new Option(t("seat_person"), ""));
    for (const level of levels) select.append(new Option(t("bot_option", { name: levelName(level.key) }), level.key));
    select.value = form.seats[seat] || "";
    select.addEventListener("change", () => {
      form.seats[seat] = select.value;
      renderForm();
    });
    const level = levels.find((l) => l.key === form.seats[seat]);
    seatRows.push(
      h("li", {}, h("label", { for: `seat-${seat}` }, t("seat_n", { n: seat + 1 })), select, level ? h("span.help", {}, levelDescription(level.key)) : null),
    );
  }
  const chatSpectators = h("input", { type: "checkbox", id: "chat-spectators", checked: form.chatSpectators });
  chatSpectators.addEventListener("change", () => (form.chatSpectators = chatSpectators.checked));
  const hints = h("input", { type: "checkbox", id: "hints", checked: form.hints, "data-testid": "hints-option" });
  // A rated table never gives hints: ticking one of the two unticks the other.
  hints.addEventListener("change", () => {
    form.hints = hints.checked;
    if (form.hints && form.rated) (form.rated = false), renderForm();
  });

  const rated = h("input", { type: "checkbox", id: "rated", checked: form.rated, "data-testid": "rated-option" });
  rated.addEventListener("change", () => {
    form.rated = rated.checked;
    if (form.rated && form.hints) (form.hints = false), renderForm();
  });

  const humans = [...Array(n).keys()].filter((s) => !form.seats[s]).length;
  const sizes = [];
  for (let p = game.players.min; p <= game.players.max; p++) sizes.push([p, String(p)]);

  clear(formBox).append(
    h(
      "form",
      { id: "create-form", "data-game": game.key, onsubmit: (e) => (e.preventDefault(), create()) },
      field("players", segmented("players", sizes, n, (p) => ((form.players = p), renderForm()))),
      field("seats", h("ul.seat-setup", {}, seatRows), humans === 0 ? t("all_bots_note") : null),
      lobby.options ? lobby.options.draw(n) : null,
      visibilityField(form.visibility, (v) => ((form.visibility = v), renderForm())),
      h("label.check", {}, chatSpectators, h("span", {}, t("chat_spectators_option")), h("span.help", {}, t("chat_spectators_help"))),
      levels.length ? h("label.check", {}, hints, h("span", {}, t("hints_option")), h("span.help", {}, t("hints_option_help"))) : null,
      form.signedIn && game.rated ? h("label.check", {}, rated, h("span", {}, t("rated_option")), h("span.help", {}, t("rated_option_help"))) : null,
      clockField(form, renderForm),
      h("div.actions", {}, h("button.primary", { type: "submit", id: "create" }, t("create_table"))),
    ),
  );
}

async function create() {
  const game = lobby.game;
  const bots = {};
  for (const [seat, level] of Object.entries(form.seats)) if (level) bots[seat] = level;
  let options = {}; // a game without a board of its own: its rules' defaults
  try {
    if (lobby.options) options = lobby.options.options(form.players);
  } catch (error) {
    toast(error.message, "error");
    return;
  }
  const button = document.getElementById("create");
  button.disabled = true;
  const clock = clockChoice(form);
  try {
    // accountFetch: a rated table is a write of the account, sent with its CSRF token.
    const answer = await accountFetch("/api/tables", { method: "POST", body: {
      players: form.players, bots, options,
      game: game.key, ...(clock ? { clock } : {}), chat: { spectators: form.chatSpectators }, hints: form.hints,
      visibility: form.visibility, ...(form.signedIn && form.rated && game.rated ? { rated: true } : {}) } });
    created = answer.table;
    rememberCreator(created.id, answer.creator);
    renderCreated();
    refreshLists();
  } catch (error) {
    toast(t("create_failed", { message: error.message }), "error");
  } finally {
    button.disabled = false;
  }
}

function linkRow(labelKey, url, testId) {
  return h(
    "div.linkbox",
    {},
    h("label", { for: `link-${testId}` }, t(labelKey)),
    h(
      "div.linkrow",
      {},
      h("input.link", { id: `link-${testId}`, type: "text", readonly: true, value: url, "data-testid": testId }),
      h("button.secondary", { type: "button", onclick: async () => toast((await copyText(url)) ? t("copied") : t("copy_failed")) }, t("copy")),
    ),
  );
}

function renderCreated() {
  const table = created;
  const path = table.invite_url || `/t/${table.id}`;
  clear(resultBox).append(
    h(
      "div.created",
      { "data-testid": "created", role: "status" },
      h("h3", {}, t("table_created")),
      h("p", {}, t(form.visibility === "private" ? "invite_help_private" : "invite_help")),
      linkRow("invite_link", absoluteUrl(path), "invite"),
      linkRow("watch_link", absoluteUrl(table.watch_url || `/t/${table.id}/watch`), "watch"),
      h("div.actions", {}, h("a.button.primary", { href: path, id: "go-to-table" }, t("go_to_table"))),
    ),
  );
  resultBox.firstChild.scrollIntoView({ behavior: "smooth", block: "start" });
}

// ------------------------------------------------------------------ the lists

/** A table's options in words, by its game's board (none for a game without a board). */
function optionsText(table) {
  const module = modules[table.game];
  return module && module.describeOptions ? module.describeOptions(table.options, table.players) : "";
}

/** Load the boards of the games of `tables` (their words and describeOptions). */
async function boardsOf(tables) {
  const keys = [...new Set(tables.map((table) => table.game))].filter((key) => !(key in modules));
  await Promise.all(
    keys.map(async (key) => {
      try {
        modules[key] = await loadBoard(key);
      } catch {
        modules[key] = null; // a board that fails to load: the lists say less of its tables
      }
    }),
  );
}

function tableItem(table, mine) {
  const seated = table.seats.filter((s) => s.taken || s.bot).length;
  const people = table.seats.filter((s) => s.name).map((s) => s.name);
  const status = t(`status_${table.status}`);
  const links = [];
  if (mine) {
    links.push(h("a.button.primary.small-button", { href: `/t/${encodeURIComponent(table.id)}` }, table.status === "finished" ? t("open") : t("resume")));
    if (table.status === "finished") links.push(h("a.button.ghost.small-button", { href: `/t/${encodeURIComponent(table.id)}/replay` }, t("replay")));
  } else {
    links.push(h("a.button.primary.small-button", { href: `/t/${encodeURIComponent(table.id)}` }, t("join")));
    links.push(h("a.button.ghost.small-button", { href: `/t/${encodeURIComponent(table.id)}/watch` }, t("watch")));
  }
  return h(
    "li.table-item",
    { "data-table": table.id, class: mine && table.my_turn ? "my-turn" : null },
    h(
      "div.table-info",
      {},
      h("span.table-title", {}, t("table_title", { players: table.players, seated })),
      // My tables are of every game: the others than the chosen one say which.
      table.game !== lobby.game.key ? h("span.badge.game", { "data-testid": "table-game" }, names[table.game] || table.game) : null,
      h("span.badge", { class: `status-${table.status}` }, status),
      mine ? turnBadge(table) : null,
      h("span.small", {}, optionsText(table)),
      h("span.small.clock-summary", { "data-testid": "clock-summary" }, clockSummary(table.clock)),
      people.length ? h("span.small.people", {}, table.seats.filter((s) => s.name).map((s) => h("span.person", {}, presenceDot(s), personName(s)))) : null,
      closesText(table) ? h("span.small.closes", {}, closesText(table)) : null,
    ),
    h("div.table-links", {}, links),
  );
}

/** A seat's name: a seat held by an account links to its profile (as on the table page). */
function personName(seat) {
  if (!seat.account || seat.bot) return seat.name;
  return h("a.account-name", { href: `/u/${encodeURIComponent(seat.account)}`, title: seat.name, "data-account": seat.account }, seat.name);
}

/** Whose turn it is at one of my tables: "Your turn" stands out; none when nobody is to move. */
function turnBadge(table) {
  if (table.to_move === null || table.to_move === undefined) return null;
  if (table.my_turn) return h("span.badge.my-turn", { "data-testid": "my-turn" }, t("mine_your_turn"));
  const seat = table.seats[table.to_move];
  const name = seat && (seat.name || (seat.bot ? levelName(seat.bot) : null));
  return name ? h("span.small.their-turn", {}, t("mine_their_turn", { name })) : null;
}

async function refreshLists() {
  const game = lobby.game;
  if (!game) return;
  try {
    const open = (await api.openTables(game.key)).tables;
    await boardsOf(open);
    if (lobby.game !== game) return; // another game was chosen meanwhile: its list comes
    clear(openList).append(open.length ? h("ul.tables", {}, open.map((tb) => tableItem(tb, false))) : h("p.empty", {}, t("no_open_tables")));
  } catch {
    clear(openList).append(h("p.empty", {}, t("list_failed")));
  }
  // One question per token, so that a table found through a token (a "play again"
  // table started by a friend) gets that token remembered for it.
  const seats = allSeats();
  const tokens = [...new Map(Object.values(seats).sort((a, b) => (b.saved || 0) - (a.saved || 0)).map((s) => [s.token, s])).values()].slice(0, 20);
  if (!tokens.length) {
    clear(mineList).append(h("p.empty", {}, t("no_my_tables")));
    return;
  }
  try {
    const answers = await Promise.all(tokens.map((s) => api.myTables([s.token]).then((a) => [s, a.tables])));
    const mine = new Map();
    for (const [seat, tables] of answers) {
      for (const table of tables) {
        mine.set(table.id, table);
        if (!seats[table.id]) rememberSeat(table.id, seat.seat, seat.token, seat.name);
      }
    }
    const order = { playing: 0, waiting: 1, finished: 2, expired: 3, cancelled: 3 };
    // The tables waiting on me first (turn-based play), then playing, waiting, finished.
    const list = [...mine.values()].sort((a, b) => Number(Boolean(b.my_turn)) - Number(Boolean(a.my_turn)) || order[a.status] - order[b.status] || String(b.created).localeCompare(String(a.created)));
    await boardsOf(list);
    const waitingOnMe = list.filter((tb) => tb.my_turn).length;
    document.title = waitingOnMe ? t("mine_title", { n: waitingOnMe }) : "Odin";
    clear(mineList).append(list.length ? h("ul.tables", {}, list.map((tb) => tableItem(tb, true))) : h("p.empty", {}, t("no_my_tables")));
  } catch {
    clear(mineList).append(h("p.empty", {}, t("list_failed")));
  }
}

start();

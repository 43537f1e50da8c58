// The home page, /: create a table, the open tables waiting for players, my tables.

import { closesText, rememberCreator, visibilityField } from "./access.js";
import { absoluteUrl, allSeats, api, copyText, rememberSeat } from "./api.js";
import { boardsListed, gamePage, loadBoard } from "./boards.js";
import { initI18n, t } from "./i18n.js";
import { clockChoice, clockField, clockSummary, newClockForm } from "./clock.js";
import { optionsSummaryText } from "./options-text.js";
import { presenceDot } from "./presence.js";
import { clear, h, levelDescription, levelName, setLevels, setupHeader, toast } from "./ui.js";

const main = document.getElementById("main");
const form = {
  players: 4,
  seats: {}, // seat -> "" (a person) or a bot level key
  target: "15",
  custom: 12,
  nextLeader: "rotate",
  firstLeader: "",
  fourColours: false,
  goat: false,
  chatSpectators: false, // settings.chat.spectators: players see spectators' chat
  hints: false, // settings.hints: players may ask the strongest bot for a hint
  rulesOpen: false,
  visibility: "public", // settings.visibility: listed, or by invite link only (access.js)
  rated: false, // settings.rated: a rated table, for a signed-in creator (docs/ratings.md)
  signedIn: false,
  ...newClockForm(), // settings.clock: the time control (clock.js)
};
let levels = [];
let created = null;

const openList = h("div.table-list", { id: "open-tables", "aria-live": "polite" });
const mineList = h("div.table-list", { id: "my-tables", "aria-live": "polite" });
const formBox = h("div");
const resultBox = h("div");

async function start() {
  await initI18n();
  // Until the lobby offers every game: the first game's board (its form's stylesheet).
  const first = Object.keys(boardsListed())[0];
  if (first) await loadBoard(first);
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
        h(
          "details.panel.how-to",
          {},
          h("summary", {}, t("rules_title")),
          h("ol", {}, [1, 2, 3, 4, 5, 6].map((i) => h("li", {}, t(`rules_${i}`)))),
          h("p", {}, h("a", { href: gamePage(first, "tutorial") }, t("tutorial_link")), " · ", h("a", { href: gamePage(first, "rules") }, t("help_examples"))),
        ),
      ),
    ),
  );
  try {
    levels = await api.levels();
    setLevels(levels);
  } catch {
    levels = [];
  }
  renderForm();
  refreshLists();
  setInterval(refreshLists, 10000);
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

function renderForm() {
  const n = form.players;
  for (const seat of Object.keys(form.seats)) if (Number(seat) >= n) delete form.seats[seat];
  if (n !== 2) form.fourColours = false;
  if (form.firstLeader !== "" && Number(form.firstLeader) >= n) form.firstLeader = "";

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
  const custom = h("input", {
    type: "number",
    id: "custom-target",
    min: "1",
    max: "100",
    value: String(form.custom),
    "aria-label": t("custom_target"),
    hidden: form.target !== "custom",
  });
  custom.addEventListener("input", () => (form.custom = Number(custom.value)));

  const firstLeader = h("select", { id: "first-leader", "aria-label": t("first_leader") });
  firstLeader.append(new Option(t("first_leader_random"), ""));
  for (let seat = 0; seat < n; seat++) firstLeader.append(new Option(t("seat_n", { n: seat + 1 }), String(seat)));
  firstLeader.value = form.firstLeader;
  firstLeader.addEventListener("change", () => (form.firstLeader = firstLeader.value));

  const four = h("input", { type: "checkbox", id: "four-colours", checked: form.fourColours, disabled: n !== 2 });
  four.addEventListener("change", () => (form.fourColours = four.checked));
  const goat = h("input", { type: "checkbox", id: "goat", checked: form.goat });
  goat.addEventListener("change", () => (form.goat = goat.checked));
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

  clear(formBox).append(
    h(
      "form",
      { id: "create-form", onsubmit: (e) => (e.preventDefault(), create()) },
      field("players", segmented("players", [2, 3, 4, 5, 6].map((p) => [p, String(p)]), n, (p) => ((form.players = p), renderForm()))),
      field("seats", h("ul.seat-setup", {}, seatRows), humans === 0 ? t("all_bots_note") : null),
      field(
        "target",
        h(
          "div.target-row",
          {},
          segmented(
            "target",
            [
              ["10", "10"],
              ["15", "15"],
              ["20", "20"],
              ["one", t("one_hand")],
              ["custom", t("custom")],
            ],
            form.target,
            (v) => ((form.target = v), renderForm()),
          ),
          custom,
        ),
      ),
      h(
        "details.rules",
        { open: form.rulesOpen, ontoggle: (e) => (form.rulesOpen = e.currentTarget.open) },
        h("summary", {}, t("rule_options")),
        field(
          "next_leader",
          segmented(
            "next_leader",
            [
              ["rotate", t("next_leader_rotate")],
              ["winner", t("next_leader_winner")],
            ],
            form.nextLeader,
            (v) => ((form.nextLeader = v), renderForm()),
          ),
        ),
        field("first_leader", firstLeader),
        h("label.check", {}, four, h("span", {}, t("four_colours_option")), h("span.help", {}, t("four_colours_help"))),
        h("label.check", {}, goat, h("span", {}, t("goat_option")), h("span.help", {}, t("goat_help"))),
      ),
      visibilityField(form.visibility, (v) => ((form.visibility = v), renderForm())),
      h("label.check", {}, chatSpectators, h("span", {}, t("chat_spectators_option")), h("span.help", {}, t("chat_spectators_help"))),
      h("label.check", {}, hints, h("span", {}, t("hints_option")), h("span.help", {}, t("hints_option_help"))),
      form.signedIn ? h("label.check", {}, rated, h("span", {}, t("rated_option")), h("span.help", {}, t("rated_option_help"))) : null,
      clockField(form, renderForm),
      h("div.actions", {}, h("button.primary", { type: "submit", id: "create" }, t("create_table"))),
    ),
  );
}

async function create() {
  const bots = {};
  for (const [seat, level] of Object.entries(form.seats)) if (level) bots[seat] = level;
  const oneHand = form.target === "one";
  const target = form.target === "custom" ? Math.floor(form.custom) : oneHand ? 15 : Number(form.target);
  if (!Number.isFinite(target) || target < 1 || target > 100) {
    toast(t("bad_target"), "error");
    return;
  }
  const options = {
    target,
    one_hand: oneHand,
    next_leader: form.nextLeader,
    first_leader: form.firstLeader === "" ? null : Number(form.firstLeader),
    colours: form.players === 2 && form.fourColours ? 4 : 6,
    goat: form.goat,
  };
  const button = document.getElementById("create");
  button.disabled = true;
  const clock = clockChoice(form);
  try {
    const answer = await api.createTable(form.players, bots, options, {
      ...(clock ? { clock } : {}), chat: { spectators: form.chatSpectators }, hints: form.hints,
      visibility: form.visibility, ...(form.signedIn && form.rated ? { rated: true } : {}) });
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
      h("span.badge", { class: `status-${table.status}` }, status),
      mine ? turnBadge(table) : null,
      h("span.small", {}, optionsSummaryText(table.options, table.players)),
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
  try {
    const open = (await api.openTables()).tables;
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
    const waitingOnMe = list.filter((tb) => tb.my_turn).length;
    document.title = waitingOnMe ? t("mine_title", { n: waitingOnMe }) : "Odin";
    clear(mineList).append(list.length ? h("ul.tables", {}, list.map((tb) => tableItem(tb, true))) : h("p.empty", {}, t("no_my_tables")));
  } catch {
    clear(mineList).append(h("p.empty", {}, t("list_failed")));
  }
}

start();

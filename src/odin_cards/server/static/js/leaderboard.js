// The leaderboards, /leaderboard: one class at a time (heads-up, 3–6 players), a page at a
// time; provisional ratings only when asked for, and marked (GET /api/leaderboard).

import { currentAccount } from "./account.js";
import { initI18n, t } from "./i18n.js";
import { clear, h, setupHeader } from "./ui.js";

const main = document.getElementById("main");
const PAGE = 25;
const S = { cls: "heads-up", offset: 0, provisional: false, me: null };

async function load() {
  const query = new URLSearchParams({ class: S.cls, offset: S.offset, limit: PAGE, provisional: S.provisional });
  const response = await fetch(`/api/leaderboard?${query}`, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

async function render() {
  let board;
  try {
    board = await load();
  } catch (error) {
    clear(main).append(h("p.panel", {}, t("load_failed", { message: error.message })));
    return;
  }
  const tabs = ["heads-up", "multi"].map((cls) =>
    h("button", { type: "button", class: cls === S.cls ? "primary" : "secondary", "aria-pressed": String(cls === S.cls), onclick: () => ((S.cls = cls), (S.offset = 0), render()) }, t(`class_${cls}`)),
  );
  const box = h("input", { type: "checkbox", id: "show-provisional", checked: S.provisional, onchange: (e) => ((S.provisional = e.target.checked), (S.offset = 0), render()) });
  const rows = board.entries.map((e) => {
    const me = S.me !== null && e.name === S.me;
    return h(
      "tr",
      { class: me ? "me" : null, "aria-current": me ? "true" : null, "data-testid": "leaderboard-row" },
      h("td.num", {}, String(e.rank)),
      h(
        "th.who",
        { scope: "row" },
        h("a", { href: `/u/${encodeURIComponent(e.name)}` }, e.name),
        me ? h("span.badge.you", {}, t("you")) : null,
        e.provisional ? h("span.badge.provisional", { "data-testid": "provisional" }, t("provisional")) : null,
      ),
      h("td.num", {}, String(e.points)),
      h("td.num", {}, `± ${e.spread}`),
      h("td.num", {}, String(e.games)),
    );
  });
  const last = Math.min(board.offset + PAGE, board.total);
  clear(main).append(
    h("h1", {}, t("leaderboard")),
    h("div.board-controls", {}, h("div.tabs", { role: "group", "aria-label": t("leaderboard_class") }, ...tabs), h("label", {}, box, " ", t("leaderboard_show_provisional"))),
    rows.length
      ? // (The table fits a phone; should a language's headings not, it scrolls, not the page.)
        h(
          "div.ranking-scroll",
          {},
          h(
            "table.numbers.ranking",
            { "data-testid": "leaderboard" },
            h("caption", {}, `${t(`class_${S.cls}`)} · ${t("leaderboard_range", { first: board.offset + 1, last, total: board.total })}`),
            h("thead", {}, h("tr", {}, h("th.num", { scope: "col" }, "#"), h("th", { scope: "col" }, t("leaderboard_name")), h("th.num", { scope: "col" }, t("profile_rating")), h("th.num", { scope: "col" }, h("span.long", {}, t("leaderboard_spread")), h("span.short", { "aria-hidden": "true" }, "±")), h("th.num", { scope: "col" }, t("profile_games")))),
            h("tbody", {}, ...rows),
          ),
        )
      : h("p.panel", { "data-testid": "leaderboard-empty" }, t("leaderboard_empty")),
    h(
      "nav.pager",
      { "aria-label": t("leaderboard_pages") },
      h("button.secondary", { type: "button", disabled: S.offset === 0, onclick: () => ((S.offset = Math.max(0, S.offset - PAGE)), render()) }, t("leaderboard_previous")),
      h("button.secondary", { type: "button", disabled: last >= board.total, onclick: () => ((S.offset += PAGE), render()) }, t("leaderboard_next")),
    ),
    h("p.muted", {}, t("leaderboard_note")),
  );
}

async function start() {
  await initI18n();
  setupHeader();
  document.title = `${t("leaderboard")} · Odin`;
  const { account } = await currentAccount(); // (a signed-in person finds their own row marked)
  S.me = account ? account.name : null;
  await render();
}

start();

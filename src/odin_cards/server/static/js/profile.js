// A person's page, /u/{name}: rating per class with its history as a chart, games by number
// of players, recent tables (a finished one links to its replay, a running one to watching
// it: neither shows a hidden card) and their figures over finished games (GET /api/people).

import { initI18n, t } from "./i18n.js";
import { clear, h, setupHeader } from "./ui.js";

const main = document.getElementById("main");
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

const date = (iso) => new Date(iso).toLocaleDateString(document.documentElement.lang);
const percent = (share) => (share == null ? "—" : `${Math.round(share * 100)}%`);

/** The rating history as a line (SVG), with the same points in a table for screen readers. */
export function ratingChart(history, label) {
  const W = 560, H = 200, PAD = 36;
  const values = history.map((p) => p.points);
  const lo = Math.min(...values) - 20, hi = Math.max(...values) + 20;
  const x = (i) => PAD + (history.length === 1 ? (W - 2 * PAD) / 2 : (i * (W - 2 * PAD)) / (history.length - 1));
  const y = (v) => H - PAD + 10 - ((v - lo) * (H - 2 * PAD)) / (hi - lo || 1);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-label": label, "data-testid": "rating-chart" });
  chart.append(svg("title", {}, label));
  for (const v of [lo + 20, hi - 20]) {
    chart.append(svg("line", { x1: PAD, x2: W - PAD / 2, y1: y(v), y2: y(v), class: "grid" }));
    chart.append(svg("text", { x: PAD - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, String(v)));
  }
  chart.append(svg("polyline", { points: history.map((p, i) => `${x(i)},${y(p.points)}`).join(" "), class: "line" }));
  history.forEach((p, i) => chart.append(svg("circle", { cx: x(i), cy: y(p.points), r: 3.5, class: p.change >= 0 ? "up" : "down" })));
  const rows = history.map((p) =>
    h("tr", {}, h("td", {}, date(p.at)), h("td", {}, t("profile_place", { place: p.place, players: p.players })), h("td", {}, String(p.points)), h("td", {}, (p.change >= 0 ? "+" : "") + p.change)),
  );
  const alt = h(
    "table.visually-hidden",
    { "data-testid": "rating-chart-text" },
    h("caption", {}, label),
    h("thead", {}, h("tr", {}, h("th", {}, t("profile_date")), h("th", {}, t("profile_result")), h("th", {}, t("profile_rating")), h("th", {}, t("profile_change")))),
    h("tbody", {}, ...rows),
  );
  return h("figure.chart", {}, chart, alt);
}

function ratingPanel(key, data) {
  const title = t(`class_${key}`);
  const rating = data.rating;
  if (!rating) return h("section.panel.rating", { "data-testid": `rating-${key}` }, h("h2", {}, title), h("p.muted", {}, t("profile_unrated")));
  return h(
    "section.panel.rating",
    { "data-testid": `rating-${key}` },
    h("h2", {}, title),
    h(
      "p.rating-now",
      {},
      h("strong.points", { "data-testid": `points-${key}` }, String(rating.points)),
      ` ± ${rating.spread} · `,
      t("profile_rated_games", { n: rating.games }),
      rating.provisional ? h("span.badge.provisional", {}, t("provisional")) : null,
    ),
    data.history.length ? ratingChart(data.history, t("profile_chart", { name: title })) : null,
  );
}

function recentPanel(recent) {
  // One row a table: when, how many, the place (and whether rated), then the way to see it.
  const rows = recent.map((g) =>
    h(
      "tr",
      {},
      h("td", {}, date(g.created)),
      h("td.num", {}, String(g.players)),
      h("td", {}, g.place ? t("profile_place", { place: g.place, players: g.players }) : "—", g.rated ? h("span.badge", {}, t("rated")) : null),
      h("td", {}, g.url ? h("a", { href: g.url }, g.status === "finished" ? t("profile_replay") : t("profile_watch")) : h("span.muted", {}, t(`status_${g.status}`))),
    ),
  );
  const col = (text) => h("th", { scope: "col" }, text);
  const head = h("thead", {}, h("tr", {}, col(t("profile_date")), col(t("profile_players_head")), col(t("profile_result")), col(t("profile_game_link"))));
  return h(
    "section.panel",
    { "data-testid": "recent-games" },
    h("h2", {}, t("profile_recent")),
    rows.length ? h("table.numbers.recent", {}, head, h("tbody", {}, ...rows)) : h("p.muted", {}, t("profile_no_games")),
  );
}

function gamesPanel(p) {
  const rows = p.by_players.map((b) => h("tr", {}, h("td", {}, String(b.players)), h("td", {}, String(b.games)), h("td", {}, String(b.won)), h("td", {}, percent(b.share))));
  return h(
    "section.panel",
    { "data-testid": "games-played" },
    h("h2", {}, t("profile_games")),
    h("p", {}, t("profile_games_total", { n: p.games, won: p.won })),
    rows.length
      ? h("table.numbers", {}, h("thead", {}, h("tr", {}, h("th", {}, t("profile_players_head")), h("th", {}, t("profile_games")), h("th", {}, t("profile_won")), h("th", {}, t("profile_share")))), h("tbody", {}, ...rows))
      : null,
  );
}

function statisticsPanel(s) {
  if (!s.games) return null;
  const row = (key, value) => h("tr", {}, h("th", { scope: "row" }, t(key)), h("td", {}, value == null ? "—" : String(value)));
  return h(
    "section.panel",
    { "data-testid": "profile-statistics" },
    h("h2", {}, t("profile_statistics")),
    h(
      "table.numbers",
      {},
      h(
        "tbody",
        {},
        row("stats_hands", s.hands),
        row("stats_rounds_won", s.rounds_won),
        row("profile_hands_ended", s.hands_ended),
        row("stats_passes", s.passes),
        row("stats_cards_played", s.cards_played),
        row("stats_cards_taken", s.cards_taken),
        row("stats_points_per_hand", s.points_per_hand),
        row("stats_highest_set", s.highest_set ? `${s.highest_set.cards.join(" ")} (${s.highest_set.value})` : null),
      ),
    ),
  );
}

async function start() {
  await initI18n();
  setupHeader([h("a.leaderboard-link", { href: "/leaderboard" }, t("leaderboard"))]);
  const name = decodeURIComponent(location.pathname.split("/")[2] || "");
  let p;
  try {
    const response = await fetch(`/api/people/${encodeURIComponent(name)}`, { headers: { Accept: "application/json" } });
    if (response.status === 404) {
      clear(main).append(h("section.panel", { "data-testid": "profile-missing" }, h("h1", {}, t("profile_missing")), h("p", {}, h("a", { href: "/" }, t("back_home")))));
      return;
    }
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    p = await response.json();
  } catch (error) {
    clear(main).append(h("p.panel", {}, t("load_failed", { message: error.message })));
    return;
  }
  document.title = `${p.name} · Odin`;
  clear(main).append(
    h("h1", { "data-testid": "profile-name" }, p.name),
    h("p.muted", {}, t("profile_since", { date: date(p.member_since) })),
    h("div.profile-grid", {}, ratingPanel("heads-up", p.ratings["heads-up"]), ratingPanel("multi", p.ratings.multi), gamesPanel(p), recentPanel(p.recent), statisticsPanel(p.statistics)),
  );
}

start();

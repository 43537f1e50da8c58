// A finished game's statistics, as its record carries them ("statistics", computed on the
// server by odin_cards.odin.rules.statistics): the table's figures, one column per player, and
// a chart of each player's points after each hand. Shown on the table's final screen and
// on the replay page. Built with DOM calls only (names go in as text, never as markup);
// the chart is inline SVG, no third-party script.

import { t } from "/static/js/i18n.js";
import { h } from "/static/js/ui.js";
import { cardRow } from "./card-view.js";

const SVG = "http://www.w3.org/2000/svg";
// One colour and one dash pattern per seat, so the lines differ without colour too.
const COLOURS = ["#1f6fd1", "#c2410c", "#15803d", "#a21caf", "#0f766e", "#6b4f1d"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 2", "10 4"];
const MARKS = ["circle", "square", "diamond", "triangle", "circle", "square"];

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  for (const child of children.flat()) if (child) el.append(child);
  return el;
}

function text(x, y, content, attrs = {}) {
  const el = svg("text", { x, y, ...attrs });
  el.textContent = content;
  return el;
}

/** A highest set: its cards, then its size; a dash when nothing was played. */
function highestSet(best, size = "xs") {
  if (!best) return h("span", {}, "–");
  return h("span.stat-set", {}, cardRow(best.cards, size), " ", h("span.small", {}, t("stats_cards_n", { n: best.size })));
}

/** The table's figures: hands, rounds, passes, cards played, the highest set and who played it. */
function summary(stats, nameOf) {
  const row = (key, value, testId) => [h("dt", {}, t(key)), h("dd", { "data-testid": testId }, value)];
  const best = stats.highest_set;
  return h(
    "dl.stats-summary",
    {},
    row("stats_hands", String(stats.hands), "stats-hands"),
    row("stats_rounds", String(stats.rounds), "stats-rounds"),
    row("stats_passes", String(stats.passes), "stats-passes"),
    row("stats_cards_played", String(stats.cards_played), "stats-cards-played"),
    row(
      "stats_highest_set",
      best ? [highestSet(best, "sm"), " ", h("span.small", {}, t("stats_played_by", { name: nameOf(best.seat), n: best.hand + 1 }))] : "–",
      "stats-highest",
    ),
  );
}

/** One column per player (in standing order): rounds won, passes, cards, highest set, points per hand. */
function seatsTable(stats, order, nameOf) {
  const cell = (value) => h("td.num", {}, value);
  const line = (key, value) => h("tr", {}, h("th", { scope: "row" }, t(key)), order.map((seat) => value(stats.seats[seat])));
  return h(
    "div.stats-scroll",
    { tabindex: "0", role: "region", "aria-label": t("stats_per_player") },
    h(
      "table.summary-table.stats-seats",
      { "data-testid": "stats-seats" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), order.map((seat) => h("th", { scope: "col" }, nameOf(seat))))),
      h(
        "tbody",
        {},
        line("stats_rounds_won", (s) => cell(String(s.rounds_won))),
        line("stats_passes", (s) => cell(String(s.passes))),
        line("stats_cards_played", (s) => cell(String(s.cards_played))),
        line("stats_cards_taken", (s) => cell(String(s.cards_taken))),
        line("stats_highest_set", (s) => h("td", {}, highestSet(s.highest_set))),
        line("stats_points_per_hand", (s) => cell(s.points.join(" · "))),
      ),
    ),
  );
}

/**
 * Each player's total points after each hand (hand 0: no points yet), one line per player,
 * with the target as a dashed line when the game has one. Points are bad: lower is better.
 */
export function pointsChart(stats, nameOf, target = null) {
  const hands = stats.hands;
  const players = stats.seats.length;
  const top = Math.max(1, target || 0, ...stats.seats.map((s) => s.scores[s.scores.length - 1] || 0));
  const width = 560;
  const height = 240;
  const pad = { left: 36, right: 12, top: 12, bottom: 30 };
  const x = (hand) => pad.left + (hands ? (hand / hands) * (width - pad.left - pad.right) : 0);
  const y = (points) => pad.top + (1 - points / top) * (height - pad.top - pad.bottom);
  const label = t("stats_chart_label", { n: hands });
  const grid = [];
  const step = Math.max(1, Math.ceil(top / 5));
  for (let p = 0; p <= top; p += step) {
    grid.push(svg("line", { x1: pad.left, x2: width - pad.right, y1: y(p), y2: y(p), class: "grid" }));
    grid.push(text(pad.left - 6, y(p) + 4, String(p), { "text-anchor": "end", class: "axis" }));
  }
  for (let hand = 0; hand <= hands; hand++) grid.push(text(x(hand), height - 10, String(hand), { "text-anchor": "middle", class: "axis" }));
  const lines = [];
  for (let seat = 0; seat < players; seat++) {
    const totals = [0, ...stats.seats[seat].scores];
    const points = totals.map((p, hand) => `${x(hand).toFixed(1)},${y(p).toFixed(1)}`).join(" ");
    const colour = COLOURS[seat % COLOURS.length];
    const marks = totals.map((p, hand) => mark(MARKS[seat % MARKS.length], x(hand), y(p), colour));
    const line = svg("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2.5, "stroke-dasharray": DASHES[seat % DASHES.length] });
    lines.push(svg("g", { "data-seat": seat, class: "series" }, svg("title", {}, document.createTextNode(`${nameOf(seat)}: ${totals.slice(1).join(", ")}`)), line, marks));
  }
  const targetLine = target ? [svg("line", { x1: pad.left, x2: width - pad.right, y1: y(target), y2: y(target), class: "target" }), text(width - pad.right, y(target) < 24 ? y(target) + 14 : y(target) - 4, t("stats_target", { n: target }), { "text-anchor": "end", class: "axis" })] : [];
  const chart = svg(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label, class: "points-chart", "data-testid": "points-chart" },
    svg("title", {}, document.createTextNode(label)),
    grid,
    targetLine,
    lines,
  );
  const legend = h(
    "ul.chart-legend",
    {},
    [...Array(players).keys()].map((seat) =>
      h(
        "li",
        {},
        svg("svg", { width: 28, height: 12, "aria-hidden": "true" }, svg("line", { x1: 1, x2: 27, y1: 6, y2: 6, stroke: COLOURS[seat % COLOURS.length], "stroke-width": 2.5, "stroke-dasharray": DASHES[seat % DASHES.length] })),
        h("span", {}, nameOf(seat)),
      ),
    ),
  );
  return h("figure.stats-chart", {}, chart, h("figcaption", {}, t("stats_chart_title")), legend);
}

function mark(shape, cx, cy, colour) {
  const r = 4;
  if (shape === "square") return svg("rect", { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, fill: colour });
  if (shape === "diamond") return svg("polygon", { points: `${cx},${cy - r - 1} ${cx + r + 1},${cy} ${cx},${cy + r + 1} ${cx - r - 1},${cy}`, fill: colour });
  if (shape === "triangle") return svg("polygon", { points: `${cx},${cy - r - 1} ${cx + r + 1},${cy + r} ${cx - r - 1},${cy + r}`, fill: colour });
  return svg("circle", { cx, cy, r, fill: colour });
}

/** The whole panel: figures, players, chart. ``order``: the seats in standing order. */
export function statisticsPanel(stats, { nameOf, order, target = null }) {
  return h(
    "section.game-statistics",
    { "data-testid": "statistics", "aria-labelledby": "statistics-title" },
    h("h3", { id: "statistics-title" }, t("stats_title")),
    summary(stats, nameOf),
    seatsTable(stats, order, nameOf),
    pointsChart(stats, nameOf, target),
  );
}

/**
 * The statistics of a finished table, fetched once from its record (served only once the
 * game is over) and kept: the page redraws often, the same element is put back each time.
 */
export class TableStatistics {
  constructor(loadRecord) {
    this.loadRecord = loadRecord;
    this.box = h("div.statistics-box", { "aria-live": "polite" });
    this.asked = false;
  }

  /** The element to show; ``draw(stats)`` builds the panel once the record has come. */
  element(draw) {
    if (!this.asked) {
      this.asked = true;
      this.load(draw, 3);
    }
    return this.box;
  }

  /** Ask for the record; the table may be a moment from "finished" on the server: retry. */
  load(draw, tries) {
    this.loadRecord()
      .then((record) => {
        if (record && record.statistics) this.box.replaceChildren(draw(record.statistics));
      })
      .catch(() => {
        if (tries > 1) setTimeout(() => this.load(draw, tries - 1), 1000);
        else this.box.replaceChildren(h("p.small", {}, t("stats_unavailable")));
      });
  }
}

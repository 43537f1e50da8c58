// The replay page's analysis (issue #13): every move judged by the strongest bot from
// what its player saw, and a summary per player. The server computes it once the game is
// over (GET /api/tables/{id}/analysis: 202 while it works, 200 with the analysis; 422
// bad_game for a game it does not analyse, which then shows none); this module asks until
// it is ready and decorates what replay.js drew. Text only (no markup).

import { t } from "./i18n.js";
import { h } from "./ui.js";

const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const MOST_ASKS = 120;

async function fetchAnalysis(id) {
  const response = await fetch(`/api/tables/${encodeURIComponent(id)}/analysis`, { headers: { Accept: "application/json" } });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.status === 422 && data && data.error === "bad_game") return { data: { status: "none" }, retry: 0 };
  if (!response.ok) throw new Error((data && data.message) || response.statusText);
  const retry = Number(response.headers.get("Retry-After")) || 2;
  return { data, retry };
}

/** Ask for the analysis of replay R's table until it is ready; then put each move's note
 * on its step (R.steps follow the record's events; the notes its actions) and redraw. */
export async function watchAnalysis(R, redraw) {
  R.analysis = { state: "pending" };
  for (let ask = 0; ask < MOST_ASKS; ask++) {
    let answer;
    try {
      answer = await fetchAnalysis(R.id);
    } catch (error) {
      R.analysis = { state: "failed", message: String(error.message || error) };
      redraw();
      return;
    }
    if (answer.data && answer.data.status === "none") {
      R.analysis = { state: "none" };
      redraw();
      return;
    }
    if (answer.data && answer.data.status === "done") {
      const analysis = answer.data.analysis;
      let k = 0;
      for (const step of R.steps) if (step.action) step.judged = analysis.moves[k++] || null;
      R.analysis = { state: "done", analysis };
      redraw();
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, answer.retry * 1000));
  }
  R.analysis = { state: "failed", message: t("an_too_long") };
  redraw();
}

function verdictBadge(note) {
  return h(`span.an-badge.an-${note.verdict}`, { "data-testid": "an-verdict" }, t(`an_${note.verdict}`));
}

function fmt(points) {
  return (points >= 0 ? "+" : "") + points.toFixed(2);
}

/** What the analysis says of the current move, after the move line. */
function moveNote(note) {
  if (note.verdict === "forced") return h("p.an-move", { "data-testid": "an-move" }, verdictBadge(note));
  const parts = [verdictBadge(note), " ", t("an_expected", { points: fmt(note.expected) })];
  if (note.verdict !== "best") {
    parts.push(" · ", t("an_preferred", { move: note.best, points: fmt(note.best_expected), loss: note.loss.toFixed(2) }));
  }
  return h("p.an-move", { "data-testid": "an-move" }, parts);
}

/** A column's heading: the marks of the move log stand for their classes (spelt out in
 * the title, and for screen readers), so that the table fits the side panel. */
function header(key) {
  const mark = { an_col_inaccuracies: "?!", an_col_mistakes: "?", an_col_blunders: "??" }[key];
  return mark ? h("abbr", { title: t(key), "aria-label": t(key) }, mark) : t(key);
}

function summary(analysis, nameOf) {
  const cols = ["an_col_player", "an_col_choices", "an_col_best", "an_col_inaccuracies", "an_col_mistakes", "an_col_blunders", "an_col_loss"];
  const table = h(
    "table.an-summary",
    { "data-testid": "an-summary" },
    h("thead", {}, h("tr", {}, cols.map((key) => h("th", { scope: "col" }, header(key))))),
    h(
      "tbody",
      {},
      analysis.summary.map((s) =>
        h("tr", {}, h("th", { scope: "row" }, nameOf(s.seat)), [s.decisions, s.best, s.inaccuracies, s.mistakes, s.blunders, s.mean_loss.toFixed(2)].map((v) => h("td.num", {}, String(v)))),
      ),
    ),
  );
  return h("div.an-scroll", {}, table);
}

/** Decorate the replay drawn in `main`: the current move's note, marks in the move log,
 * and the analysis panel (pending, failed or the per-player summary). */
export function annotateReplay(main, R, nameOf) {
  const state = R.analysis || { state: "pending" };
  if (state.state === "none") return;
  const step = R.steps[R.index];
  const action = main.querySelector(".rp-action");
  if (action && step && step.judged) action.after(moveNote(step.judged));
  const list = main.querySelector(".rp-log");
  if (list) {
    R.steps.forEach((st, i) => {
      const note = st.judged;
      const item = list.children[i];
      if (item && note && MARKS[note.verdict]) {
        item.append(" ", h(`span.an-mark.an-${note.verdict}`, { title: t(`an_${note.verdict}`), "aria-label": t(`an_${note.verdict}`) }, MARKS[note.verdict]));
      }
    });
  }
  const side = main.querySelector("aside.side");
  if (!side) return;
  let body;
  if (state.state === "done") body = [summary(state.analysis, nameOf), h("p.small", {}, t("an_explain"))];
  else if (state.state === "failed") body = h("p", { "data-testid": "an-failed" }, t("an_failed", { message: state.message }));
  else body = h("p", { "data-testid": "an-pending", role: "status" }, t("an_pending"));
  side.prepend(h("section.panel.an-panel", { "data-testid": "analysis" }, h("h2", {}, t("an_title")), body));
}

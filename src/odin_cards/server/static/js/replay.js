// The replay page, /t/{id}/replay: a finished game's record, step by step. The shell draws
// the controls, the move log, the move just made, the chat said up to it, the analysis
// (analysis.js) and the result; the board module of the table's game (boards.js; docs/
// ui.md, Boards) rebuilds the positions from the record and draws them (Odin: every hand
// face up). The record is only served once the game is over (403 while it runs).

import { annotateReplay, watchAnalysis } from "./analysis.js";
import { api, pageTable } from "./api.js";
import { loadBoard, loadWords } from "./boards.js";
import { actionsAt, replayChatPanel } from "./chat.js";
import { initI18n, t } from "./i18n.js";
import { standingsOrder } from "./table-model.js";
import { clear, h, icon, rulesOf, seatName, setLevels, setupHeader } from "./ui.js";

const main = document.getElementById("main");
// The page's state: the board's replay (its steps and drawing), the step shown, autoplay.
const R = { id: null, table: null, record: null, view: null, steps: [], index: 0, timer: null, extra: undefined, analysis: null };

function nameOf(seat) {
  return seatName(seat, null, R.table);
}

async function start() {
  await initI18n();
  setupHeader();
  const { id } = pageTable();
  R.id = id;
  try {
    R.table = (await api.table(id)).table;
  } catch (error) {
    return message(error.status === 404 ? t("table_not_found") : t("load_failed", { message: error.message }));
  }
  rulesOf(R.table.game);
  const [levels, words] = await Promise.all([api.levels(R.table.game).catch(() => []), loadWords(R.table.game)]);
  setLevels(levels, words);
  try {
    R.record = await api.record(id);
  } catch (error) {
    if (error.status === 403) {
      return message(t("replay_after_end"), h("a.button.primary", { href: `/t/${encodeURIComponent(id)}/watch` }, t("watch_live")));
    }
    return message(t("load_failed", { message: error.message }));
  }
  try {
    const module = await loadBoard(R.table.game);
    const replay = module.replay || (await import("./plain-board.js")).replay;
    R.view = replay(R.record, { t, nameOf, table: R.table });
  } catch (error) {
    return message(t("load_failed", { message: String(error.message || error) }));
  }
  R.steps = R.view.steps;
  document.title = `${t("replay_title")} · Odin`;
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (e.key in moves && !(e.target instanceof HTMLInputElement)) {
      e.preventDefault();
      go(R.index + moves[e.key]);
    }
  });
  go(0);
  watchAnalysis(R, render);
}

function message(text, extra = null) {
  clear(main).append(h("section.panel.fatal", { "data-testid": "replay-message" }, h("h1", {}, t("replay_title")), h("p", {}, text), extra, h("p", {}, h("a", { href: "/" }, t("back_home")))));
}

function go(index) {
  const last = R.steps.length - 1;
  R.index = Math.max(0, Math.min(last, Number.isFinite(index) ? index : index > 0 ? last : 0));
  render();
}

function toggleAuto(button) {
  if (R.timer) {
    clearInterval(R.timer);
    R.timer = null;
  } else {
    R.timer = setInterval(() => {
      if (R.index >= R.steps.length - 1) {
        clearInterval(R.timer);
        R.timer = null;
        render();
      } else go(R.index + 1);
    }, 900);
  }
  button.textContent = R.timer ? t("rp_pause") : t("rp_autoplay");
}

/** A step's words: the board's note (a deal, a hand's end...), and who made the move
 * when it was not its seat's person. */
function noteText(step) {
  if (step.note) return step.note + byText(step);
  return byText(step).trim();
}

/** " (a stand-in's move)" for a move not made by its seat's person (record.moves_by). */
function byText(step) {
  if (!step.action) return "";
  const mark = (R.record.moves_by || []).find((m) => m.number === step.action.number);
  if (!mark) return "";
  return " " + t(mark.by === "stand-in" ? "rp_by_stand_in" : "rp_by_bot");
}

/** A move: who made it (when the record says), and its text. */
function moveEl(action) {
  const who = Number.isInteger(action.seat) ? [h("b", {}, nameOf(action.seat)), " "] : [];
  return [...who, h("code", {}, action.text)];
}

/** What the board shows under the replay (Odin: the game's statistics), built once. */
function boardExtra() {
  if (R.extra === undefined) R.extra = R.view.extra ? R.view.extra() : null;
  return R.extra;
}

/** The result, on the last step: the standings with the winners. */
function finalStandings(players) {
  const outcome = R.record.outcome;
  if (!outcome || R.index !== R.steps.length - 1) return null;
  const winners = outcome.winners || [];
  return h(
    "section.panel.final",
    { "data-testid": "final" },
    h("h2", {}, t("final_standings")),
    h(
      "ol.standings",
      {},
      standingsOrder(outcome, players).map((seat) =>
        h(
          "li",
          { class: winners.includes(seat) ? "won" : "" },
          h("span.player-name", {}, nameOf(seat)),
          winners.includes(seat) ? h("span.badge.win", {}, t("winner")) : null,
          outcome.scores ? h("span.num", {}, t("points_short", { n: outcome.scores[seat] })) : null,
        ),
      ),
    ),
  );
}

function render() {
  const scrollY = window.scrollY;
  const step = R.steps[R.index];
  const last = R.steps.length - 1;
  const players = R.record.players ?? R.table.players;
  const slider = h("input", {
    id: "slider",
    type: "range",
    min: "0",
    max: String(last),
    value: String(R.index),
    "aria-label": t("rp_step_slider"),
    "data-testid": "slider",
  });
  slider.addEventListener("input", () => go(Number(slider.value)));
  const auto = h("button.ghost", { type: "button", onclick: (e) => toggleAuto(e.currentTarget) }, R.timer ? t("rp_pause") : t("rp_autoplay"));
  const controls = h(
    "div.replay-controls",
    {},
    h("button.secondary", { type: "button", onclick: () => go(0), disabled: R.index === 0, "aria-label": t("rp_first"), "data-testid": "first" }, icon("first")),
    h("button.secondary", { type: "button", onclick: () => go(R.index - 1), disabled: R.index === 0, "aria-label": t("rp_prev"), "data-testid": "prev" }, icon("prev")),
    h("button.primary", { type: "button", onclick: () => go(R.index + 1), disabled: R.index === last, "aria-label": t("rp_next"), "data-testid": "next" }, icon("next")),
    h("button.secondary", { type: "button", onclick: () => go(last), disabled: R.index === last, "aria-label": t("rp_last"), "data-testid": "last" }, icon("last")),
    slider,
    auto,
    h("span.step-count", { "data-testid": "step" }, t("rp_step", { i: R.index + 1, n: last + 1 })),
  );
  const action = step.action ? h("p.rp-action", {}, moveEl(step.action), " ", noteText(step)) : h("p.rp-action", {}, noteText(step));
  const log = h(
    "ol.log.rp-log",
    // It scrolls: keyboard users reach it with Tab and scroll it with the arrow keys.
    { "data-testid": "log", tabindex: "0", "aria-label": t("move_log") },
    R.steps.map((st, i) =>
      h(
        "li",
        { class: i === R.index ? "current" : "", onclick: () => go(i) },
        st.action ? moveEl(st.action) : st.note || "",
      ),
    ),
  );
  const caption = R.view.caption ? R.view.caption(R.index) : null;
  clear(main).append(
    h(
      "div.replay",
      {},
      h("div.replay-head", {}, h("h1", {}, t("replay_title")), caption ? h("span.small", {}, caption) : null),
      controls,
      action,
      h(
        "div.layout",
        {},
        h("div.board", {}, finalStandings(players), R.view.draw(R.index)),
        h("aside.side", {}, h("section.panel.log-panel", {}, h("h2", {}, t("move_log")), log), replayChatPanel(R.record.chat || [], actionsAt(R.steps, R.index))),
      ),
      boardExtra(),
    ),
  );
  annotateReplay(main, R, nameOf);
  window.scrollTo(0, scrollY);
  // Keep the current move in view inside the log, without scrolling the page.
  const list = main.querySelector(".rp-log");
  const current = list && list.querySelector("li.current");
  if (current) {
    const top = current.offsetTop;
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }
}

start();

// The replay page, /t/{id}/replay: a finished game's record, step by step, with every
// hand shown. The record is only served once the game is over (403 while it runs).

import { annotateReplay, watchAnalysis } from "./analysis.js";
import { api, pageTable } from "./api.js";
import { sortCards } from "./cards.js";
import { buildSteps } from "./replay-steps.js";
import { actionsAt, replayChatPanel } from "./chat.js";
import { initI18n, t } from "./i18n.js";
import { optionsSummaryText } from "./options-text.js";
import { statisticsPanel } from "./statistics.js";
import { cardEl, cardRow, clear, h, icon, seatName, setLevels, setupHeader } from "./ui.js";

const main = document.getElementById("main");
const R = { id: null, table: null, record: null, steps: [], index: 0, timer: null, statistics: null };
window.odinReplay = R;

function nameOf(seat) {
  return seatName(seat, null, R.table);
}

async function start() {
  await initI18n();
  setupHeader();
  const { id } = pageTable();
  R.id = id;
  setLevels(await api.levels().catch(() => []));
  try {
    R.table = (await api.table(id)).table;
  } catch (error) {
    return message(error.status === 404 ? t("table_not_found") : t("load_failed", { message: error.message }));
  }
  try {
    R.record = await api.record(id);
  } catch (error) {
    if (error.status === 403) {
      return message(t("replay_after_end"), h("a.button.primary", { href: `/t/${encodeURIComponent(id)}/watch` }, t("watch_live")));
    }
    return message(t("load_failed", { message: error.message }));
  }
  R.steps = buildSteps(R.record);
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

function noteText(step) {
  if (step.note) {
    const name = nameOf(step.note.seat);
    return t(step.note.key, { name, n: step.hand }) + byText(step);
  }
  return byText(step).trim();
}

/** " (a stand-in's move)" for a move not made by its seat's person (record.moves_by). */
function byText(step) {
  if (!step.action) return "";
  const mark = (R.record.moves_by || []).find((m) => m.number === step.action.number);
  if (!mark) return "";
  return " " + t(mark.by === "stand-in" ? "rp_by_stand_in" : "rp_by_bot");
}

/** The game's statistics and points chart under the board (statistics.js), built once. */
function replayStatistics() {
  const stats = R.record.statistics;
  if (!stats) return null; // records of other games, and records written before them
  if (!R.statistics) {
    const order = [...stats.seats.keys()].sort((a, b) => stats.seats[a].scores.at(-1) - stats.seats[b].scores.at(-1));
    const target = R.record.options && !R.record.options.one_hand ? R.record.options.target : null;
    R.statistics = h("section.panel.rp-statistics", {}, statisticsPanel(stats, { nameOf, order, target }));
  }
  return R.statistics;
}

function render() {
  const scrollY = window.scrollY;
  const step = R.steps[R.index];
  const last = R.steps.length - 1;
  const players = R.record.players;
  const slider = h("input", { id: "slider",
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
  const action = step.action
    ? h("p.rp-action", {}, h("b", {}, nameOf(step.action.seat)), " ", h("code", {}, step.action.text), " ", noteText(step))
    : h("p.rp-action", {}, noteText(step));

  const seats = [];
  for (let seat = 0; seat < players; seat++) {
    const classes = ["player", "rp-player"];
    if (seat === step.toMove) classes.push("to-move");
    if (step.action && step.action.seat === seat) classes.push("acted");
    seats.push(
      h(
        "article",
        { class: classes.join(" "), "data-seat": String(seat) },
        h(
          "div.player-head",
          {},
          h("span.player-name", {}, nameOf(seat)),
          h("span.player-score", {}, t("points_short", { n: step.scores[seat] })),
        ),
        h("div.badges", {}, seat === step.toMove ? h("span.badge.turn", {}, t("to_move")) : null, step.points ? h("span.badge", {}, `+${step.points[seat]}`) : null),
        h("div.card-row.rp-hand", {}, sortCards(step.hands[seat]).map((c) => cardEl(c, { size: "sm" }))),
      ),
    );
  }
  const tableArea = h("section.table-area", { "aria-label": t("table_set") });
  if (step.beaten.length) {
    tableArea.append(h("div.felt-label", {}, t("other_chooses_take", { name: nameOf(step.toMove) })), cardRow(step.beaten, "md"));
  }
  if (step.table.length) {
    tableArea.append(h("div.felt-label", {}, t("played_by", { name: nameOf(step.tablePlayer) })), h("div.card-row", {}, step.table.map((c) => cardEl(c, { size: "lg" }))));
  } else {
    tableArea.append(h("div.felt-empty", {}, step.toMove === null ? "" : t("table_empty", { name: nameOf(step.toMove) })));
  }
  const log = h(
    "ol.log.rp-log",
    // It scrolls: keyboard users reach it with Tab and scroll it with the arrow keys.
    { "data-testid": "log", tabindex: "0", "aria-label": t("move_log") },
    R.steps.map((st, i) =>
      h(
        "li",
        { class: i === R.index ? "current" : "", onclick: () => go(i) },
        st.action ? [h("b", {}, nameOf(st.action.seat)), " ", h("code", {}, st.action.text)] : t("rp_deal", { name: nameOf(st.toMove), n: st.hand }),
      ),
    ),
  );
  const outcome = R.record.outcome;
  const final =
    R.index === last && outcome
      ? h(
          "section.panel.final",
          { "data-testid": "final" },
          h("h2", {}, t("final_standings")),
          h("ol.standings", {}, [...Array(players).keys()].sort((a, b) => outcome.scores[a] - outcome.scores[b]).map((seat) =>
            h("li", { class: outcome.winners.includes(seat) ? "won" : "" }, h("span.player-name", {}, nameOf(seat)), outcome.winners.includes(seat) ? h("span.badge.win", {}, t("winner")) : null, h("span.num", {}, t("points_short", { n: outcome.scores[seat] }))),
          )),
        )
      : null;
  clear(main).append(
    h(
      "div.replay",
      {},
      h("div.replay-head", {}, h("h1", {}, t("replay_title")), h("span.small", {}, t("hand_n", { n: step.hand }), " · ", optionsSummaryText(R.record.options, players))),
      controls,
      action,
      h("div.layout", {}, h("div.board", {}, final, h("section.players.rp-players", {}, seats), tableArea), h("aside.side", {}, h("section.panel.log-panel", {}, h("h2", {}, t("move_log")), log), replayChatPanel(R.record.chat || [], actionsAt(R.steps, R.index)))),
      replayStatistics(),
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

// Odin's positions on the replay page (the board module's replay(); docs/ui.md, Boards):
// every player with the hand they held, the set on the table or the beaten set to take
// from, the scores; under the replay, the game's statistics from its record. The shell
// draws the controls, the log, the move line and the result around them.

import { h } from "/static/js/ui.js";
import { optionsSummaryText } from "./options-text.js";
import { sortCards } from "./cards.js";
import { cardEl, cardRow } from "./card-view.js";
import { statisticsPanel } from "./statistics.js";

/**
 * The replay of `record` from its positions (`steps`, replay-steps.js). `ctx`: {t, nameOf}.
 * Each step the shell gets has `action` ({seat, text, number} or null) and `note` (the
 * step's words: a deal, a round's or a hand's end).
 */
export function replayBoard(steps, record, ctx) {
  const { t, nameOf } = ctx;
  const players = record.players;
  const shown = steps.map((step) => ({
    ...step,
    note: step.note ? t(step.note.key, { name: nameOf(step.note.seat), n: step.hand }) : null,
  }));

  function draw(index) {
    const step = shown[index];
    const seats = [];
    for (let seat = 0; seat < players; seat++) {
      const classes = ["player", "rp-player"];
      if (seat === step.toMove) classes.push("to-move");
      if (step.action && step.action.seat === seat) classes.push("acted");
      seats.push(
        h(
          "article",
          { class: classes.join(" "), "data-seat": String(seat) },
          h("div.player-head", {}, h("span.player-name", {}, nameOf(seat)), h("span.player-score", {}, t("points_short", { n: step.scores[seat] }))),
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
    return [h("section.players.rp-players", {}, seats), tableArea];
  }

  return {
    steps: shown,
    draw,
    caption: (index) => [t("hand_n", { n: shown[index].hand }), " · ", optionsSummaryText(record.options, players)],
    /** The game's statistics and points chart (records of older games have none). */
    extra() {
      const stats = record.statistics;
      if (!stats) return null;
      const order = [...stats.seats.keys()].sort((a, b) => stats.seats[a].scores.at(-1) - stats.seats[b].scores.at(-1));
      const target = record.options && !record.options.one_hand ? record.options.target : null;
      return h("section.panel.rp-statistics", {}, statisticsPanel(stats, { nameOf, order, target }));
    },
  };
}

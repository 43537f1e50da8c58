// The end of a game at the table page (the shell's): the final standings with the
// winners, the rematch (rematch.js), the way to the replay and home, and what the board
// adds (Odin: the game hand by hand, its statistics). The board places it where it wants
// (Odin: on the felt) through its context's endFrame(); otherwise the shell puts it first.

import { t } from "./i18n.js";
import { rematchPanel } from "./rematch.js";
import { standingsOrder } from "./table-model.js";
import { h } from "./ui.js";

/**
 * The frame. From the board: `order` (the seats in standing order; default: winners
 * first, table-model.js), `winners` (default: the outcome's), `score(seat)` (a score's
 * words; default "n pts"), `extra(order)` (more nodes at the end). From the shell: the
 * State, the table, the rematch's answers, my seat, `nameOf`, and the rematch's
 * `answer(answer, extra)` and `follow(next, seated)`.
 */
export function endFrame({ state, table, rematch, mySeat, nameOf, answer, follow, order = null, winners = null, score = null, extra = null }) {
  // A State without an outcome (a game whose view has none) ends with no standings.
  const outcome = state.outcome || null;
  const players = state.players ?? (outcome ? (outcome.scores || []).length : table.players);
  const won = new Set(winners || (outcome && outcome.winners) || []);
  const seats = order || (outcome ? standingsOrder(outcome, players) : []);
  const scoreText = score || ((seat) => t("points_short", { n: outcome.scores[seat] }));
  const winnerNames = [...won].map(nameOf).join(", ");
  return h(
    "section.panel.final",
    { "data-testid": "final" },
    h("h2", {}, outcome ? t("final_standings") : t("game_over")),
    won.size ? h("p.winner", {}, won.size > 1 ? t("winners_shared", { names: winnerNames }) : t("winner_is", { name: winnerNames })) : null,
    seats.length
      ? h(
          "ol.standings",
          {},
          seats.map((seat) =>
            h(
              "li",
              { class: won.has(seat) ? "won" : "" },
              h("span.player-name", {}, nameOf(seat)),
              won.has(seat) ? h("span.badge.win", {}, t("winner")) : null,
              h("span.num", {}, scoreText(seat)),
            ),
          ),
        )
      : null,
    rematchPanel({ table, rematch, mySeat, nameOf, answer, follow }),
    h(
      "div.actions",
      {},
      h("a.button.secondary", { href: `/t/${encodeURIComponent(table.id)}/replay` }, t("open_replay")),
      h("a.button.ghost", { href: "/" }, t("back_home")),
    ),
    extra ? extra(seats) : null,
  );
}

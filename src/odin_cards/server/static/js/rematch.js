// The rematch panel at a finished table (docs/protocol.md, "rematch"): every player's
// answer live, my Accept / Decline, what happens to declined seats (a bot, or open for
// someone new: the accepting players choose), starting without those who have not
// answered, and the way to the next table once it started.

import { t } from "./i18n.js";
import { h } from "./ui.js";

/** Each person's seat with its answer: "accept", "decline" or "waiting". */
export function rematchRows(table, rematch) {
  const answers = (rematch && rematch.answers) || {};
  return table.seats.filter((s) => s.name !== null && s.name !== undefined).map((s) => ({ seat: s.seat, answer: answers[String(s.seat)] || "waiting" }));
}

/**
 * The panel. `mySeat`: my seat if I am a player (null: a spectator); `nameOf(seat)`;
 * `answer(answer, {declined, now})` sends my answer; `follow(nextId, seated)` goes to
 * the next table.
 */
export function rematchPanel({ table, rematch, mySeat, nameOf, answer, follow }) {
  const rows = rematchRows(table, rematch);
  const mine = mySeat === null ? null : rows.find((r) => r.seat === mySeat);
  const next = (rematch && rematch.next_table) || table.next_table;
  const declined = (rematch && rematch.declined) || "bot";
  const list = h(
    "ul.rematch-answers",
    {},
    rows.map((r) =>
      h(
        "li",
        { "data-testid": `rematch-${r.seat}`, "data-answer": r.answer, class: `answer-${r.answer}` },
        h("span.player-name", {}, nameOf(r.seat)),
        h("span.badge", { class: `rematch-${r.answer}` }, r.answer === "accept" ? `✓ ${t("rematch_accepted")}` : r.answer === "decline" ? `✗ ${t("rematch_declined")}` : `… ${t("rematch_waiting")}`),
      ),
    ),
  );
  const controls = [];
  if (next) {
    const seated = mine && mine.answer === "accept";
    controls.push(
      seated
        ? h("button.primary", { type: "button", "data-testid": "rematch-go", onclick: () => follow(next, true) }, t("join_next_game"))
        : h("button.secondary", { type: "button", "data-testid": "rematch-watch", onclick: () => follow(next, false) }, t("watch_next_game")),
    );
  } else if (mine) {
    const choice = h("select", { "aria-label": t("rematch_declined_seats"), "data-testid": "rematch-declined" }, h("option", { value: "bot" }, t("rematch_to_bot")), h("option", { value: "open" }, t("rematch_to_open")));
    choice.value = declined;
    if (mine.answer === "accept") choice.addEventListener("change", () => answer("accept", { declined: choice.value }));
    controls.push(h("label.rematch-choice", {}, h("span", {}, t("rematch_declined_seats")), choice));
    if (mine.answer !== "accept") controls.push(h("button.primary", { type: "button", "data-testid": "rematch-accept", onclick: () => answer("accept", { declined: choice.value }) }, t("rematch_accept")));
    if (mine.answer !== "decline") controls.push(h("button.secondary", { type: "button", "data-testid": "rematch-decline", onclick: () => answer("decline", {}) }, t("rematch_decline")));
    if (mine.answer === "accept" && rows.some((r) => r.answer === "waiting")) {
      controls.push(h("button.ghost", { type: "button", "data-testid": "rematch-now", onclick: () => answer("accept", { declined: choice.value, now: true }) }, t("rematch_start_now")));
    }
  }
  return h(
    "div.rematch",
    { "data-testid": "rematch" },
    h("h3", {}, t("rematch")),
    h("p.small", {}, next ? t("rematch_started") : declined === "open" ? t("rematch_help_open") : t("rematch_help_bot")),
    list,
    h("div.actions", {}, controls),
  );
}

// The plain board (docs/ui.md, Boards): the shell's board for a game whose plugin brings
// no board module of its own. It shows the seats, the seat's State as it is (every field,
// as text: nothing from the data ever becomes markup) and each of State.legal as a button
// that sends that action. Clumsy, but every game can be played and replayed with it.
// A game's board module has the same shape: mount() for the table, replay() for the replay.

import { h } from "./ui.js";

/** Fields the page shows elsewhere (seats, actions), left out of the State shown. */
const SHOWN_ELSEWHERE = new Set(["legal", "names", "seat"]);

function seatCount(state) {
  return (Array.isArray(state.names) && state.names.length) || state.players || 0;
}

/** A JSON value as nested lists of text: objects as terms and values, lists as lists. */
export function valueEl(value) {
  if (value === null || value === undefined) return h("span.plain-none", {}, "–");
  if (Array.isArray(value)) {
    if (!value.length) return h("span.plain-none", {}, "–");
    if (value.every((v) => v === null || typeof v !== "object")) return h("span", {}, value.map((v) => (v === null ? "–" : String(v))).join(", "));
    return h("ol.plain-list", {}, value.map((v) => h("li", {}, valueEl(v))));
  }
  if (typeof value === "object") {
    const entries = Object.entries(value);
    if (!entries.length) return h("span.plain-none", {}, "–");
    return h("dl.plain-fields", {}, entries.flatMap(([key, v]) => [h("dt", {}, key), h("dd", {}, valueEl(v))]));
  }
  return h("span", {}, String(value));
}

/** The board of the table page: seats, the actions to choose from, the State. */
export function mount(element, ctx) {
  let over = false;
  let buttons = [];

  function seats(state) {
    const list = [];
    for (let seat = 0; seat < seatCount(state); seat++) {
      const toMove = state.to_move === seat && !over;
      const badges = ctx.seatBadges(seat);
      if (toMove) badges.push(h("span.badge.turn", { title: ctx.t("to_move") }, ctx.t("to_move")));
      list.push(
        h(
          "article.player",
          { class: [toMove ? "to-move" : "", seat === ctx.seat ? "me" : ""].join(" ").trim(), "data-seat": String(seat), "aria-current": toMove ? "true" : null },
          h("div.player-head", {}, ctx.seatHead(seat)),
          h("div.badges", {}, badges),
        ),
      );
    }
    return h("section.players.plain-seats", { "aria-label": ctx.t("players") }, list);
  }

  function actions(state) {
    if (ctx.handedToBot()) return h("div.plain-actions", {}, ctx.takeBackButton());
    const legal = state.legal || [];
    buttons = legal.map((text) => h("button.secondary.plain-action", { type: "button", "data-action": text, disabled: !ctx.canAct(), onclick: () => ctx.act(text) }, text));
    if (!buttons.length) return null;
    return h(
      "section.panel.plain-actions",
      { "aria-label": ctx.t("plain_actions"), "data-testid": "plain-actions" },
      h("h2", {}, ctx.t("plain_actions")),
      h("div.plain-buttons", {}, buttons),
      ctx.hint(null) || "",
    );
  }

  function fields(state) {
    const shown = Object.entries(state).filter(([key]) => !SHOWN_ELSEWHERE.has(key));
    return h(
      "section.panel.plain-state",
      { "aria-label": ctx.t("plain_state"), "data-testid": "plain-state" },
      h("h2", {}, ctx.t("plain_state")),
      valueEl(Object.fromEntries(shown)),
    );
  }

  return {
    update(state, info) {
      const ended = info.over && !over;
      over = info.over;
      element.replaceChildren(h("div.plain-board", {}, seats(state), actions(state), fields(state)));
      if (ended) ctx.sound("game");
      else if (info.fresh.length) ctx.sound("play");
    },
    refresh() {
      for (const button of buttons) button.disabled = !ctx.canAct();
    },
    destroy() {
      element.replaceChildren();
    },
  };
}

/** The replay: the record's actions (each [seat, text], or the text alone), one step per
 * action after the start; the shell shows them in its log and the result at the end. */
export function replay(record, ctx) {
  const actions = (Array.isArray(record.actions) ? record.actions : []).map((a) =>
    Array.isArray(a) && a.length === 2 ? { seat: Number.isInteger(a[0]) ? a[0] : null, text: String(a[1]) } : { seat: null, text: String(a) },
  );
  const steps = [{ action: null, note: ctx.t("plain_start") }, ...actions.map((a, number) => ({ action: { ...a, number } }))];
  return {
    steps,
    draw(index) {
      const step = steps[index];
      const who = step.action && step.action.seat !== null ? [h("b", {}, ctx.nameOf(step.action.seat)), " "] : [];
      const line = step.action ? [...who, h("code", {}, step.action.text)] : step.note;
      return h(
        "section.panel.plain-step",
        { "data-testid": "plain-step" },
        h("p", {}, ctx.t("plain_move", { i: index, n: steps.length - 1 })),
        h("p", {}, line),
      );
    },
  };
}

// Take-away's board: the pile, my hidden hand, one button per legal take. Written for the
// tests alone: it proves a game outside the project brings its own board to the table page.
import { h } from "/static/js/ui.js";

export function mount(element, ctx) {
  return {
    update(state) {
      const hand = state.hand === null ? [] : [h("p", { "data-testid": "ta-hand" }, ctx.t("ta.hand", { numbers: state.hand.join(", ") }))];
      const takes = state.legal.map((text) =>
        h("button", { type: "button", class: "ta-take", "data-testid": "ta-take", disabled: !ctx.canAct(), onclick: () => ctx.act(text) }, text),
      );
      element.replaceChildren(
        h("div", { class: "ta-board", "data-testid": "ta-board" },
          h("p", { class: "ta-pile", "data-testid": "ta-pile" }, ctx.t("ta.pile", { n: state.pile })),
          ...hand,
          h("div", { class: "ta-takes" }, ...takes),
        ),
      );
    },
    destroy() {
      element.replaceChildren();
    },
  };
}

export function replay(record, ctx) {
  const steps = [{ action: null, note: ctx.t("ta.start") }].concat(
    record.actions.map((text, number) => ({ action: { seat: number % 2, text, number }, note: text })),
  );
  return {
    steps,
    draw(index) {
      return [h("p", { "data-testid": "ta-step" }, steps[index].note)];
    },
  };
}

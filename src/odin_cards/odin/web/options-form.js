// Odin's part of the lobby's create form (optionsForm of its board; docs/ui.md, Boards):
// the target (10, 15, 20 points, one hand or a custom number from 1 to 100) and, folded
// under "Rule options", who leads a new hand, the first leader, four colours (two players
// only) and the Grumpy Goat. The shell draws the rest of the form (players, seats,
// visibility, chat, hints, rated, clock) and sends what options() answers as the table's
// options.

import { h } from "/static/js/ui.js";

/** The form's fields, kept while the lobby shows Odin (a redraw keeps what was chosen). */
export function optionsForm(context) {
  const { t, field, segmented, redraw } = context;
  const form = {
    target: "15",
    custom: 12,
    nextLeader: "rotate",
    firstLeader: "",
    fourColours: false,
    goat: false,
    rulesOpen: false,
  };

  function draw(players) {
    if (players !== 2) form.fourColours = false;
    if (form.firstLeader !== "" && Number(form.firstLeader) >= players) form.firstLeader = "";
    const custom = h("input", {
      type: "number",
      id: "custom-target",
      min: "1",
      max: "100",
      value: String(form.custom),
      "aria-label": t("custom_target"),
      hidden: form.target !== "custom",
    });
    custom.addEventListener("input", () => (form.custom = Number(custom.value)));
    const firstLeader = h("select", { id: "first-leader", "aria-label": t("first_leader") });
    firstLeader.append(new Option(t("first_leader_random"), ""));
    for (let seat = 0; seat < players; seat++) firstLeader.append(new Option(t("seat_n", { n: seat + 1 }), String(seat)));
    firstLeader.value = form.firstLeader;
    firstLeader.addEventListener("change", () => (form.firstLeader = firstLeader.value));
    const four = h("input", { type: "checkbox", id: "four-colours", checked: form.fourColours, disabled: players !== 2 });
    four.addEventListener("change", () => (form.fourColours = four.checked));
    const goat = h("input", { type: "checkbox", id: "goat", checked: form.goat });
    goat.addEventListener("change", () => (form.goat = goat.checked));
    const targets = [
      ["10", "10"],
      ["15", "15"],
      ["20", "20"],
      ["one", t("one_hand")],
      ["custom", t("custom")],
    ];
    return [
      field(
        "target",
        h(
          "div.target-row",
          {},
          segmented("target", targets, form.target, (v) => ((form.target = v), redraw())),
          custom,
        ),
      ),
      h(
        "details.rules",
        { open: form.rulesOpen, ontoggle: (e) => (form.rulesOpen = e.currentTarget.open) },
        h("summary", {}, t("rule_options")),
        field(
          "next_leader",
          segmented(
            "next_leader",
            [
              ["rotate", t("next_leader_rotate")],
              ["winner", t("next_leader_winner")],
            ],
            form.nextLeader,
            (v) => ((form.nextLeader = v), redraw()),
          ),
        ),
        field("first_leader", firstLeader),
        h("label.check", {}, four, h("span", {}, t("four_colours_option")), h("span.help", {}, t("four_colours_help"))),
        h("label.check", {}, goat, h("span", {}, t("goat_option")), h("span.help", {}, t("goat_help"))),
      ),
    ];
  }

  /** The table's options, or an Error saying what is wrong (a target out of range). */
  function options(players) {
    const oneHand = form.target === "one";
    const target = form.target === "custom" ? Math.floor(form.custom) : oneHand ? 15 : Number(form.target);
    if (!Number.isFinite(target) || target < 1 || target > 100) throw new Error(t("bad_target"));
    return {
      target,
      one_hand: oneHand,
      next_leader: form.nextLeader,
      first_leader: form.firstLeader === "" ? null : Number(form.firstLeader),
      colours: players === 2 && form.fourColours ? 4 : 6,
      goat: form.goat,
    };
  }

  return { draw, options };
}

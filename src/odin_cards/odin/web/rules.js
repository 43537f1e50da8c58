// Odin's rules page, /games/odin/rules (a game's page, docs/ui.md): the rules in short, then
// worked examples drawn with real cards (a set's value, beating with one card more, the
// take, the finishing lead, the Grumpy Goat), in the page's language. The rules in short
// are also the lobby's "How to play" (summary).

import { t } from "/static/js/i18n.js";
import { clear, h } from "/static/js/ui.js";
import { cardRow } from "./card-view.js";

const EXAMPLES = [
  // [title key, text key, rows of [label key | null, cards]]
  ["help_value_title", "help_value_text", [[null, ["B2", "B8"]], [null, ["K5", "O5", "G5"]]]],
  ["help_beat_title", "help_beat_text", [["help_on_table", ["R7"]], ["help_beats_it", ["P9"]], ["help_beats_it", ["B3", "B6"]]]],
  ["help_take_title", "help_take_text", [["help_on_table", ["K4", "K2"]], ["help_beats_it", ["G5", "G1"]], ["help_taken", ["K4"]]]],
  ["help_finish_title", "help_finish_text", [["help_your_hand", ["O2", "O5", "O8"]]]],
  ["help_goat_title", "help_goat_text", [[null, ["X0", "B3", "B6"]]]],
];

function rulesInShort(tag) {
  return h(tag, {}, [1, 2, 3, 4, 5, 6].map((i) => h("li", {}, t(`rules_${i}`))));
}

/** The lobby's "How to play": the rules in short, the tutorial and the worked examples. */
export function summary(context) {
  return [
    rulesInShort("ol"),
    h("p", {}, h("a", { href: context.page("tutorial") }, t("tutorial_link")), " · ", h("a", { href: context.page("rules") }, t("help_examples"))),
  ];
}

/** The page, drawn into `main`. */
export function start(main, context) {
  document.title = `${t("rules_title")} · Odin`;
  clear(main).append(
    h(
      "article.panel.help-page",
      {},
      h("h1", {}, t("rules_title")),
      rulesInShort("ol.rules-list"),
      h("h2", {}, t("help_examples")),
      EXAMPLES.map(([title, text, rows]) =>
        h(
          "section.example",
          { "data-testid": "example" },
          h("h3", {}, t(title)),
          rows.map(([label, cards]) => h("div.example-row", {}, label ? h("span.example-label", {}, t(label)) : null, cardRow(cards, "md"))),
          h("p", {}, t(text)),
        ),
      ),
      h(
        "p.actions",
        {},
        h("a.button.primary", { href: context.page("tutorial"), "data-testid": "tutorial-link" }, t("tutorial_link")),
        h("a.button.secondary", { href: "/" }, t("back_home")),
      ),
    ),
  );
}

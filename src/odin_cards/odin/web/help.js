// The rules page, /static/help.html (Odin's page): the rules in short, then worked examples
// drawn with real cards (a set's value, beating with one card more, the take, the finishing
// lead, the Grumpy Goat), in the page's language.

import { initI18n, t } from "/static/js/i18n.js";
import { loadOwnWords } from "./words.js";
import { clear, h, setupHeader } from "/static/js/ui.js";
import { cardRow } from "./card-view.js";

const EXAMPLES = [
  // [title key, text key, rows of [label key | null, cards]]
  ["help_value_title", "help_value_text", [[null, ["B2", "B8"]], [null, ["K5", "O5", "G5"]]]],
  ["help_beat_title", "help_beat_text", [["help_on_table", ["R7"]], ["help_beats_it", ["P9"]], ["help_beats_it", ["B3", "B6"]]]],
  ["help_take_title", "help_take_text", [["help_on_table", ["K4", "K2"]], ["help_beats_it", ["G5", "G1"]], ["help_taken", ["K4"]]]],
  ["help_finish_title", "help_finish_text", [["help_your_hand", ["O2", "O5", "O8"]]]],
  ["help_goat_title", "help_goat_text", [[null, ["X0", "B3", "B6"]]]],
];

async function start() {
  await initI18n();
  await loadOwnWords();
  setupHeader();
  document.title = `${t("rules_title")} · Odin`;
  const main = document.getElementById("main");
  clear(main).append(
    h(
      "article.panel.help-page",
      {},
      h("h1", {}, t("rules_title")),
      h("ol.rules-list", {}, [1, 2, 3, 4, 5, 6].map((i) => h("li", {}, t(`rules_${i}`)))),
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
        h("a.button.primary", { href: "/static/tutorial.html", "data-testid": "tutorial-link" }, t("tutorial_link")),
        h("a.button.secondary", { href: "/" }, t("back_home")),
      ),
    ),
  );
}

start();

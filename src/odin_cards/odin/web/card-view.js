// Odin's cards drawn: a card (a button in the hand, an image elsewhere), a row of cards, the
// backs of a hand. The colour is shown three ways: fill, shape symbol and the label, so
// that colour is never the only cue.

import { t } from "/static/js/i18n.js";
import { h } from "/static/js/ui.js";
import { parseCard, shapeSvg } from "./cards.js";

export const COLOUR_KEYS = { B: "blue", R: "red", P: "pink", G: "green", K: "black", O: "orange", X: "goat" };

/** A card's name for screen readers and titles: "blue 7", "Grumpy Goat (0)". */
export function cardLabel(text) {
  const { colour, number } = parseCard(text);
  if (colour === "X") return t("goat_card");
  return t("card_label", { colour: t(`colour_${COLOUR_KEYS[colour]}`), number });
}

/**
 * A card. Options: size ("xs", "sm", "md", "lg"), button (a toggle button with
 * aria-pressed), selected, onclick.
 */
export function cardEl(text, { size = "md", button = false, selected = false, onclick = null } = {}) {
  const { colour, number } = parseCard(text);
  const cls = `card.card-${size}.c-${colour}`;
  const label = cardLabel(text);
  const el = button
    ? h(`button.${cls}`, { type: "button", "aria-pressed": selected ? "true" : "false", "aria-label": label, title: label, onclick })
    : h(`span.${cls}`, { role: "img", "aria-label": label, title: label });
  el.dataset.card = text;
  el.append(
    h("span.corner.top", {}, shapeSvg(colour)),
    h("span.num", { "aria-hidden": "true" }, String(number)),
    h("span.corner.bottom", {}, shapeSvg(colour)),
  );
  if (selected) el.classList.add("selected");
  return el;
}

/** A row of cards (a set on the table, known cards...). */
export function cardRow(cards, size = "sm") {
  return h("span.card-row", {}, cards.map((c) => cardEl(c, { size })));
}

/** Face-down card backs for a hand size (capped, with the count beside). */
export function backsEl(count) {
  const shown = Math.min(count, 9);
  const backs = [];
  for (let i = 0; i < shown; i++) backs.push(h("span.back", { "aria-hidden": "true" }));
  return h("span.backs", { title: t("cards_in_hand", { n: count }) }, backs, h("span.count", {}, t("cards_in_hand", { n: count })));
}

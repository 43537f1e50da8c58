// Cards, sets and values on the client: the same rules as odin_cards.odin.rules.sets, used
// only to explain a selection live. The server stays the authority (State.legal).

export const COLOURS = "BRPGKO";
export const GOAT = "X0";

/** Per-colour shape, so that colour is never the only cue (colour-blind players). */
export const SHAPES = { B: "circle", R: "triangle", P: "diamond", G: "square", K: "star", O: "cross", X: "goat" };

/** Card text ("B7") to its parts; the Goat "X0" has colour "X" and number 0. */
export function parseCard(text) {
  return { text, colour: text[0], number: Number(text.slice(1)) };
}

/** Canonical order (the engine's): the Goat first, then colour order, then number. */
export function canonicalKey(text) {
  if (text === GOAT) return -1;
  return COLOURS.indexOf(text[0]) * 9 + Number(text.slice(1)) - 1;
}

/** Number order: by number, then colour; the Goat (0) first. */
export function numberKey(text) {
  if (text === GOAT) return -1;
  return (Number(text.slice(1)) - 1) * 6 + COLOURS.indexOf(text[0]);
}

export function sortCards(cards, by = "colour") {
  const key = by === "number" ? numberKey : canonicalKey;
  return [...cards].sort((a, b) => key(a) - key(b));
}

/** The value of a set: its digits sorted from high to low (B2 B8 -> 82). */
export function setValue(cards) {
  if (!cards.length) return 0;
  const digits = cards.map((c) => Number(c.slice(1))).sort((a, b) => b - a);
  return Number(digits.join(""));
}

/** Why these cards are not a set (a message key), or null when they are one. */
export function setProblem(cards) {
  if (!cards.length) return "empty";
  if (cards.length === 1) return null;
  const plain = cards.filter((c) => c !== GOAT);
  const colours = new Set(plain.map((c) => c[0]));
  const numbers = new Set(plain.map((c) => c.slice(1)));
  if (colours.size === 1) return null;
  const goat = plain.length !== cards.length;
  if (!goat && numbers.size === 1) return null;
  if (goat && numbers.size === 1) return "goat_number_set";
  return "not_a_set";
}

/** Whole hand all one colour (the Goat joins any colour) or all one number: a finishing lead. */
export function isFinishingLead(hand) {
  return hand.length > 1 && setProblem(hand) === null;
}

/** The canonical action text for playing these cards. */
export function playText(cards) {
  return "play " + sortCards(cards).join(" ");
}

/** Canonical form of any action text, so that card order never matters when comparing. */
export function normalizeAction(text) {
  const words = text.trim().split(/\s+/);
  const verb = words[0].toLowerCase();
  if (verb === "pass") return "pass";
  return [verb, ...sortCards(words.slice(1).map((w) => w.toUpperCase()))].join(" ");
}

/** Cards named by a play or take action text. */
export function actionCards(text) {
  return text.trim().split(/\s+/).slice(1);
}

/**
 * Judge a selection against the position: returns {value, status, params} where status
 * is a message key: "lead_ok", "finish_ok", "lead_one", "beats", "too_low", "size",
 * "goat_number_set", "not_a_set", "empty".
 */
export function judgeSelection(selection, { decision, hand, tableCards, tableValue }) {
  const value = setValue(selection);
  const problem = setProblem(selection);
  if (problem) return { value, status: problem, params: {} };
  if (decision === "lead" || !tableCards || !tableCards.length) {
    if (selection.length === 1) return { value, status: "lead_ok", params: { value } };
    if (hand && selection.length === hand.length && isFinishingLead(hand)) {
      return { value, status: "finish_ok", params: { value } };
    }
    return { value, status: "lead_one", params: { value } };
  }
  const k = tableCards.length;
  if (selection.length !== k && selection.length !== k + 1) {
    return { value, status: "size", params: { value, k, k1: k + 1 } };
  }
  if (value <= tableValue) return { value, status: "too_low", params: { value, table: tableValue } };
  return { value, status: "beats", params: { value, table: tableValue } };
}

const SVG_NS = "http://www.w3.org/2000/svg";

const SHAPE_PATHS = {
  circle: '<circle cx="12" cy="12" r="9"/>',
  triangle: '<path d="M12 2.5 22 20.5H2z"/>',
  diamond: '<path d="M12 1.5 22.5 12 12 22.5 1.5 12z"/>',
  square: '<rect x="3.5" y="3.5" width="17" height="17" rx="1.5"/>',
  star: '<path d="m12 1.8 3 6.6 7.2.8-5.4 4.9 1.5 7.1L12 17.6l-6.3 3.6 1.5-7.1L1.8 9.2 9 8.4z"/>',
  cross: '<path d="M8.5 2h7v6.5H22v7h-6.5V22h-7v-6.5H2v-7h6.5z"/>',
  goat:
    '<path d="M5 3c-1 3 0 6 3 7-1 1-2 3-2 5 0 4 3 7 6 7s6-3 6-7c0-2-1-4-2-5 3-1 4-4 3-7-1 2-3 4-5 4h-4C8 7 6 5 5 3z"/>' +
    '<circle cx="9.5" cy="14" r="1.2" fill="#fff"/><circle cx="14.5" cy="14" r="1.2" fill="#fff"/>',
};

/** An inline SVG of a colour's shape (aria-hidden: the card's label names the colour). */
export function shapeSvg(colour, cls = "shape") {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", cls);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.innerHTML = SHAPE_PATHS[SHAPES[colour]] || SHAPE_PATHS.circle;
  return svg;
}

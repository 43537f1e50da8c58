// Odin's words on Odin's own pages (the rules, the tutorial): the shell's words are loaded
// by initI18n; these come from this package's i18n/ folder. (On the table and replay pages
// the shell loads them before the board.)

import { addWords, LANGUAGES } from "/static/js/i18n.js";

/** Add Odin's words (every language the pages offer) to the page's. */
export function loadOwnWords() {
  return addWords(new URL("./i18n/", import.meta.url).pathname, Object.keys(LANGUAGES));
}

// Which board draws a table's game, and loading it (docs/ui.md, Boards). A game whose
// plugin names a web package has its board module there, served under /games/{key}/ with
// its stylesheet, its words and its own pages (its rules, a tutorial); any other game is
// drawn by the shell's plain board (plain-board.js). Every page lists the games that bring
// a board in <meta name="odin-boards"> ({key: {css, words, pages}}, in the server's order
// of games), so nothing is asked for that is not there.

import { addWords, t } from "./i18n.js";

/** The games with a board of their own, as the page lists them. */
export function boardsListed() {
  const meta = document.querySelector('meta[name="odin-boards"]');
  try {
    const boards = JSON.parse(meta ? meta.content : "{}");
    return boards && typeof boards === "object" ? boards : {};
  } catch {
    return {};
  }
}

/** The address of the game `key`'s own page `page` ("rules", "tutorial"), or null when
 * the game has none. */
export function gamePage(key, page) {
  const own = boardOf(key);
  return own && Array.isArray(own.pages) && own.pages.includes(page) ? `/games/${encodeURIComponent(key)}/${page}` : null;
}

/** What a game's page module may use (docs/ui.md, A game's pages; also given to its rules
 * module's summary in the lobby): the game's key, the page's words, and the address of
 * one of the game's pages (null when it has none). */
export function pageContext(key) {
  return Object.freeze({ game: key, t, page: (name) => gamePage(key, name) });
}

function boardOf(key) {
  const boards = boardsListed();
  return typeof key === "string" && Object.hasOwn(boards, key) ? boards[key] : null;
}

const sheets = new Map();

/** A stylesheet of a board, before the theme's (which must come last: dark colours);
 * once per page. */
function stylesheet(href) {
  if (!sheets.has(href)) sheets.set(href, newStylesheet(href));
  return sheets.get(href);
}

function newStylesheet(href) {
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    // A missing sheet must not keep the page from starting: the board is drawn unstyled.
    link.onload = link.onerror = () => resolve();
    const theme = document.querySelector('link[rel="stylesheet"][href="/static/css/theme.css"]');
    if (theme) theme.before(link);
    else document.head.append(link);
  });
}

/**
 * The board module of the game `key`, once its stylesheet and words are loaded (so that
 * its first drawing is styled and translated); the plain board for a game without one.
 */
export async function loadBoard(key) {
  const own = boardOf(key);
  if (!own) return import("./plain-board.js");
  const base = `/games/${encodeURIComponent(key)}/`;
  await Promise.all([own.css ? stylesheet(`${base}board.css`) : null, loadWords(key)]);
  return import(`${base}board.js`);
}

const wordsLoaded = new Map();

/** Add the words of the game `key`'s board to the page's (once); resolves to the game's
 * own words (addWords; {} for a game without a board). */
export function loadWords(key) {
  const own = boardOf(key);
  if (!own) return Promise.resolve({});
  if (!wordsLoaded.has(key)) wordsLoaded.set(key, addWords(`/games/${encodeURIComponent(key)}/i18n/`, own.words || []));
  return wordsLoaded.get(key);
}

// Which board draws a table's game, and loading it (docs/ui.md, Boards). A game whose
// plugin names a web package has its board module there, served under /games/{key}/ with
// its stylesheet and its words; any other game is drawn by the shell's plain board
// (plain-board.js). The table and replay pages list the games that bring a board in
// <meta name="odin-boards"> ({key: {css, words}}), so nothing is asked for that is not there.

import { addWords } from "./i18n.js";

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

/** A stylesheet of a board, before the theme's (which must come last: dark colours). */
function stylesheet(href) {
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
  const boards = boardsListed();
  const own = typeof key === "string" && Object.hasOwn(boards, key) ? boards[key] : null;
  if (!own) return import("./plain-board.js");
  const base = `/games/${encodeURIComponent(key)}/`;
  await Promise.all([own.css ? stylesheet(`${base}board.css`) : null, addWords(`${base}i18n/`, own.words || [])]);
  return import(`${base}board.js`);
}

// The lobby's games and the one chosen (docs/ui.md, Lobby): every game of the server, from
// GET /api/games in its order; the first is chosen by default and the last choice is
// remembered in localStorage ("odin.game"). The create form and the open tables
// (home.js) and Play now (playnow.js) follow the choice: both ask this one module, so
// they always agree on the game.
//
// A game is named, summed up and its Play now presets labelled in its own words where its
// board brings them (`name`, `summary`, `preset` for the presets' field, `preset.<key>`),
// else in the server's English.

import { loadBoard, loadWords } from "./boards.js";

const KEY = "odin.game";
let listed = null; // the promise of the games
let chosen = null; // the chosen game's key, once the page chose
const watchers = [];

/** The server's games (none when it cannot be asked). */
export function lobbyGames() {
  if (!listed) {
    listed = fetch("/api/games", { headers: { Accept: "application/json" } })
      .then((answer) => (answer.ok ? answer.json() : { games: [] }))
      .then((answer) => (Array.isArray(answer.games) ? answer.games : []))
      .catch(() => []);
  }
  return listed;
}

function remembered() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** The chosen game ({key, name, players, levels, play_now, rated, board, ...}), or null
 * when the server offers none. */
export async function chosenGame() {
  const games = await lobbyGames();
  const key = chosen ?? remembered();
  return games.find((game) => game.key === key) || games[0] || null;
}

/** Choose the game `key` (remembered); every watcher hears of it. */
export async function chooseGame(key) {
  chosen = key;
  try {
    localStorage.setItem(KEY, key);
  } catch {
    // A browser that keeps nothing still plays the game chosen on this page.
  }
  const game = await chosenGame();
  for (const watcher of watchers) watcher(game);
}

/** Call `watcher(game)` whenever another game is chosen. */
export function onGameChosen(watcher) {
  watchers.push(watcher);
}

/** The game's own words ({} for a game without a board), and its board module (the plain
 * board's for a game without one), loaded once with its stylesheet. */
export async function gameParts(game) {
  const [words, module] = await Promise.all([loadWords(game.key), loadBoard(game.key)]);
  return { words, module };
}

/** The game's name in the page's language. */
export function gameName(game, words) {
  return (words && words.name) || game.name;
}

/** A Play now preset's label in the page's language. */
export function presetName(preset, words) {
  return (words && words[`preset.${preset.key}`]) || preset.name;
}

// A game's own page, /games/{key}/{page} (templates/game-page.html; docs/ui.md, A game's
// pages): its rules, its tutorial. The shell chooses the language, adds the game's words,
// draws the header (its Rules link goes to this game's rules) and hands <main> to the
// page's module, {page}.js of the game's web package, through its start(main, context).

import { loadWords, pageContext } from "./boards.js";
import { initI18n, t } from "./i18n.js";
import { clear, h, setupHeader } from "./ui.js";

function meta(name) {
  const element = document.querySelector(`meta[name="${name}"]`);
  return element ? element.content : "";
}

async function start() {
  const game = meta("odin-game");
  const page = meta("odin-game-page");
  await initI18n();
  await loadWords(game);
  setupHeader([], game);
  const main = document.getElementById("main");
  try {
    const module = await import(`/games/${encodeURIComponent(game)}/${page}.js`);
    await module.start(main, pageContext(game));
  } catch (error) {
    const message = t("load_failed", { message: String((error && error.message) || error) });
    clear(main).append(
      h("section.panel.fatal", { role: "alert" }, h("h1", {}, t("oops")), h("p", {}, message), h("p", {}, h("a.button", { href: "/" }, t("back_home")))),
    );
  }
}

start();

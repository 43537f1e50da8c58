// Small DOM helpers shared by the pages, and by the games' boards (docs/ui.md, Boards):
// the element builder, toasts, the header, bot levels and seat names, icons.

import { boardsListed, gamePage } from "./boards.js";
import { languageMenu, t, translatePage } from "./i18n.js";
import { applyLook, loadPrefs } from "./prefs.js";

/** h("div.card.red", {attrs}, ...children): a tiny element builder. */
export function h(tag, attrs = {}, ...children) {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className += (el.className ? " " : "") + value;
    else if (key === "text") el.textContent = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

let toastTimer = null;

/** A short message at the bottom of the screen; kind "error" stays longer. */
export function toast(message, kind = "info") {
  let box = document.getElementById("toast");
  if (!box) {
    box = h("div.toast", { id: "toast", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  box.textContent = message;
  box.className = `toast show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove("show"), kind === "error" ? 7000 : 3000);
}

/**
 * The page header: brand link, optional extra nodes, the rules of `game` (rulesOf),
 * language menu; then translate.
 */
export function setupHeader(extra = [], game = null) {
  applyLook(loadPrefs());
  const header = document.querySelector("header.top");
  if (header) {
    const slot = header.querySelector(".header-extra");
    if (slot) slot.append(...extra);
    const lang = header.querySelector(".header-lang");
    if (lang && !header.querySelector(".help-link")) {
      lang.before(h("a.help-link", { "data-testid": "help-link" }, t("help_link")));
    }
    rulesOf(game);
    languageMenu(header.querySelector(".header-lang") || header);
  }
  translatePage();
}

/**
 * The header's Rules link, one click away on every page: the rules page of `game` (the
 * lobby's chosen game, a table's game), or without one the first game's that has rules;
 * hidden for a game without a rules page.
 */
export function rulesOf(game = null) {
  const link = document.querySelector("header.top .help-link");
  if (!link) return;
  const first = Object.keys(boardsListed()).find((key) => gamePage(key, "rules"));
  const href = gamePage(game === null ? first : game, "rules");
  link.hidden = !href;
  if (href) link.href = href;
  else link.removeAttribute("href");
}

const levelNames = {};
const levelDescriptions = {};

/**
 * Remember one game's bot levels (from GET /api/levels or /api/games) for seatName and the
 * lobby, in the page's language: the game's own words `level.<key>` and `level.<key>.desc`
 * (`words`: what loadWords answers for that game) where it has them, else the server's
 * English (a game without words, a level not translated yet). Levels are a game's: two
 * games may both have a "random" level, described differently.
 */
export function setLevels(levels, words = {}) {
  for (const key of Object.keys(levelNames)) delete levelNames[key];
  for (const key of Object.keys(levelDescriptions)) delete levelDescriptions[key];
  for (const level of levels || []) {
    levelNames[level.key] = words[`level.${level.key}`] || level.name;
    levelDescriptions[level.key] = words[`level.${level.key}.desc`] || level.description;
  }
}

/** A bot level's description in the page's language (or the server's English). */
export function levelDescription(key) {
  return levelDescriptions[key] || "";
}

const ICONS = {
  first: "M6 5h2v14H6zM20 5v14L9 12z",
  prev: "M18 5v14L7 12z",
  next: "M6 5v14l11-7z",
  last: "M16 5h2v14h-2zM4 5v14l11-7z",
};

/** A small inline SVG icon (first, prev, next, last); the button carries the label. */
export function icon(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "icon");
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML = `<path d="${ICONS[name]}"/>`;
  return svg;
}

function baseName(seat, names, table) {
  const info = table && table.seats && table.seats[seat];
  // Bots are named in the page's language ("Random bot", "Bot Random").
  if (info && info.bot) return t("bot_name", { level: levelNames[info.bot] || info.bot, n: seat + 1 });
  const name = names && names[seat];
  if (name) return name;
  if (info && info.name) return info.name;
  return t("seat_n", { n: seat + 1 });
}

/**
 * A seat's display name: the player's name, the bot level, or "Seat n". Names that
 * occur twice at the table (two "Random bot"s, two Annas) get the seat number added.
 */
export function seatName(seat, names, table) {
  const name = baseName(seat, names, table);
  const count = (names && names.length) || (table && table.seats && table.seats.length) || 0;
  for (let other = 0; other < count; other++) {
    if (other !== seat && baseName(other, names, table) === name) return `${name} (${seat + 1})`;
  }
  return name;
}

/** A bot level's display name ("Random"), or its key when the levels are unknown. */
export function levelName(key) {
  return levelNames[key] || key;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

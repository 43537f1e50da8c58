// Translations: one JSON file per language in /static/i18n/ (the shell's words), to which
// a game's board adds its own (/games/{key}/i18n/, addWords). The language comes from the
// menu (remembered in localStorage), else the browser's preferences, else English. A
// missing key falls back to English, then to the key itself.

export const LANGUAGES = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  sv: "Svenska",
  ca: "Català",
};

const STORAGE_KEY = "odin.lang";
let current = "en";
let strings = {};
let english = {};

async function load(lang, base = "/static/i18n/") {
  const response = await fetch(`${base}${lang}.json`);
  if (!response.ok) throw new Error(`no translations for ${lang}`);
  return response.json();
}

/** The language to use: stored choice, then navigator.languages, then English. */
export function chooseLanguage() {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored && stored in LANGUAGES) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

let started = null;

/**
 * Load the shell's words for the page's language, once a page: every module of a page
 * (the table, friends, the account bar) awaits the same loading, so a later caller never
 * loads them again over the words a game's board has added meanwhile (addWords).
 */
export function initI18n() {
  if (!started) started = loadShellWords();
  return started;
}

async function loadShellWords() {
  current = chooseLanguage();
  english = await load("en");
  strings = current === "en" ? english : await load(current).catch(() => english);
  document.documentElement.lang = current;
  return current;
}

/**
 * Add a game's words (docs/ui.md, Boards): `${base}<lang>.json` for English and the
 * page's language, among the `languages` the game has. They never replace the shell's
 * (nor those of a game added before). Returns the game's own words in the page's language
 * (English where one is missing), for the words every game has (its name, its Play now
 * presets), which the lobby looks up game by game.
 */
export async function addWords(base, languages) {
  if (!languages.includes("en")) return {};
  const own = await load("en", base).catch(() => ({}));
  english = { ...own, ...english };
  if (current === "en") {
    strings = english;
    return { ...own };
  }
  const mine = languages.includes(current) ? await load(current, base).catch(() => ({})) : {};
  strings = { ...mine, ...strings };
  return { ...own, ...mine };
}

/** Choose a language from the menu: remember it and reload the page in it. */
export function setLanguage(lang) {
  localStorage.setItem(STORAGE_KEY, lang);
  location.reload();
}

/**
 * The text of `key` with {name} placeholders filled from `params`. With a numeric
 * `params.n`, the key `key_one` / `key_other` is chosen by the language's plural rules.
 */
export function t(key, params = {}) {
  let k = key;
  if (typeof params.n === "number") {
    const form = `${key}_${new Intl.PluralRules(current).select(params.n)}`;
    if (form in strings || form in english) k = form;
    else if (`${key}_other` in strings || `${key}_other` in english) k = `${key}_other`;
  }
  let text = strings[k] ?? english[k] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** Whether `key` has a text in the page's language or in English. */
export function hasText(key) {
  return key in strings || key in english;
}

/** Fill every element carrying data-i18n (text) or data-i18n-attr ("attr:key;..."). */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

/** The language menu: a labelled <select> inside `container`. */
export function languageMenu(container) {
  const label = document.createElement("label");
  label.className = "lang-menu";
  const span = document.createElement("span");
  span.className = "visually-hidden";
  span.textContent = t("language");
  const select = document.createElement("select");
  select.id = "language";
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = new Option(name, code, false, code === current);
    option.lang = code;
    select.append(option);
  }
  select.addEventListener("change", () => setLanguage(select.value));
  label.append(span, select);
  container.append(label);
  return select;
}

/**
 * The server's error explained in the page's language. The server's own messages and,
 * through `explain(message)` (the board's: null when it does not know the message), the
 * rules engine's common ones are translated; anything else is shown as the server said it.
 */
export function explainError(code, message, explain = null) {
  let detail = message || "";
  const turn = /^it is (.+)'s turn$/.exec(detail);
  const said = turn ? t("err_whose_turn", { name: turn[1] }) : explain ? explain(detail) : null;
  if (said) detail = said;
  const head = t(`error_${code}`);
  if (head === `error_${code}`) return detail || code;
  return detail && detail !== head ? `${head} ${detail}` : head;
}

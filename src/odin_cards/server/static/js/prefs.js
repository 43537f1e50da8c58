// The viewer's table preferences, remembered in localStorage ("odin.prefs"): motion speed,
// sound, look, and the board's own (Odin's automation), which the board checks itself.
// Anything of the shell's that is missing or malformed takes its default.

const KEY = "odin.prefs";

export const DEFAULTS = Object.freeze({
  motion: "normal", // "normal", "fast" or "off" (off by default under prefers-reduced-motion)
  sound: true,
  volume: 0.5, // 0 to 1
  theme: "auto", // "auto" (the system's), "light" or "dark"
  cardSize: "normal", // "small", "normal" or "large": the cards in my hand
});

const MOTIONS = ["normal", "fast", "off"];
const THEMES = ["auto", "light", "dark"];
const CARD_SIZES = ["small", "normal", "large"];

export function loadPrefs() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    saved = {};
  }
  const reduced = globalThis.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
  const prefs = { ...DEFAULTS, motion: reduced ? "off" : DEFAULTS.motion };
  // A board's preferences (simple values only) are kept for the board to read.
  for (const [key, value] of Object.entries(saved)) {
    if (!(key in DEFAULTS) && ["boolean", "number", "string"].includes(typeof value)) prefs[key] = value;
  }
  if (MOTIONS.includes(saved.motion)) prefs.motion = saved.motion;
  if (typeof saved.sound === "boolean") prefs.sound = saved.sound;
  if (typeof saved.volume === "number" && saved.volume >= 0 && saved.volume <= 1) prefs.volume = saved.volume;
  if (THEMES.includes(saved.theme)) prefs.theme = saved.theme;
  if (CARD_SIZES.includes(saved.cardSize)) prefs.cardSize = saved.cardSize;
  return prefs;
}

/** Show the page in the chosen theme and card size (html[data-theme], html[data-cards]). */
export function applyLook(prefs) {
  const dark = prefs.theme === "dark" || (prefs.theme === "auto" && globalThis.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
  document.documentElement.dataset.cards = prefs.cardSize;
}

export function savePrefs(prefs) {
  localStorage.setItem(KEY, JSON.stringify(prefs));
}

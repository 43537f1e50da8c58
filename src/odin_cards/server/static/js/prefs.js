// The viewer's table preferences, remembered in localStorage ("odin.prefs"): automation,
// motion speed and sound. Anything missing or malformed takes its default.

const KEY = "odin.prefs";

export const DEFAULTS = Object.freeze({
  autoPass: false, // pass by myself when nothing I hold beats the table
  autoTake: false, // take by myself when only one card can be taken
  motion: "normal", // "normal", "fast" or "off" (off by default under prefers-reduced-motion)
  sound: true,
  volume: 0.5, // 0 to 1
});

const MOTIONS = ["normal", "fast", "off"];

export function loadPrefs() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    saved = {};
  }
  const reduced = globalThis.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
  const prefs = { ...DEFAULTS, motion: reduced ? "off" : DEFAULTS.motion };
  if (typeof saved.autoPass === "boolean") prefs.autoPass = saved.autoPass;
  if (typeof saved.autoTake === "boolean") prefs.autoTake = saved.autoTake;
  if (MOTIONS.includes(saved.motion)) prefs.motion = saved.motion;
  if (typeof saved.sound === "boolean") prefs.sound = saved.sound;
  if (typeof saved.volume === "number" && saved.volume >= 0 && saved.volume <= 1) prefs.volume = saved.volume;
  return prefs;
}

export function savePrefs(prefs) {
  localStorage.setItem(KEY, JSON.stringify(prefs));
}

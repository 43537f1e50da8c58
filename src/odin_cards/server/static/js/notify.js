// Turn-based play: a player who looks elsewhere learns that the turn came to them.
// The tab title always says whose turn it is ("Your turn — Odin", "Bob's turn — Odin").
// A browser notification (Notification API) is shown when the turn comes to me while
// the page is hidden, only once I asked for it with the alerts button: the browser's
// permission is requested from that click and never otherwise. The turn sound (sound.js,
// the "sound" preference) plays too; the same click lets the page make sounds.
// Whether I want alerts is remembered in localStorage ("odin.notify"), like prefs.js.

import { t } from "./i18n.js";
import { h } from "./ui.js";

const KEY = "odin.notify";

/** The tab title for a game in play: whose turn it is; null when nobody is to move. */
export function turnTitle(st, mySeat, nameOf) {
  if (!st || st.outcome || st.to_move === null || st.to_move === undefined) return null;
  if (mySeat !== null && st.to_move === mySeat) return t("title_your_turn");
  return t("title_their_turn", { name: nameOf(st.to_move) });
}

function supported() {
  return typeof globalThis.Notification === "function";
}

export class TurnAlerts {
  constructor(tableId) {
    this.tableId = tableId;
    this.wanted = localStorage.getItem(KEY) === "on";
    this.wasMine = false; // whether it was my turn at the last update
    this.shown = []; // the notifications shown ({title, body}), for the tests and debugging
    this.note = null; // the notification on screen, closed when I come back
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden && this.note) {
        this.note.close();
        this.note = null;
      }
    });
  }

  /** Whether notifications will be shown: I asked for them and the browser allows them. */
  get on() {
    return supported() && this.wanted && Notification.permission === "granted";
  }

  /** Turn alerts on (asking the browser's permission: this runs from a click) or off. */
  async toggle() {
    if (this.on) {
      this.wanted = false;
    } else {
      const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      this.wanted = answer === "granted";
    }
    localStorage.setItem(KEY, this.wanted ? "on" : "off");
  }

  /**
   * After each update: when the turn has just come to me and the page is hidden, a
   * notification (if alerts are on) saying what to do (``describe()``: the turn banner's
   * words). One per turn, replaced by the next at the same table (same tag).
   */
  update(st, mySeat, describe) {
    const mine = Boolean(st) && !st.outcome && mySeat !== null && st.to_move === mySeat;
    const arrived = mine && !this.wasMine;
    this.wasMine = mine;
    if (!arrived || !document.hidden || !this.on) return;
    const title = t("notify_title");
    const body = describe();
    try {
      this.note = new Notification(title, { body, tag: `odin-turn-${this.tableId}`, icon: "/static/favicon.svg" });
    } catch {
      return; // some browsers allow notifications only from a service worker
    }
    this.note.onclick = () => {
      globalThis.focus();
      this.note.close();
    };
    this.shown.push({ title, body });
  }

  /** The alerts button for a seated player; null where the browser has no notifications. */
  button(onChange) {
    if (!supported()) return null;
    if (Notification.permission === "denied") {
      return h("button.ghost.alerts", { type: "button", disabled: true, title: t("alerts_blocked_help"), "data-testid": "alerts" }, t("alerts_blocked"));
    }
    return h(
      "button.ghost.alerts",
      {
        type: "button",
        "aria-pressed": this.on ? "true" : "false",
        title: t("alerts_help"),
        "data-testid": "alerts",
        onclick: async () => {
          await this.toggle();
          onChange();
        },
      },
      this.on ? t("alerts_on") : t("alerts_off"),
    );
  }
}

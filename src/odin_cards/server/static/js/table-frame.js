// The frame around a game at the table page (the shell's, table.js): the turn banner with
// my seat's tools, the board's place, and the side panel (a drawer on phones) with the
// board's tabs, the move log and the settings, the link to my seat on another device and
// the chat. Drawn again at every change; the board's element and the chat's are kept and
// put back, so that what they hold (a drawing to animate from, a line being typed) stays.

import { absoluteUrl, copyText } from "./api.js";
import { t } from "./i18n.js";
import { h, toast } from "./ui.js";

/**
 * The game's frame. `view`: {state, over, board, boardEl, banner, mine, seat, id, token,
 * wide, tools, sideTab, drawerOpen, prefs, events, notes, chatEl, nameOf, onTab(key),
 * onDrawer(open), onPref(name, value)}.
 */
export function gameFrame(view) {
  const drawerButton = h(
    "button.ghost.drawer-toggle",
    {
      type: "button",
      "aria-controls": "side",
      "aria-expanded": view.drawerOpen ? "true" : "false",
      "data-testid": "drawer-toggle",
      onclick: () => view.onDrawer(!view.drawerOpen),
    },
    t("scores_and_moves"),
  );
  // My seat's tools (turn alerts, leave): beside the turn on a wide screen; on a phone in the
  // drawer, so that the table still fits one screen.
  const head = h(
    "div.stage-head",
    {},
    h("div.turn-banner", { id: "turn", "data-testid": "turn", class: view.mine ? "mine" : "" }, view.banner),
    view.wide ? view.tools : null,
    drawerButton,
  );
  const stage = h("div.stage", {}, head, view.boardEl);
  const side = renderSide(view, view.wide ? null : h("div.side-tools", {}, view.tools));
  return h("div.game", { "data-testid": "game", class: view.drawerOpen ? "drawer-open" : "" }, stage, side);
}

/** The side panel (a drawer on phones): the board's tabs (scores...), the move log, the
 * settings; my seat's link; the chat. */
function renderSide(view, tools) {
  const st = view.state;
  const own = view.board.tabs ? view.board.tabs(st) : [];
  const tabs = [
    ...own.map((tab) => [tab.key, tab.label, tab.draw]),
    ["log", t("move_log"), () => renderLog(view)],
    ["settings", t("settings"), () => renderSettings(view)],
  ];
  const open = tabs.some(([key]) => key === view.sideTab) ? view.sideTab : tabs[0][0];
  const tablist = h(
    "div.side-tabs",
    { role: "tablist", "aria-label": t("scores_and_moves") },
    tabs.map(([key, label]) =>
      h(
        "button",
        {
          type: "button",
          role: "tab",
          id: `tab-${key}`,
          "aria-selected": open === key ? "true" : "false",
          "aria-controls": `panel-${key}`,
          tabindex: open === key ? "0" : "-1",
          "data-testid": `tab-${key}`,
          onclick: () => view.onTab(key),
        },
        label,
      ),
    ),
  );
  const panels = tabs.map(([key, , draw]) =>
    h("div.side-panel", { role: "tabpanel", id: `panel-${key}`, "aria-labelledby": `tab-${key}`, hidden: open !== key }, open === key ? draw() : null),
  );
  const meta = h(
    "div.game-meta",
    {},
    view.board.meta ? view.board.meta(st) : null,
    view.seat === null ? h("span.badge.watch", {}, t("watching")) : null,
  );
  const close = h("button.ghost.drawer-close", { type: "button", "aria-label": t("close"), onclick: () => view.onDrawer(false) }, "×");
  return h(
    "aside.side",
    { id: "side", "aria-label": t("scores_and_moves") },
    h("div.side-head", {}, meta, close),
    tools,
    tablist,
    panels,
    view.seat !== null && !view.over ? renderSeatLink(view) : null,
    view.chatEl, // the same element each time: what is being typed stays
  );
}

/** The viewer's preferences: the board's (e.g. automation), look, motion, sound
 * (remembered, prefs.js). */
function renderSettings(view) {
  const prefs = view.prefs;
  const check = (name, label) =>
    h(
      "label.check",
      {},
      h("input", { type: "checkbox", id: `pref-${name}`, "data-testid": `pref-${name}`, checked: prefs[name], onchange: (e) => view.onPref(name, e.target.checked) }),
      h("span", {}, label),
    );
  const choice = (name, label, values, prefix) =>
    h(
      "div.segmented",
      { role: "group", "aria-label": label },
      values.map((value) =>
        h(
          "button",
          { type: "button", "aria-pressed": prefs[name] === value ? "true" : "false", "data-testid": `${prefix}-${value}`, onclick: () => view.onPref(name, value) },
          t(`${prefix}_${value}`),
        ),
      ),
    );
  return h(
    "section.settings",
    { "aria-label": t("settings") },
    view.board.settings ? view.board.settings() : null,
    h("h3", {}, t("look")),
    choice("theme", t("theme"), ["auto", "light", "dark"], "theme"),
    choice("cardSize", t("card_size"), ["small", "normal", "large"], "cards"),
    h("h3", {}, t("motion")),
    choice("motion", t("motion"), ["normal", "fast", "off"], "motion"),
    h("h3", {}, t("sound")),
    check("sound", t("pref_sound")),
    h(
      "label.volume",
      {},
      h("span", {}, t("volume")),
      h("input", {
        type: "range",
        min: "0",
        max: "100",
        step: "5",
        value: String(Math.round(prefs.volume * 100)),
        "data-testid": "pref-volume",
        disabled: !prefs.sound,
        onchange: (e) => view.onPref("volume", Number(e.target.value) / 100),
      }),
    ),
  );
}

/**
 * A public event in plain words, for a game whose board does not say it: the seat's name,
 * the event's type and its other fields (text only: whatever the event holds is shown as
 * text, never as markup).
 */
export function eventText(e, nameOf) {
  const parts = [];
  if (Number.isInteger(e.seat)) parts.push(`${nameOf(e.seat)}:`);
  if (e.type !== undefined) parts.push(String(e.type));
  for (const [key, value] of Object.entries(e)) {
    if (key === "index" || key === "type" || key === "seat" || value === null || value === undefined) continue;
    parts.push(`${key} ${Array.isArray(value) ? value.join(" ") : typeof value === "object" ? JSON.stringify(value) : value}`);
  }
  return parts.join(" ");
}

/** The move log: each public event (in the board's words, else plain ones) and the lines
 * the board added (what automation did), kept scrolled to the latest. */
function renderLog(view) {
  const lines = [];
  view.events.forEach((e, i) => {
    lines.push(view.board.logLine ? view.board.logLine(e) : h("li", {}, eventText(e, view.nameOf)));
    for (const note of view.notes) if (note.after === i + 1) lines.push(h("li.log-auto", { "data-testid": "auto-note" }, note.text));
  });
  const list = h("ol.log", { "data-testid": "log" }, lines);
  requestAnimationFrame(() => {
    const panel = list.closest(".side-panel");
    if (panel) panel.scrollTop = panel.scrollHeight;
  });
  return list;
}

/** A private link that opens this seat on another device (the token in the fragment). */
function renderSeatLink(view) {
  const url = `${absoluteUrl(`/t/${encodeURIComponent(view.id)}`)}#seat=${encodeURIComponent(view.token)}`;
  return h(
    "details.panel.seat-link",
    {},
    h("summary", {}, t("other_device")),
    h("p.small", {}, t("other_device_help")),
    h(
      "button.secondary",
      { type: "button", "data-testid": "seat-link", onclick: async () => toast((await copyText(url)) ? t("copied") : t("copy_failed")) },
      t("copy_seat_link"),
    ),
  );
}

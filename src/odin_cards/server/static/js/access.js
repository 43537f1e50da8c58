// Who may find and change a waiting table (docs/api.md, "Table access"): the create
// form's visibility choice, the creator token this browser keeps for the tables it
// created, the creator's controls at a waiting table (cancel, lock or free a seat), and
// when a waiting table closes by itself.

import { api } from "./api.js";
import { explainError, t } from "./i18n.js";
import { h, toast } from "./ui.js";

const CREATED = "odin.created";

function readCreated() {
  try {
    const data = JSON.parse(localStorage.getItem(CREATED) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

/** Keep the creator token of a table this browser created (the server keeps only its hash). */
export function rememberCreator(tableId, token) {
  if (!token) return;
  const created = readCreated();
  created[tableId] = { token, saved: Date.now() };
  // Keep the newest 50: a token is only useful while its table waits.
  const newest = Object.entries(created).sort((a, b) => b[1].saved - a[1].saved).slice(0, 50);
  localStorage.setItem(CREATED, JSON.stringify(Object.fromEntries(newest)));
}

export function creatorToken(tableId) {
  const entry = readCreated()[tableId];
  return entry ? entry.token : null;
}

/** The create form's control: public (listed) or private (invite link only). */
export function visibilityField(value, onchange) {
  const choice = (key) =>
    h(
      "button",
      {
        type: "button",
        role: "radio",
        "aria-checked": value === key ? "true" : "false",
        "data-value": key,
        "data-group": "visibility",
        onclick: () => onchange(key),
      },
      t(`visibility_${key}`),
    );
  return h(
    "div.field",
    { "data-testid": "visibility" },
    h("span.field-label", {}, t("visibility")),
    h("div.segmented", { role: "radiogroup", "aria-label": t("visibility") }, choice("public"), choice("private")),
    h("span.help", {}, t(`visibility_${value}_help`)),
  );
}

/** "Closes at 14:05" for a waiting table (its `closes_at`), or null. */
export function closesText(table) {
  if (table.status !== "waiting" || !table.closes_at) return null;
  const at = new Date(table.closes_at);
  if (Number.isNaN(at.getTime())) return null;
  const sameDay = at.toDateString() === new Date().toDateString();
  const when = sameDay
    ? at.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })
    : at.toLocaleString(undefined, { weekday: "short", hour: "2-digit", minute: "2-digit" });
  return t("closes_at", { when });
}

/** A closed table's notice (cancelled by its creator, or expired), or null. */
export function closedNotice(table) {
  if (table.status !== "cancelled" && table.status !== "expired") return null;
  return h(
    "section.panel.closed",
    { "data-testid": "closed", role: "status" },
    h("h1", {}, t(`closed_title_${table.status}`)),
    h("p", {}, t(`closed_help_${table.status}`)),
    h("p", {}, h("a.button", { href: "/" }, t("back_home"))),
  );
}

/**
 * The creator's controls at a waiting table: a lock / free button per free seat and
 * "cancel the table". `changed(table)` gets the table as the server answers.
 */
export function creatorControls(table, changed) {
  const token = creatorToken(table.id);
  if (!token || table.status !== "waiting") return null;
  const run = async (button, call) => {
    button.disabled = true;
    try {
      changed((await call()).table);
    } catch (error) {
      toast(explainError(error.code, error.message), "error");
      button.disabled = false;
    }
  };
  const seats = table.seats
    .filter((s) => !s.taken && !s.bot)
    .map((s) => {
      const button = h(
        "button.secondary.small-button",
        {
          type: "button",
          "data-testid": `lock-${s.seat}`,
          "aria-pressed": s.locked ? "true" : "false",
          onclick: () => run(button, () => api.lockSeat(table.id, s.seat, !s.locked, token)),
        },
        t(s.locked ? "free_seat_n" : "lock_seat_n", { n: s.seat + 1 }),
      );
      return button;
    });
  const cancel = h(
    "button.danger.small-button",
    {
      type: "button",
      "data-testid": "cancel-table",
      onclick: () => {
        if (window.confirm(t("cancel_table_confirm"))) run(cancel, () => api.cancelTable(table.id, token));
      },
    },
    t("cancel_table"),
  );
  return h(
    "div.creator",
    { "data-testid": "creator" },
    h("h2", {}, t("creator_title")),
    h("p.small", {}, t("creator_help")),
    h("div.creator-buttons", {}, seats, cancel),
  );
}

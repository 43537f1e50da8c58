// A table waiting for players (the shell's, table.js): the form to take a seat, and the
// waiting room with who sits where, the invite and spectator links, the table's options
// and the creator's controls. The same for every game.

import { closesText, creatorControls } from "./access.js";
import { absoluteUrl, copyText, savedName } from "./api.js";
import { t } from "./i18n.js";
import { presenceDot } from "./presence.js";
import { h, toast } from "./ui.js";

function linkBox(labelKey, url, testId) {
  const input = h("input.link", { type: "text", readonly: true, value: url, "aria-label": t(labelKey), "data-testid": testId });
  const button = h("button.secondary", { type: "button", onclick: async () => toast((await copyText(url)) ? t("copied") : t("copy_failed")) }, t("copy"));
  return h("div.linkbox", {}, h("label", {}, t(labelKey)), h("div.linkrow", {}, input, button));
}

/**
 * The form to take a free seat. `form`: {draft, focused}, kept by the page so that what is
 * typed, and the focus, survive a redraw when someone else sits down; `join(seat, input)`.
 */
export function joinForm({ id, table, form, join }) {
  const input = h("input", {
    id: "name",
    type: "text",
    maxlength: "24",
    autocomplete: "nickname",
    value: form.draft ?? savedName(),
    placeholder: t("your_name"),
    "aria-label": t("your_name"),
  });
  input.addEventListener("input", () => (form.draft = input.value));
  input.addEventListener("keydown", (e) => {
    const first = table.seats.find((seat) => !seat.taken && !seat.bot && !seat.locked);
    if (e.key === "Enter" && first) join(first.seat, input);
  });
  requestAnimationFrame(() => {
    if (document.activeElement === document.body || form.focused) input.focus();
  });
  input.addEventListener("focus", () => (form.focused = true));
  input.addEventListener("blur", () => (form.focused = false));
  const free = table.seats.filter((s) => !s.taken && !s.bot && !s.locked);
  const seats = free.length
    ? free.map((s) =>
        h("button.primary.seat-button", { type: "button", "data-seat": String(s.seat), onclick: () => join(s.seat, input) }, t("take_seat", { n: s.seat + 1 })),
      )
    : [h("p", {}, t("no_free_seat"))];
  return h(
    "section.panel.join",
    {},
    h("h1", {}, t("join_title")),
    h("p", {}, t("join_help")),
    h("label.field", {}, h("span", {}, t("your_name")), input),
    h("div.seat-buttons", {}, seats),
    h("p.small", {}, h("a", { href: `/t/${encodeURIComponent(id)}/watch` }, t("just_watch"))),
  );
}

/**
 * Who sits where while the table waits, the links to invite and to watch, the options
 * and the creator's controls. `options`: the table's options in words (the board module's
 * `describeOptions`; "" when it has none); `seatNameEl(tag, seat, attrs)` names a seat (a
 * profile link for an account); `changed(table)` takes the table a creator's control changed.
 */
export function waitingRoom({ table, mySeat, options, seatNameEl, changed }) {
  const filled = table.seats.filter((s) => s.taken || s.bot).length;
  const mine = (seat) => mySeat !== null && seat === mySeat;
  const list = h(
    "ul.seat-list",
    {},
    table.seats.map((s) =>
      h(
        "li",
        { class: mine(s.seat) ? "me" : "" },
        h("span.seat-no", {}, t("seat_n", { n: s.seat + 1 })),
        presenceDot(s),
        s.bot || s.taken
          ? seatNameEl("seat-who", s.seat, { "data-testid": `seat-who-${s.seat}` })
          : h("span.seat-who", { "data-testid": `seat-who-${s.seat}` }, t(s.locked ? "locked_seat" : "free_seat")),
        mine(s.seat) ? h("span.badge.you", {}, t("you")) : null,
      ),
    ),
  );
  return h(
    "section.panel.waiting",
    { "data-testid": "waiting" },
    h("h1", {}, t("waiting_title")),
    h("p.lead-text", {}, t("waiting_count", { filled, players: table.players })),
    list,
    linkBox("invite_link", absoluteUrl(table.invite_url || `/t/${table.id}`), "invite"),
    linkBox("watch_link", absoluteUrl(table.watch_url || `/t/${table.id}/watch`), "watch"),
    options ? h("p.small", {}, options) : null,
    closesText(table) ? h("p.small.closes", { "data-testid": "closes" }, closesText(table)) : null,
    creatorControls(table, changed),
  );
}

// Presence (docs/protocol.md, "presence"): each person's seat is online, away (page
// hidden) or offline. This page tells the server whether it is shown; the server tells
// everyone what each seat is, and the seats and lobby lists show it as a dot with words.

import { t } from "./i18n.js";
import { h } from "./ui.js";

const STATES = ["online", "away", "offline"];

/** The dot of one seat of the table API ({seat, name, presence}); empty for bots and free seats. */
export function presenceDot(seat) {
  const state = seat && seat.name && STATES.includes(seat.presence) ? seat.presence : null;
  if (!state) return h("span.presence", { "data-slot": "presence" });
  const label = t(`presence_${state}`);
  return h(
    "span.presence",
    { class: `presence-${state}`, title: label, "data-presence": state, "data-testid": `presence-${seat.seat}`, "data-slot": "presence" },
    h("span.visually-hidden", {}, label),
  );
}

/** The table view with a `presence` message's states applied to its seats. */
export function applyPresence(table, message) {
  if (!table || !Array.isArray(message.seats) || message.seats.length !== table.seats.length) return table;
  const seats = table.seats.map((seat, i) => {
    const state = message.seats[i];
    return STATES.includes(state) ? { ...seat, presence: state } : seat;
  });
  return { ...table, seats };
}

/**
 * Tell the server when this page is hidden or shown again (`send` delivers a message on
 * the open connection). Returns the function that tells it now: the server counts a
 * new connection as shown, so a page hidden while it reconnects says so again.
 */
export function reportVisibility(send) {
  const tell = () => send({ type: "visibility", visible: !document.hidden });
  document.addEventListener("visibilitychange", tell);
  return () => {
    if (document.hidden) tell();
  };
}

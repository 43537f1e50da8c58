// Time control on the pages (issue #9): the create form's clock choice, the clock in the
// lobby's lists, and at the table the countdown of the seat to move, stand-in moves, "bot
// for <name>", and the buttons to leave, take a seat back and vote for an absent player.
//
// The server owns the clock: a `clock` message carries the deadline of the seat to move
// and the server's own time; the difference between that time and this browser's is kept
// so that a wrong clock on this computer does not change the countdown.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { h, toast } from "./ui.js";

/** The clock choices of the create form, in order (docs/api.md `NewTable.clock`). */
export const CLOCK_CHOICES = ["none", "fast", "normal", "slow", "custom", "12h", "24h", "3d"];
const TURN = ["12h", "24h", "3d"];

/** The create form's clock fields: the choice, and the custom values in seconds. */
export function newClockForm() {
  return { clock: "none", clockMove: 30, clockReserve: 60, clockBonus: 5 };
}

/** The `clock` field of NewTable for the form's choice (null: no clock). */
export function clockChoice(form) {
  if (form.clock === "none") return null;
  if (TURN.includes(form.clock)) return { kind: "turn", preset: form.clock };
  if (form.clock !== "custom") return { kind: "realtime", preset: form.clock };
  const whole = (v) => Math.floor(Number(v) || 0);
  return { kind: "realtime", move: whole(form.clockMove), reserve: whole(form.clockReserve), bonus: whole(form.clockBonus) };
}

/** The form's clock control: a select, and the custom values when "custom" is chosen. */
export function clockField(form, rerender) {
  const select = h("select", { id: "clock", "data-testid": "clock-choice", "aria-label": t("clock") });
  for (const key of CLOCK_CHOICES) select.append(new Option(t(`clock_${key}`), key));
  select.value = form.clock;
  select.addEventListener("change", () => {
    form.clock = select.value;
    rerender();
  });
  const number = (key, labelKey, min, max) => {
    const input = h("input", { type: "number", id: `clock-${key}`, min: String(min), max: String(max), value: String(form[key]) });
    input.addEventListener("input", () => (form[key] = Number(input.value)));
    return h("label.clock-custom", {}, h("span", {}, t(labelKey)), input);
  };
  const custom =
    form.clock === "custom"
      ? h(
          "div.clock-customs",
          {},
          number("clockMove", "clock_move_seconds", 5, 600),
          number("clockReserve", "clock_reserve_seconds", 0, 3600),
          number("clockBonus", "clock_bonus_seconds", 0, 120),
        )
      : null;
  return h("div.field", {}, h("label.field-label", { for: "clock" }, t("clock")), select, custom, h("span.help", {}, t("clock_help")));
}

/** A short text for a table's clock in the lobby's lists ("40 s a move", "24 h a move"). */
export function clockSummary(clock) {
  if (!clock || clock.kind === "none" || !clock.kind) return t("clock_summary_none");
  if (clock.kind === "turn") return t("clock_summary_turn", { time: duration(clock.move) });
  if (!clock.reserve) return t("clock_summary_move", { move: clock.move });
  return t("clock_summary_realtime", { move: clock.move, reserve: duration(clock.reserve) });
}

/** "0:42", "1:05:00", "2 d 03:00": a count of seconds for people. */
export function duration(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const secs = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (days) return t("clock_days", { days, time: `${two(hours)}:${two(minutes)}` });
  if (hours) return `${hours}:${two(minutes)}:${two(secs)}`;
  return `${minutes}:${two(secs)}`;
}

/**
 * The table page's part: `receive` the `clock` messages, fill each seat's clock slot,
 * give the badges of a seat and the buttons of the clock panel.
 */
export class TableClock {
  constructor(tableId, { token, seat, name, table, refresh }) {
    this.tableId = tableId;
    this.token = token; // () -> my seat's token or null
    this.seat = seat; // () -> my seat or null
    this.name = name; // (seat) -> the seat's display name
    this.table = table; // () -> the table as the API shows it
    this.refresh = refresh; // () -> draw the page again
    this.clock = null;
    this.skew = 0; // the server's clock minus this browser's, in ms
    this.lastShown = null;
    this.timer = setInterval(() => this.paint(), 250);
  }

  receive(msg) {
    const clock = msg.clock;
    this.skew = Date.parse(clock.now) - Date.now();
    const before = this.clock;
    this.clock = clock;
    const moves = (clock.stand_ins || []).reduce((a, b) => a + b, 0);
    const movesBefore = before ? (before.stand_ins || []).reduce((a, b) => a + b, 0) : moves;
    if (moves > movesBefore && clock.last && clock.last.by === "stand-in") {
      toast(t("stand_in_moved", { name: this.name(clock.last.seat) }));
    }
    this.refresh();
  }

  /** The stored seats a bot plays (from the clock message, else the table's API view). */
  bots() {
    if (this.clock) return this.clock.bots || {};
    const table = this.table();
    return (table && table.clock && table.clock.bots) || {};
  }

  /** Which table update told the bots last: a `table` message after a take back. */
  tableChanged(table) {
    if (this.clock && table && table.clock) this.clock = { ...this.clock, bots: table.clock.bots || {} };
  }

  kind() {
    const table = this.table();
    return (this.clock && this.clock.kind) || (table && table.clock && table.clock.kind) || "none";
  }

  /** Seconds left for the seat to move, on the server's clock; null when no clock runs. */
  left() {
    if (!this.clock || !this.clock.deadline) return null;
    return (Date.parse(this.clock.deadline) - (Date.now() + this.skew)) / 1000;
  }

  /** Put the countdown into the seat's clock slot (every quarter second and after drawing). */
  paint() {
    const left = this.left();
    for (const slot of document.querySelectorAll(".player[data-seat] [data-slot=clock]")) {
      const seat = Number(slot.closest(".player").dataset.seat);
      const running = left !== null && this.clock.seat === seat;
      slot.textContent = running ? duration(left) : "";
      slot.classList.toggle("running", running);
      slot.classList.toggle("low", running && left < 10);
      slot.setAttribute("data-testid", running ? "clock-running" : "clock");
      if (running) slot.title = t("clock_left_title", { name: this.name(seat) });
      else slot.removeAttribute("title");
    }
  }

  /** The badges of a seat: "bot for <name>", and how many moves a stand-in made. */
  badges(seat) {
    const out = [];
    if (this.bots()[String(seat)]) {
      const text = t("bot_for", { name: this.personName(seat) });
      out.push(h("span.badge.bot-for", { "data-testid": "bot-for", title: text }, text));
    }
    const count = this.clock && this.clock.stand_ins ? this.clock.stand_ins[seat] : 0;
    if (count) {
      const text = t("stand_in_moves", { n: count });
      out.push(h("span.badge.stand-in", { "data-testid": "stand-in", title: text }, text));
    }
    return out;
  }

  personName(seat) {
    const table = this.table();
    const info = table && table.seats[seat];
    return (info && info.name) || this.name(seat);
  }

  /** The clock panel's buttons: leave, take back, and the votes for absent players. */
  controls(playing) {
    const table = this.table();
    if (!playing || !table || table.status !== "playing") return null;
    const mine = this.seat();
    const token = this.token();
    const bots = this.bots();
    const items = [];
    const control = (this.clock && this.clock.kind ? this.clock : table.clock) || null;
    if (this.kind() !== "none") items.push(h("span.small.clock-summary", { "data-testid": "clock-setting" }, clockSummary(control)));
    if (mine !== null && token) {
      if (bots[String(mine)]) {
        items.push(this.button("take_back", "take-back", () => api.takeBack(this.tableId, token)));
      } else {
        items.push(
          this.button("leave_game", "leave", () => (confirm(t("leave_confirm")) ? api.leave(this.tableId, token) : null), "ghost"),
        );
      }
      if (this.kind() === "none") {
        const votes = (this.clock && this.clock.votes) || {};
        table.seats.forEach((info, seat) => {
          if (seat === mine || !info.name || bots[String(seat)] || info.presence !== "offline") return;
          const voters = votes[String(seat)] || [];
          const label = t("vote_bot", { name: info.name, n: voters.length });
          const voted = voters.includes(mine);
          const button = this.button(null, `vote-${seat}`, () => api.vote(this.tableId, token, seat), "ghost", label);
          button.disabled = voted;
          items.push(button);
        });
      }
    }
    return items.length ? h("div.clock-controls", { "data-testid": "clock-controls" }, items) : null;
  }

  button(key, testId, call, kind = "secondary", label = null) {
    return h(
      `button.${kind}.small-button`,
      {
        type: "button",
        "data-testid": testId,
        onclick: async () => {
          try {
            const answer = await call();
            if (answer && answer.table) this.tableChanged(answer.table);
          } catch (error) {
            toast(t("clock_action_failed", { message: error.message }), "error");
          }
          this.refresh();
        },
      },
      label || t(key),
    );
  }
}

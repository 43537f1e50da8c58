// A table's chat (docs/protocol.md, "chat" and "mute"): a panel beside the table where
// players and spectators write lines or quick reactions. Every line is shown as text
// (h() makes text nodes: never markup). A viewer may mute a person: the page remembers it
// per table in localStorage, hides their lines and asks the server to stop sending them.
// Also the pure helpers the replay page uses to place lines among the moves.

import { t } from "./i18n.js";
import { clear, h } from "./ui.js";

/** The quick reactions the server accepts (core/features/chat.py): key, symbol, phrase. The
 * symbols are in common text fonts (no emoji font needed). */
export const REACTIONS = [
  ["thumbs_up", "✔", () => t("react_thumbs_up")],
  ["laugh", "☺", () => t("react_laugh")],
  ["wow", "‼", () => t("react_wow")],
  ["clap", "⚡", () => t("react_clap")],
  ["gg", "✌", () => t("react_gg")],
  ["well_played", "★", () => t("react_well_played")],
  ["thanks", "❤", () => t("react_thanks")],
  ["oops", "☹", () => t("react_oops")],
];

export const MAX_TEXT = 200;
const KEEP = 200; // lines kept on the page
const MUTE_KEY = "odin.muted";

/** The emoji and phrase of a reaction key (an unknown key shows as itself). */
export function reactionText(key) {
  const found = REACTIONS.find(([k]) => k === key);
  return found ? `${found[1]} ${found[2]()}` : String(key);
}

/** The lines said before the replay's step `actions` (how many moves it has shown). */
export function linesUpTo(lines, actions) {
  return lines.filter((line) => line.action <= actions);
}

function readMuted(tableId) {
  try {
    const all = JSON.parse(localStorage.getItem(MUTE_KEY) || "{}");
    const list = all && Array.isArray(all[tableId]) ? all[tableId] : [];
    return new Set(list.filter((a) => typeof a === "string"));
  } catch {
    return new Set();
  }
}

function writeMuted(tableId, muted) {
  let all = {};
  try {
    all = JSON.parse(localStorage.getItem(MUTE_KEY) || "{}") || {};
  } catch {
    all = {};
  }
  if (muted.size) all[tableId] = [...muted];
  else delete all[tableId];
  localStorage.setItem(MUTE_KEY, JSON.stringify(all));
}

/** Who said a line, as shown. */
function whoOf(line) {
  return line.name || (line.seat === null ? t("chat_spectator") : t("seat_n", { n: line.seat + 1 }));
}

/** One line as shown: who (a spectator is marked), then the text or the reaction. */
export function lineEl(line, { mine = false, onMute = null } = {}) {
  const who = whoOf(line);
  return h(
    "li.chat-line",
    { class: mine ? "mine" : "", "data-author": line.author, "data-testid": "chat-line" },
    h("span.chat-who", {}, who),
    line.seat === null ? h("span.badge.watch", {}, t("chat_watching")) : null,
    h("span.chat-text", { class: line.reaction ? "reaction" : "" }, line.reaction ? reactionText(line.reaction) : line.text),
    onMute
      ? h("button.ghost.chat-mute", { type: "button", title: t("chat_mute", { name: who }), "aria-label": t("chat_mute", { name: who }), "data-testid": "chat-mute", onclick: onMute }, "⊘")
      : null,
  );
}

/**
 * The chat panel of the table page. `send(message)` sends over the table's socket (false
 * when it is closed); `me()` is my author key ("s<seat>") or null for a spectator;
 * `playersHear()` whether the table lets its players see spectators' lines; `notify(text)`
 * tells of a new line while the panel cannot be seen (on a phone it is in the drawer).
 */
export class ChatPanel {
  constructor(tableId, send, me, playersHear, notify) {
    this.tableId = tableId;
    this.send = send;
    this.me = me;
    this.playersHear = playersHear;
    this.notify = notify;
    this.note = h("p.small.chat-note", { "data-testid": "chat-note" });
    this.lines = [];
    this.muted = readMuted(tableId);
    this.open = true;
    this.unread = 0;
    this.list = h("ol.chat-lines", { "aria-live": "polite", "data-testid": "chat-lines" });
    this.input = h("input", { type: "text", maxlength: String(MAX_TEXT), "aria-label": t("chat_write"), placeholder: t("chat_write"), "data-testid": "chat-input", autocomplete: "off" });
    this.nameInput = h("input.chat-name", { type: "text", maxlength: "24", "aria-label": t("chat_your_name"), placeholder: t("chat_your_name"), "data-testid": "chat-name", autocomplete: "nickname" });
    this.toggle = h("button.ghost.chat-toggle", { type: "button", "aria-expanded": "true", "data-testid": "chat-toggle", onclick: () => this.setOpen(!this.open) });
    this.mutedBox = h("div.chat-muted");
    this.body = h(
      "div.chat-body",
      {},
      this.list,
      h(
        "div.chat-reactions",
        { role: "group", "aria-label": t("chat_reactions") },
        REACTIONS.map(([key, emoji, phrase]) => h("button.ghost", { type: "button", title: phrase(), "aria-label": phrase(), "data-testid": `react-${key}`, onclick: () => this.say({ reaction: key }) }, emoji)),
      ),
      h(
        "form.chat-form",
        { onsubmit: (e) => (e.preventDefault(), this.sayText()) },
        this.note,
        this.nameInput,
        this.input,
        h("button.secondary", { type: "submit", "data-testid": "chat-send" }, t("chat_send")),
      ),
      this.mutedBox,
    );
    this.el = h("aside.chat", { "aria-label": t("chat"), "data-testid": "chat" }, h("div.chat-head", {}, h("h2", {}, t("chat")), this.toggle), this.body);
    this.drawToggle();
  }

  setOpen(open) {
    this.open = open;
    if (open) this.unread = 0;
    this.body.hidden = !open;
    this.drawToggle();
  }

  drawToggle() {
    this.toggle.setAttribute("aria-expanded", this.open ? "true" : "false");
    this.toggle.textContent = this.open ? t("chat_hide") : this.unread ? t("chat_show_unread", { n: this.unread }) : t("chat_show");
  }

  /** After each welcome: ask the server again to hold back the people I muted. */
  connected() {
    for (const author of this.muted) this.send({ type: "mute", author, muted: true });
    const watching = this.me() === null;
    this.nameInput.hidden = !watching;
    this.note.hidden = !watching;
    this.note.textContent = this.playersHear() ? t("chat_players_hear") : t("chat_players_do_not_hear");
    this.draw();
  }

  sayText() {
    const text = this.input.value.trim();
    if (!text) return;
    const message = { text };
    const name = this.nameInput.value.trim();
    if (this.me() === null && name) message.name = name;
    if (this.say(message)) this.input.value = "";
  }

  say(fields) {
    return this.send({ type: "chat", ...fields });
  }

  /** A "chat" message from the server: the history (replacing) or new lines. */
  receive(msg) {
    if (msg.history) this.lines = [];
    const known = new Set(this.lines.map((l) => l.number));
    const fresh = msg.lines.filter((l) => !known.has(l.number));
    this.lines = [...this.lines, ...fresh].sort((a, b) => a.number - b.number).slice(-KEEP);
    const others = msg.history ? [] : fresh.filter((l) => !this.muted.has(l.author) && l.author !== this.me());
    if (!this.open) this.unread += others.length;
    const seen = this.open && this.el.isConnected && this.el.checkVisibility({ visibilityProperty: true });
    if (!seen) for (const line of others) this.notify(`${whoOf(line)}: ${line.reaction ? reactionText(line.reaction) : line.text}`);
    this.draw();
  }

  mute(author, muted) {
    if (muted) this.muted.add(author);
    else this.muted.delete(author);
    writeMuted(this.tableId, this.muted);
    this.send({ type: "mute", author, muted });
    this.draw();
  }

  draw() {
    const me = this.me();
    const shown = this.lines.filter((l) => !this.muted.has(l.author));
    clear(this.list).append(
      ...(shown.length ? shown.map((line) => lineEl(line, { mine: line.author === me, onMute: line.author === me ? null : () => this.mute(line.author, true) })) : [h("li.chat-empty", {}, t("chat_empty"))]),
    );
    this.list.scrollTop = this.list.scrollHeight;
    const names = new Map(this.lines.map((l) => [l.author, whoOf(l)]));
    clear(this.mutedBox).append(
      ...[...this.muted].map((author) =>
        h("button.ghost.small", { type: "button", "data-testid": "chat-unmute", onclick: () => this.mute(author, false) }, t("chat_unmute", { name: names.get(author) || author })),
      ),
    );
    this.drawToggle();
  }
}

/** How many moves the replay has shown at step `index` (deals are not moves). */
export function actionsAt(steps, index) {
  return steps.slice(0, index + 1).filter((step) => step.action).length;
}

/** The replay's chat: the lines said up to the moves shown, in order. */
export function replayChatPanel(lines, actions) {
  const shown = linesUpTo(lines, actions);
  return h(
    "section.panel.replay-chat",
    { "data-testid": "replay-chat" },
    h("h2", {}, t("rp_chat")),
    h("ol.chat-lines", {}, shown.length ? shown.map((line) => lineEl(line)) : h("li.chat-empty", {}, t("chat_empty"))),
  );
}

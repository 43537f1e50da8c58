// Hints at the table page (issue #13): at a table created with hints on, the seat to move
// may ask the strongest bot for its move (POST /api/tables/{id}/hint with the seat's
// token). The bot is asked for this seat's view only, like a bot in this seat. The hint is
// shown as text and handed to the board (Odin selects its cards, so that Play makes it);
// it is forgotten once the position changes. The board puts the controls where it wants.

import { t } from "./i18n.js";
import { isMyTurn } from "./table-model.js";
import { h } from "./ui.js";

const H = { version: null, pending: false, action: null, error: null };

async function ask(view, redraw, onHint) {
  const version = view.version;
  Object.assign(H, { version, pending: true, action: null, error: null });
  redraw();
  let data = null;
  let error = null;
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(view.id)}/hint`, {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": "application/json" },
      body: JSON.stringify({ token: view.token }),
    });
    data = await response.json().catch(() => null);
    if (!response.ok) error = (data && data.message) || response.statusText;
  } catch (e) {
    error = String(e.message || e);
  }
  if (H.version !== version) return; // the game moved on meanwhile
  Object.assign(H, { pending: false, action: error ? null : data.action, error });
  if (!error && onHint) onHint(data.action);
  redraw();
}

/**
 * The hint button and its answer, or null when no hint may be asked: the table has hints
 * off, or this viewer is not the seat to move. `view`: {id, table, token, seat, version,
 * state}; `onHint(action)` gets the hint's action text.
 */
export function hintControls(view, redraw, onHint) {
  if (!view.table || !view.table.hints || !view.token || !isMyTurn(view.state, view.seat)) return null;
  const current = H.version === view.version;
  let line = null;
  if (current && H.pending) line = t("hint_thinking");
  else if (current && H.error) line = t("hint_failed", { message: H.error });
  const answer =
    current && H.action
      ? h("span.hint-line", { "data-testid": "hint" }, t("hint_text", { move: "" }), h("code", {}, H.action))
      : h("span.hint-line", { "data-testid": "hint" }, line || "");
  return h(
    "span.hint",
    { role: "status", "aria-live": "polite" },
    h("button.ghost", { type: "button", disabled: current && H.pending, "data-testid": "hint-button", onclick: () => ask(view, redraw, onHint) }, t("hint_button")),
    " ",
    answer,
  );
}

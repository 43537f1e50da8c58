// The rules engine's refusals in the page's language. Engine messages are English; the
// common ones are recognised and translated, anything else is shown as the server said it
// (the shell's explainError adds the error code's words).

import { t } from "/static/js/i18n.js";

const PATTERNS = [
  [/^(.+) is worth (\d+) and does not beat (\d+)$/, (m) => t("err_too_low", { cards: m[1], value: m[2], table: m[3] })],
  [/^the leader cannot pass$/, () => t("err_leader_pass")],
  [/^the table has (\d+) cards?: play (\d+) or (\d+) cards/, (m) => t("err_size", { k: m[2], k1: m[3] })],
  [/^you do not hold (.+)$/, (m) => t("err_not_held", { cards: m[1] })],
  [/^the leader plays one card/, () => t("err_lead_one")],
  [/^you must take one card of the set you beat/, () => t("err_must_take")],
];

/** An engine message in words, or null when it is none of the common ones. */
export function explainEngine(message) {
  for (const [re, make] of PATTERNS) {
    const m = re.exec(message || "");
    if (m) return make(m);
  }
  return null;
}

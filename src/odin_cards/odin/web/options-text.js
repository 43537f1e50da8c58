// Odin's table options in one line: the lobby's lists, the waiting room, the side panel and
// the replay (describeOptions of its board).

import { t } from "/static/js/i18n.js";

export function optionsSummaryText(options, players) {
  if (!options) return "";
  const parts = [options.one_hand ? t("target_one_hand") : t("target_points", { n: options.target })];
  parts.push(options.next_leader === "winner" ? t("next_leader_winner") : t("next_leader_rotate"));
  if (options.first_leader !== null && options.first_leader !== undefined) {
    parts.push(t("first_leader_seat", { n: options.first_leader + 1 }));
  }
  if (players === 2 && options.colours === 4) parts.push(t("four_colours"));
  if (options.goat) parts.push(t("goat_option"));
  return parts.join(" · ");
}

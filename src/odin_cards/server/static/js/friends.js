// Friends (docs/matchmaking.md), for signed-in people: on every page a throttled
// heartbeat says the person is here (friends see them online); on the home page the
// friends panel lists whom they follow (online or not, at which tables, with links to
// watch or join), the invitations they received (accept takes them to the table), whom
// they block; follow by name, invite a friend to one of their tables, unfollow, block
// and report. On a profile page (/u/{name}) the same actions sit under the profile.

import { accountFetch, currentAccount } from "./account.js";
import { initI18n, t } from "./i18n.js";
import { clear, h, toast } from "./ui.js";

const BEAT_MS = 60000;
const REFRESH_MS = 15000;
const REASONS = {
  abuse: "report_abuse",
  cheating: "report_cheating",
  spam: "report_spam",
  name: "report_name",
  other: "report_other",
};
let panel = null;
let myTables = [];

function message(error) {
  return (error && error.message) || t("playnow_failed");
}

async function act(url, body, done) {
  try {
    const answer = await accountFetch(url, { method: "POST", body });
    if (done) toast(done, "info");
    return answer;
  } catch (error) {
    toast(message(error), "error");
    return null;
  }
}

function profileLink(name) {
  return h("a", { href: `/u/${encodeURIComponent(name)}` }, name);
}

// ------------------------------------------------------------------ block and report

/** Block / report buttons for the person `name` (a report form opens in place). */
export function personActions(name, tableId = null, after = null) {
  const form = h("form.report-form", { hidden: true });
  const reason = h("select", { "aria-label": t("report_reason") });
  for (const [key, text] of Object.entries(REASONS)) reason.append(new Option(t(text), key));
  const text = h("textarea", { maxlength: "500", rows: "2", "aria-label": t("report_text"), placeholder: t("report_text") });
  form.append(
    h("label", {}, t("report_reason"), " ", reason),
    text,
    h("div.actions", {}, h("button.primary", { type: "submit" }, t("report_send"))),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { name, reason: reason.value };
    if (text.value.trim()) body.text = text.value.trim();
    if (tableId) body.table = tableId;
    if (await act("/api/reports", body, t("report_sent", { name }))) form.hidden = true;
  });
  return h(
    "div.person-actions",
    {},
    h(
      "button.link",
      {
        type: "button",
        "data-testid": "block",
        onclick: async () => {
          if (!confirm(t("block_confirm", { name }))) return;
          if (await act("/api/blocks", { name }, t("blocked_done", { name })) && after) after();
        },
      },
      t("block"),
    ),
    h("button.link", { type: "button", "data-testid": "report", onclick: () => (form.hidden = !form.hidden) }, t("report")),
    form,
  );
}

// ------------------------------------------------------------------ the panel

function tableLinks(table) {
  const links = [h("a", { href: `/t/${encodeURIComponent(table.id)}/watch` }, t("friends_watch"))];
  if (table.status === "waiting" && table.open_seats > 0) {
    links.push(" · ", h("a", { href: `/t/${encodeURIComponent(table.id)}` }, t("friends_join")));
  }
  const what = table.status === "waiting" ? t("friends_table_waiting", { n: table.players }) : t("friends_table_playing", { n: table.players });
  return h("li", {}, h("span", {}, what), " ", ...links);
}

function inviteControl(name) {
  const open = myTables.filter((entry) => ["waiting", "playing"].includes(entry.table.status));
  if (open.length === 0) return null;
  const select = h("select", { "aria-label": t("friends_invite_to") });
  for (const entry of open) {
    const label = `${entry.table.id} (${entry.table.status === "waiting" ? t("friends_waiting") : t("friends_playing")})`;
    select.append(new Option(label, entry.table.id));
  }
  return h(
    "span.invite",
    {},
    select,
    h(
      "button",
      { type: "button", "data-testid": "invite", onclick: () => act("/api/invites", { name, table: select.value }, t("friends_invited", { name })) },
      t("friends_invite"),
    ),
  );
}

function friendRow(friend) {
  return h(
    "li.friend",
    { "data-testid": "friend" },
    h(
      "div.friend-head",
      {},
      h("span.online-dot", { class: friend.online ? "online-dot on" : "online-dot", "aria-hidden": "true" }),
      profileLink(friend.name),
      h("span.friend-state", {}, friend.online ? t("friends_online") : t("friends_offline")),
    ),
    friend.tables.length ? h("ul.friend-tables", {}, friend.tables.map(tableLinks)) : null,
    h(
      "div.friend-actions",
      {},
      inviteControl(friend.name),
      h("button.link", { type: "button", onclick: async () => (await act("/api/friends/unfollow", { name: friend.name })) && refresh() }, t("friends_unfollow")),
      personActions(friend.name, null, refresh),
    ),
  );
}

function invitationRow(invitation) {
  const answer = async (kind) => {
    const done = await act(`/api/invites/${encodeURIComponent(invitation.id)}`, { answer: kind });
    if (done && done.url) location.assign(done.url);
    else refresh();
  };
  return h(
    "li.invitation",
    { "data-testid": "invitation" },
    h("span", {}, t("friends_invitation", { name: invitation.from })),
    h("button.primary", { type: "button", onclick: () => answer("accept") }, t("friends_accept")),
    h("button", { type: "button", onclick: () => answer("decline") }, t("friends_decline")),
  );
}

function render(data) {
  const input = h("input", { id: "follow-name", type: "text", maxlength: "20", autocomplete: "off", "aria-label": t("friends_follow_name"), placeholder: t("friends_follow_name") });
  clear(panel).append(...[
    h("h2", { id: "friends-title" }, t("friends_title")),
    data.invitations.length ? h("ul.invitations", {}, data.invitations.map(invitationRow)) : null,
    data.friends.length ? h("ul.friend-list", {}, data.friends.map(friendRow)) : h("p.help", {}, t("friends_none")),
    h(
      "form.follow-form",
      {
        onsubmit: async (event) => {
          event.preventDefault();
          const name = input.value.trim();
          if (name && (await act("/api/friends", { name }, t("friends_following", { name })))) refresh();
        },
      },
      input,
      h("button", { type: "submit", id: "follow" }, t("friends_follow")),
    ),
    data.blocked.length
      ? h(
          "details.blocked",
          {},
          h("summary", {}, t("friends_blocked", { n: data.blocked.length })),
          h(
            "ul",
            {},
            data.blocked.map((name) =>
              h("li", {}, name, " ", h("button.link", { type: "button", onclick: async () => (await act("/api/blocks/remove", { name })) && refresh() }, t("unblock"))),
            ),
          ),
        )
      : null,
  ].filter(Boolean));
}

async function refresh(force = true) {
  try {
    const [data, tables] = await Promise.all([
      accountFetch("/api/friends"),
      accountFetch("/api/account/tables").catch(() => ({ tables: [] })),
    ]);
    myTables = tables.tables || [];
    // Keep what the person is typing or choosing: redraw only when nothing has focus inside.
    if (!force && panel.contains(document.activeElement) && document.activeElement !== panel) return;
    render(data);
  } catch {
    /* a failed refresh keeps the last list */
  }
}

function waitFor(id) {
  return new Promise((resolve) => {
    const found = document.getElementById(id);
    if (found) return resolve(found);
    const watch = new MutationObserver(() => {
      const el = document.getElementById(id);
      if (el) {
        watch.disconnect();
        resolve(el);
      }
    });
    watch.observe(document.body, { childList: true, subtree: true });
  });
}

async function start() {
  const { account } = await currentAccount();
  if (!account) return; // friends are for accounts; guests see no panel
  const beat = () => accountFetch("/api/friends/seen", { method: "POST", body: {} }).catch(() => {});
  beat();
  setInterval(() => document.visibilityState === "visible" && beat(), BEAT_MS);
  await initI18n();
  const profile = /^\/u\/([^/]+)\/?$/.exec(location.pathname);
  if (profile) {
    const name = decodeURIComponent(profile[1]);
    const slot = document.getElementById("person-actions");
    if (slot && name.toLowerCase() !== account.name.toLowerCase()) {
      slot.append(
        h("button", { type: "button", "data-testid": "follow-person", onclick: () => act("/api/friends", { name }, t("friends_following", { name })) }, t("friends_follow")),
        personActions(name),
      );
    }
    return;
  }
  if (!document.getElementById("friends") && location.pathname !== "/") return;
  panel = await waitFor("friends");
  panel.classList.add("panel", "friends");
  panel.setAttribute("aria-labelledby", "friends-title");
  panel.dataset.testid = "friends";
  panel.hidden = false;
  await refresh();
  setInterval(() => document.visibilityState === "visible" && refresh(false), REFRESH_MS);
}

start();

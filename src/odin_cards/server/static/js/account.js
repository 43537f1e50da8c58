// Accounts (docs/accounts.md): the account bar of every page, the /account page (sign
// up, log in, the account's tables, password change, deletion), and accountFetch(), which
// every cookie-authenticated write uses: it adds the session's CSRF token.

import { allSeats, rememberSeat, saveName, savedName } from "./api.js";
import { initI18n, t } from "./i18n.js";
import { clear, h, setupHeader, toast } from "./ui.js";

let known = null; // the promise of GET /api/account: {account, csrf}

/** The logged-in account and its CSRF token ({account: null, csrf: null} for a guest). */
export function currentAccount(fresh = false) {
  if (!known || fresh) {
    known = fetch("/api/account", { headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : { account: null, csrf: null }))
      .catch(() => ({ account: null, csrf: null }));
  }
  return known;
}

export class AccountError extends Error {
  constructor(status, code, message, retryAfter) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/**
 * fetch() for the account's API and every cookie-authenticated write: JSON in and out,
 * the X-CSRF-Token header added; a refusal throws an AccountError with the server's words.
 */
export async function accountFetch(url, options = {}) {
  const { csrf } = await currentAccount();
  const headers = { Accept: "application/json", ...(options.headers || {}) };
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const init = { ...options, headers, credentials: "same-origin" };
  if (options.body !== undefined && typeof options.body !== "string") {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(options.body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw new AccountError(0, "network", t("acct_network"));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new AccountError(response.status, data && data.error, data && data.message, data && data.retry_after);
  }
  return data;
}

/** The seat tokens this browser holds (a guest's games), for linking to the account. */
export function seatTokens() {
  return [...new Set(Object.values(allSeats()).map((s) => s && s.token).filter(Boolean))].slice(0, 200);
}

function adopt(answer) {
  known = Promise.resolve({ account: answer.account, csrf: answer.csrf });
  if (answer.account) fillName(answer.account.name);
}

/** The name fields of a seat (the table page's, the home page's "Play now") show the
 * account's name once signed in, unless the person typed another one. */
const NAME_FIELDS = ["name", "playnow-name"];

function fillName(name) {
  const previous = savedName();
  saveName(name);
  for (const id of NAME_FIELDS) {
    const input = document.getElementById(id);
    if (input && (!input.value || input.value === previous)) {
      input.value = name;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }
}

// ---------------------------------------------------------------- the bar

/** The public profile of the account called ``name`` (/u/{name}). */
export function profileUrl(name) {
  return `/u/${encodeURIComponent(name)}`;
}

function backHere() {
  return encodeURIComponent(location.pathname + location.search);
}

async function logOut() {
  try {
    await accountFetch("/api/account/logout", { method: "POST" });
  } catch (error) {
    toast(error.message, "error");
    return;
  }
  known = Promise.resolve({ account: null, csrf: null });
  if (location.pathname === "/account") location.reload();
  else renderBar();
  toast(t("acct_logged_out"));
}

/** The account bar in the page header: signed in as X / sign in / sign up / log out. */
export async function renderBar() {
  const bar = document.getElementById("account-bar");
  if (!bar) return;
  const { account } = await currentAccount();
  clear(bar);
  bar.setAttribute("aria-label", t("acct_bar"));
  if (account) {
    fillName(account.name);
    // The name leads to the person's public profile; "Your account" to the settings.
    const here = location.pathname === "/account";
    bar.append(
      h("span.account-who", { "data-testid": "account-name" },
        h("span.account-who-label", {}, t("acct_signed_in_as"), " "),
        h("a", { href: profileUrl(account.name), "data-testid": "account-profile-link" }, account.name)),
      h("a.account-link", { href: "/account", "aria-current": here ? "page" : null, "data-testid": "account-page-link" }, t("acct_page_link")),
      h("button.ghost.small", { type: "button", "data-testid": "account-logout", onclick: logOut }, t("acct_log_out")),
    );
  } else {
    bar.append(
      h("a.account-link", { href: `/account?next=${backHere()}#login`, "data-testid": "account-login-link" }, t("acct_log_in")),
      h("a.account-link.primary-link", { href: `/account?next=${backHere()}#signup`, "data-testid": "account-signup-link" }, t("acct_sign_up")),
    );
  }
}

// ---------------------------------------------------------------- forms

let fieldCount = 0;

/** A labelled input with its hint; errors are announced by the form's alert region. */
function field(labelKey, attrs, hintKey = null) {
  const id = `acct-f${++fieldCount}`;
  const hint = hintKey ? h("span.account-hint", { id: `${id}-hint` }, t(hintKey)) : null;
  const input = h("input", { id, ...attrs, "aria-describedby": hint ? `${id}-hint` : null });
  return { input, node: h("div.account-field", {}, h("label", { for: id }, t(labelKey)), input, hint) };
}

function errorBox(testid) {
  return h("p.account-error", { role: "alert", "aria-live": "assertive", "data-testid": testid });
}

function showError(box, inputs, error) {
  box.textContent = error.message || String(error);
  for (const input of inputs) input.setAttribute("aria-invalid", "true");
  const first = inputs[0];
  if (first) first.focus();
}

function clearError(box, inputs) {
  box.textContent = "";
  for (const input of inputs) input.removeAttribute("aria-invalid");
}

/**
 * Where to go after logging in: ``next`` when it is a page of this site, else the home page
 * (no ``next``: the account page). ``next`` is parsed as the browser would follow it and its
 * origin compared: a pattern misses what browsers read as another host (a backslash or a tab
 * after the first "/"). The answer is the parsed absolute URL, never the text given:
 * ``/.//host`` is a path of this site whose normalized form ``//host`` would name a host.
 */
export function safeNext(next, origin = location.origin) {
  if (next === null || next === undefined || next === "") return "/account";
  if (typeof next !== "string" || !next.startsWith("/")) return "/";
  let url;
  try {
    url = new URL(next, origin);
  } catch {
    return "/";
  }
  if (url.origin !== origin) return "/";
  return url.href;
}

function nextPage() {
  return safeNext(new URLSearchParams(location.search).get("next"));
}

function credentialsForm(kind) {
  const signup = kind === "signup";
  const name = field("acct_name", {
    type: "text", name: "username", autocomplete: "username", required: true,
    minlength: "3", maxlength: "20", pattern: "[A-Za-z][A-Za-z0-9_\\-]{2,19}", "data-testid": `${kind}-name`,
  }, signup ? "acct_name_hint" : null);
  const password = field("acct_password", {
    type: "password", name: "password", autocomplete: signup ? "new-password" : "current-password",
    required: true, minlength: signup ? "8" : null, maxlength: "128", "data-testid": `${kind}-password`,
  }, signup ? "acct_password_hint" : null);
  const again = signup ? field("acct_password_again", {
    type: "password", name: "password2", autocomplete: "new-password", required: true,
    maxlength: "128", "data-testid": "signup-password-again",
  }) : null;
  const error = errorBox(`${kind}-error`);
  const submit = h("button.primary", { type: "submit", "data-testid": `${kind}-submit` }, t(signup ? "acct_sign_up" : "acct_log_in"));
  const headingId = `acct-${kind}-title`;
  const form = h("form.account-form", { id: kind, "aria-labelledby": headingId, novalidate: true, "data-testid": `${kind}-form` },
    h("h2", { id: headingId }, t(signup ? "acct_sign_up_title" : "acct_log_in_title")),
    signup ? h("p.account-note", {}, t("acct_sign_up_note")) : null,
    name.node, password.node, again ? again.node : null, error, submit);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const inputs = [name.input, password.input, ...(again ? [again.input] : [])];
    clearError(error, inputs);
    if (again && again.input.value !== password.input.value) {
      showError(error, [again.input], { message: t("acct_passwords_differ") });
      return;
    }
    submit.disabled = true;
    try {
      const answer = await accountFetch(`/api/account/${kind}`, {
        method: "POST",
        body: { name: name.input.value.trim(), password: password.input.value, seats: seatTokens() },
      });
      adopt(answer);
      location.assign(nextPage());
    } catch (err) {
      const which = err.code === "bad_password" ? [password.input] : err.code === "bad_login" || err.code === "locked" ? [name.input, password.input] : [name.input];
      showError(error, which, err);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

function passwordForm() {
  const old = field("acct_old_password", { type: "password", autocomplete: "current-password", required: true, maxlength: "128", "data-testid": "password-old" });
  const fresh = field("acct_new_password", { type: "password", autocomplete: "new-password", required: true, minlength: "8", maxlength: "128", "data-testid": "password-new" }, "acct_password_hint");
  const error = errorBox("password-error");
  const form = h("form.account-form", { id: "password", "aria-labelledby": "acct-password-title", novalidate: true },
    h("h2", { id: "acct-password-title" }, t("acct_change_password")),
    h("p.account-note", {}, t("acct_change_password_note")),
    old.node, fresh.node, error,
    h("button.primary", { type: "submit", "data-testid": "password-submit" }, t("acct_change_password")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearError(error, [old.input, fresh.input]);
    try {
      await accountFetch("/api/account/password", { method: "POST", body: { old: old.input.value, new: fresh.input.value } });
      old.input.value = fresh.input.value = "";
      toast(t("acct_password_changed"));
    } catch (err) {
      showError(error, [err.code === "bad_password" ? fresh.input : old.input], err);
    }
  });
  return form;
}

function deleteForm() {
  const password = field("acct_password", { type: "password", autocomplete: "current-password", required: true, maxlength: "128", "data-testid": "delete-password" });
  const sure = h("input", { type: "checkbox", id: "acct-delete-sure", "data-testid": "delete-sure" });
  const error = errorBox("delete-error");
  const form = h("form.account-form.account-danger", { id: "delete", "aria-labelledby": "acct-delete-title", novalidate: true },
    h("h2", { id: "acct-delete-title" }, t("acct_delete")),
    h("p.account-note", {}, t("acct_delete_note")),
    password.node,
    h("div.account-check", {}, sure, h("label", { for: "acct-delete-sure" }, t("acct_delete_sure"))),
    error,
    h("button.danger", { type: "submit", "data-testid": "delete-submit" }, t("acct_delete")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearError(error, [password.input, sure]);
    if (!sure.checked) {
      showError(error, [sure], { message: t("acct_delete_confirm") });
      return;
    }
    try {
      await accountFetch("/api/account/delete", { method: "POST", body: { password: password.input.value } });
      known = Promise.resolve({ account: null, csrf: null });
      toast(t("acct_deleted"));
      location.assign("/");
    } catch (err) {
      showError(error, [password.input], err);
    }
  });
  return form;
}

// ---------------------------------------------------------------- the account's tables

async function playHere(entry) {
  try {
    const answer = await accountFetch(`/api/account/tables/${encodeURIComponent(entry.table.id)}/seats/${entry.seat}/claim`, { method: "POST" });
    const { account } = await currentAccount();
    rememberSeat(entry.table.id, answer.seat, answer.token, account ? account.name : "");
    location.assign(`/t/${encodeURIComponent(entry.table.id)}`);
  } catch (err) {
    toast(err.message, "error");
  }
}

function statusText(status) {
  const texts = {
    waiting: t("acct_status_waiting"),
    playing: t("acct_status_playing"),
    finished: t("acct_status_finished"),
    expired: t("acct_status_expired"),
    broken: t("acct_status_broken"),
    cancelled: t("acct_status_cancelled"),
  };
  return texts[status] || status;
}

function tableItem(entry) {
  const table = entry.table;
  const names = table.seats.map((s) => s.name || s.bot || "–").join(", ");
  const running = table.status === "waiting" || table.status === "playing";
  const mine = allSeats()[table.id];
  const here = mine && mine.seat === entry.seat;
  const action = running
    ? here
      ? h("a.button", { href: `/t/${encodeURIComponent(table.id)}` }, t("acct_open_table"))
      : h("button", { type: "button", "data-testid": "account-play-here", onclick: () => playHere(entry) }, t("acct_play_here"))
    : table.status === "finished"
      ? h("a.button", { href: `/t/${encodeURIComponent(table.id)}/replay` }, t("acct_replay"))
      : null;
  return h("li.account-table", { "data-testid": "account-table", "data-table": table.id },
    h("span.account-table-what", {}, t("acct_table_line", { players: table.players, seat: entry.seat + 1, status: statusText(table.status) })),
    h("span.small.account-table-who", {}, names),
    action);
}

async function tablesSection() {
  const list = h("ul.account-tables", { "data-testid": "account-tables" });
  const section = h("section.account-section", { "aria-labelledby": "acct-tables-title" },
    h("h2", { id: "acct-tables-title" }, t("acct_your_tables")), list);
  try {
    const { tables } = await accountFetch("/api/account/tables");
    if (!tables.length) list.append(h("li.small", {}, t("acct_no_tables")));
    for (const entry of tables) list.append(tableItem(entry));
  } catch (err) {
    list.append(h("li.small", {}, err.message));
  }
  return section;
}

// ---------------------------------------------------------------- the page

async function accountPage() {
  const main = document.getElementById("main");
  const { account } = await currentAccount();
  clear(main);
  if (!account) {
    const login = new URLSearchParams(location.search).has("login") || location.hash === "#login";
    const forms = [credentialsForm("signup"), credentialsForm("login")];
    if (login) forms.reverse();
    main.append(h("h1", {}, t("acct_title_guest")), h("div.account-forms", {}, ...forms));
    const target = document.getElementById(login ? "login" : "signup");
    const first = target && target.querySelector("input");
    if (first && location.hash) first.focus();
    return;
  }
  main.append(
    h("h1", {}, t("acct_title", { name: account.name })),
    h("p.account-note", {}, h("a.account-own-profile", { href: profileUrl(account.name), "data-testid": "account-own-profile" }, t("acct_profile_link"))),
    await tablesSection(),
    h("div.account-forms", {}, passwordForm(), deleteForm()),
  );
}

async function start() {
  await initI18n();
  if (document.body.classList.contains("page-account")) {
    setupHeader();
    await accountPage();
  }
  await renderBar();
}

start();

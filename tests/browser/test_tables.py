"""Presence, private tables and the creator's controls in real Chromium (issue #9).

Two people at a table: when one hides the page the other sees "away", when one closes it
the other sees "offline" after the server's grace; the lobby shows who waits at a table.
A private table made in the create form is not listed; its creator locks a seat (a
stranger with the link cannot take it) and cancels the table, and every page says so.
Screenshots of each new state go to ``artifacts/screenshots/never-stall/``
(``docs/screenshots/`` with ``ODIN_SCREENSHOTS=docs``).
"""

from __future__ import annotations

import json
import secrets
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .shots import shots_dir

pytestmark = pytest.mark.browser

SHOTS = shots_dir("never-stall")
SIZE = {"width": 1280, "height": 800}
GRACE_MS = 10_000
"""The server's presence grace (``Settings.presence_grace``): offline comes after it."""


def post(server: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        server + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


def get(server: str, path: str) -> dict[str, Any]:
    with urllib.request.urlopen(server + path, timeout=10) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


def context(browser: Browser) -> BrowserContext:
    made = browser.new_context(viewport=SIZE, locale="en-GB")  # type: ignore[arg-type]
    made.set_default_timeout(15_000)
    return made


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def hide(page: Page) -> None:
    """The page becomes hidden, as when its tab goes to the background (headless Chromium
    never hides a page by itself): the page's own listener tells the server."""
    page.evaluate(
        """() => {
            Object.defineProperty(document, "hidden", { value: true, configurable: true });
            document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )


def test_the_others_see_a_hidden_page_away_and_a_closed_one_offline(
    browser: Browser, server: str
) -> None:
    table = post(
        server, "/api/tables", {"players": 2, "options": {"one_hand": True, "first_leader": 0}}
    )["table"]
    ann_token, bob_token = (
        post(server, f"/api/tables/{table['id']}/seats/{seat}", {"name": name})["token"]
        for seat, name in ((0, "Ann"), (1, "Bob"))
    )
    ann_context, bob_context = context(browser), context(browser)
    ann, bob = ann_context.new_page(), bob_context.new_page()
    ann.goto(f"{server}/t/{table['id']}#seat={ann_token}")
    bob.goto(f"{server}/t/{table['id']}#seat={bob_token}")
    anns_seat = bob.locator('.ring article[data-seat="0"] .presence')
    expect(anns_seat).to_have_attribute("data-presence", "online")
    expect(bob.locator('.myseat article[data-seat="1"] .presence')).to_have_attribute(
        "data-presence", "online"
    )
    hide(ann)
    expect(anns_seat).to_have_attribute("data-presence", "away")
    expect(anns_seat).to_have_attribute("title", "away (page hidden)")
    shoot(bob, "presence-away-at-the-table")
    ann_context.close()
    # The grace, then the server tells everyone (a busy machine may take its time).
    expect(anns_seat).to_have_attribute("data-presence", "offline", timeout=GRACE_MS + 20_000)
    shoot(bob, "presence-offline-at-the-table")
    bob_context.close()


def signed_up(server: str, name: str) -> urllib.request.OpenerDirector:
    """An HTTP client holding a new account's session cookie."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    body = json.dumps({"name": name, "password": "correct horse battery"}).encode()
    request = urllib.request.Request(
        server + "/api/account/signup",
        data=body,
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with opener.open(request, timeout=10) as answer:
        assert answer.status == 201
    return opener


def test_the_lobby_shows_who_waits_at_a_table(browser: Browser, server: str) -> None:
    table = post(server, "/api/tables", {"players": 3, "options": {}})["table"]
    token = post(server, f"/api/tables/{table['id']}/seats/0", {"name": "Dana"})["token"]
    # An account takes another seat: the lobby links its name to its profile.
    account = f"Erik{secrets.token_hex(3)}"
    erik = signed_up(server, account)
    seat = urllib.request.Request(
        f"{server}/api/tables/{table['id']}/seats/1",
        data=json.dumps({"name": account}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with erik.open(seat, timeout=10) as answer:
        assert answer.status == 200
    dana_context = context(browser)
    dana = dana_context.new_page()
    dana.goto(f"{server}/t/{table['id']}#seat={token}")
    expect(dana.get_by_test_id("waiting")).to_be_visible()
    expect(dana.get_by_test_id("closes")).to_contain_text("closes at")
    lobby_context = context(browser)
    lobby = lobby_context.new_page()
    lobby.goto(server + "/")
    listed = lobby.locator(f'#open-tables [data-table="{table["id"]}"]')
    danas = listed.locator(".person", has_text="Dana")
    expect(danas.locator(".presence")).to_have_attribute("data-presence", "online")
    expect(listed).to_contain_text("Dana")
    profile = listed.locator("a.account-name")
    expect(profile).to_have_count(1)  # Dana is a guest: her name is no link
    expect(profile).to_have_text(account)
    expect(profile).to_have_attribute("href", f"/u/{account}")
    expect(listed.locator(".closes")).to_contain_text("closes at")
    listed.scroll_into_view_if_needed()
    shoot(lobby, "presence-in-the-lobby")
    dana_context.close()
    lobby_context.close()


def test_a_private_table_its_locked_seat_and_its_cancelling(browser: Browser, server: str) -> None:
    creator_context = context(browser)
    creator = creator_context.new_page()
    creator.goto(server + "/")
    field = creator.get_by_test_id("visibility")
    field.get_by_role("radio", name="Private").click()
    expect(field).to_contain_text("only people with the invite link")
    field.scroll_into_view_if_needed()
    shoot(creator, "create-form-visibility")
    creator.locator("#create").click()
    expect(creator.get_by_test_id("created")).to_contain_text("This table is private")
    invite = creator.get_by_test_id("invite").input_value()
    table_id = invite.rstrip("/").rsplit("/", 1)[1]
    assert table_id not in [t["id"] for t in get(server, "/api/tables")["tables"]]
    creator.locator("#go-to-table").click()
    expect(creator.get_by_test_id("creator")).to_be_visible()
    creator.locator("#name").fill("Ann")
    creator.locator('.seat-button[data-seat="0"]').click()
    expect(creator.get_by_test_id("seat-who-0")).to_have_text("Ann")
    creator.get_by_test_id("lock-3").click()
    expect(creator.get_by_test_id("seat-who-3")).to_have_text("locked")
    expect(creator.get_by_test_id("lock-3")).to_have_text("Free seat 4")
    shoot(creator, "locked-seat")

    stranger_context = context(browser)
    stranger = stranger_context.new_page()
    stranger.goto(invite)
    expect(stranger.locator(".seat-button")).to_have_count(2)  # seats 2 and 3, not 4
    expect(stranger.locator('.seat-button[data-seat="3"]')).to_have_count(0)
    expect(stranger.get_by_test_id("creator")).to_have_count(0)  # not the creator

    creator.once("dialog", lambda dialog: dialog.accept())
    creator.get_by_test_id("cancel-table").click()
    expect(creator.get_by_test_id("closed")).to_contain_text("This table was cancelled")
    expect(stranger.get_by_test_id("closed")).to_contain_text("This table was cancelled")
    shoot(stranger, "cancelled-table")
    assert get(server, f"/api/tables/{table_id}")["table"]["status"] == "cancelled"
    creator_context.close()
    stranger_context.close()

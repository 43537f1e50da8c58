"""Accounts in real Chromium (issue #10): a guest takes a seat, signs up from the account
bar, and the seat is the account's: the account page lists the table, and another
browser (another device) logged in to the account plays that seat. The forms pass
axe-core in the light and the dark theme; a wrong password is announced.
Screenshots go to ``artifacts/screenshots/people/`` (``docs/screenshots/`` with
``ODIN_SCREENSHOTS=docs``).
"""

from __future__ import annotations

import json
import secrets
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .shots import shots_dir
from .test_axe import _serious

pytestmark = pytest.mark.browser

SHOTS = shots_dir("people")
SIZE = {"width": 1280, "height": 800}
PASSWORD = "a long enough secret"


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


def context(browser: Browser) -> BrowserContext:
    # The axe script is injected as a script tag, which the pages' CSP would refuse.
    made = browser.new_context(viewport=SIZE, locale="en-GB", bypass_csp=True)  # type: ignore[arg-type]
    made.set_default_timeout(15_000)
    return made


def watch_errors(page: Page, errors: list[str]) -> None:
    page.on("pageerror", lambda error: errors.append(str(error)))


def set_theme(page: Page, theme: str) -> None:
    page.evaluate("(t) => localStorage.setItem('odin.prefs', JSON.stringify({theme: t}))", theme)


def test_a_guest_signs_up_and_the_seat_is_theirs_on_every_device(
    browser: Browser, server: str
) -> None:
    name = f"Rosa{secrets.token_hex(3)}"
    errors: list[str] = []
    laptop = context(browser)
    phone = context(browser)
    try:
        page = laptop.new_page()
        watch_errors(page, errors)
        # A guest takes a seat at a table for two with a bot, as today.
        table = post(server, "/api/tables", {"players": 2, "bots": {"1": "random"}})["table"]
        page.goto(f"{server}/t/{table['id']}")
        expect(page.get_by_test_id("account-login-link")).to_be_visible()
        page.locator("#name").fill("Rosa")
        page.locator('button[data-seat="0"]').click()
        expect(page.get_by_test_id("hand").locator("button.card")).not_to_have_count(0)

        # Sign up from the account bar; the form passes axe in both themes.
        page.get_by_test_id("account-signup-link").click()
        expect(page.get_by_test_id("signup-form")).to_be_visible()
        expect(page.get_by_label("User name").first).to_be_focused()
        page.get_by_test_id("signup-name").fill(name)
        page.get_by_test_id("signup-password").fill(PASSWORD)
        page.get_by_test_id("signup-password-again").fill(PASSWORD)
        page.screenshot(path=str(SHOTS / "signup.png"))
        assert _serious(page) == []
        set_theme(page, "dark")
        page.reload()
        expect(page.get_by_test_id("signup-form")).to_be_visible()
        page.get_by_test_id("signup-name").fill(name)
        page.get_by_test_id("signup-password").fill(PASSWORD)
        page.get_by_test_id("signup-password-again").fill("not the same")
        page.get_by_test_id("signup-submit").click()
        expect(page.get_by_test_id("signup-error")).to_have_text("The two passwords differ.")
        assert page.get_by_test_id("signup-password-again").get_attribute("aria-invalid") == "true"
        page.screenshot(path=str(SHOTS / "signup-dark.png"))
        assert _serious(page) == []
        set_theme(page, "light")
        page.get_by_test_id("signup-password-again").fill(PASSWORD)
        page.get_by_test_id("signup-submit").click()

        # Back at the table, signed in, still in the seat.
        page.wait_for_url(f"{server}/t/{table['id']}")
        expect(page.get_by_test_id("account-name")).to_contain_text(name)
        expect(page.get_by_test_id("hand").locator("button.card")).not_to_have_count(0)

        # Another table's seat form offers the account's name.
        second = post(server, "/api/tables", {"players": 2})["table"]
        page.goto(f"{server}/t/{second['id']}")
        expect(page.locator("#name")).to_have_value(name)
        # Seated there, the seat's name links to the account's profile.
        page.locator('button[data-seat="0"]').click()
        who = page.get_by_test_id("seat-who-0")
        expect(who).to_have_attribute("href", f"/u/{name}")
        expect(who).to_have_text(name)
        assert _serious(page) == []

        # The account page lists the table the guest played.
        page.goto(f"{server}/account")
        entry = page.locator(f'[data-testid="account-table"][data-table="{table["id"]}"]')
        expect(entry).to_contain_text("your seat 1")
        page.screenshot(path=str(SHOTS / "account.png"))
        assert _serious(page) == []

        # Another device: a wrong password is announced, then the right one logs in, and
        # the account's seat is played there.
        other = phone.new_page()
        watch_errors(other, errors)
        # As a guest it cannot sit under the account's name (in any case): log in first.
        other.goto(f"{server}/t/{second['id']}")
        other.locator("#name").fill(name.upper())
        other.locator('button[data-seat="1"]').click()
        expect(other.locator("#toast.error")).to_contain_text(f"log in as {name}")
        other.goto(f"{server}/account#login")
        other.get_by_test_id("login-name").fill(name)
        other.get_by_test_id("login-password").fill("wrong password")
        other.get_by_test_id("login-submit").click()
        expect(other.get_by_test_id("login-error")).to_have_text("wrong user name or password")
        expect(other.get_by_test_id("login-error")).to_have_attribute("role", "alert")
        other.get_by_test_id("login-password").fill(PASSWORD)
        other.get_by_test_id("login-submit").click()
        other.wait_for_url(f"{server}/account")
        other.locator(f'[data-table="{table["id"]}"]').get_by_test_id("account-play-here").click()
        other.wait_for_url(f"{server}/t/{table['id']}")
        expect(other.get_by_test_id("hand").locator("button.card")).not_to_have_count(0)
        expect(other.get_by_test_id("account-name")).to_contain_text(name)

        # Log out from the bar: a guest again.
        other.get_by_test_id("account-logout").click()
        expect(other.get_by_test_id("account-login-link")).to_be_visible()
        assert errors == []
    finally:
        laptop.close()
        phone.close()

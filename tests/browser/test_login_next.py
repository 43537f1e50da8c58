"""After logging in, the account page goes to ``next`` only when it is a page of this site.

Issue #29: ``/account?next=/%5Cexample.org/`` (and ``/%09/example.org/``, ``/\\/example.org``)
sent the browser to another site after login: the check rejected only a leading ``//``.
"""

from __future__ import annotations

import secrets
from urllib.parse import quote, urljoin, urlsplit

import pytest
from playwright.sync_api import Browser, Route, expect

pytestmark = pytest.mark.browser

PASSWORD = "a long enough secret"

HOSTILE = [
    "/\\example.org/",
    "/\t/example.org/",
    "/\\/example.org",
    "//example.org",
    "/.//example.org",
    "/%2F%2Fexample.org",
    "https://example.org/",
    "javascript:alert(1)",
    " /example.org",
    "\\\\example.org",
]
"""``next`` values (as the page reads them, decoded) that must not leave the site."""


def test_next_is_followed_only_within_the_site(browser: Browser, server: str) -> None:
    context = browser.new_context(locale="en-GB")
    context.set_default_timeout(15_000)
    left: list[str] = []
    here = urlsplit(server).netloc

    def elsewhere(route: Route) -> None:
        left.append(route.request.url)
        route.abort()

    context.route(
        "**/*",
        lambda route: (
            route.continue_() if route.request.url.startswith(server) else elsewhere(route)
        ),
    )
    try:
        page = context.new_page()
        page.goto(f"{server}/account")
        answers = page.evaluate(
            """async (values) => {
                const { safeNext } = await import("/static/js/account.js");
                return values.map((v) => safeNext(v));
            }""",
            [*HOSTILE, "/t/abc?x=1#y", None],
        )
        *hostile, table, absent = answers
        for value, answer in zip(HOSTILE, hostile, strict=True):
            assert urlsplit(urljoin(server, answer)).netloc == here, (value, answer)
        assert table == f"{server}/t/abc?x=1#y"
        assert absent == "/account"

        # The whole way: sign up from a link whose next names another host.
        hostile = quote("/\\example.org/")
        page.goto(f"{server}/account?next={hostile}#signup")
        name = f"Next{secrets.token_hex(3)}"
        page.get_by_test_id("signup-name").fill(name)
        page.get_by_test_id("signup-password").fill(PASSWORD)
        page.get_by_test_id("signup-password-again").fill(PASSWORD)
        page.get_by_test_id("signup-submit").click()
        page.wait_for_url(f"{server}/")
        expect(page.get_by_test_id("account-name")).to_contain_text(name)
        assert left == []
    finally:
        context.close()

"""The first-game tutorial (/games/odin/tutorial, Odin's page) played to its end through the page,
as a new player would: each step's move by clicking cards, Play, Pass or the card to take;
a wrong move is refused with a hint and changes nothing. Checked with axe-core, and
photographed in light and dark on a laptop and a phone."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_axe import AXE

pytestmark = pytest.mark.browser


def _do(page: Page, ask: str, tap: bool) -> None:
    def press(selector: str) -> None:
        locator = page.locator(selector)
        if tap:
            locator.tap()
        else:
            locator.click()

    verb, *cards = ask.split()
    if verb == "take":
        press(f'[data-testid="table-area"] button[data-card="{cards[0]}"]')
    elif verb == "pass":
        press('[data-testid="pass"]')
    else:
        for card in cards:
            press(f'[data-testid="hand"] button[data-card="{card}"]')
        press('[data-testid="play"]')


@pytest.mark.parametrize(
    ("size", "theme"),
    [("1280x720", "light"), ("390x844", "light"), ("390x844", "dark")],
)
def test_the_tutorial_to_its_end(
    browser: Browser, server: str, artifacts: Path, size: str, theme: str
) -> None:
    width, height = (int(n) for n in size.split("x"))
    phone = width < 600
    context = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=phone,
        has_touch=phone,
        locale="en-GB",
        bypass_csp=True,  # only to inject axe-core
    )
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        page.goto(server + "/static/favicon.svg")
        page.evaluate(
            "(t) => localStorage.setItem('odin.prefs', JSON.stringify({theme: t}))", theme
        )
        page.goto(server + "/games/odin/rules")
        page.get_by_test_id("tutorial-link").click()
        say = page.get_by_test_id("tutorial-say")
        expect(say).to_contain_text("The tutor leads blue 4")
        # A wrong move (passing instead of beating) is refused and changes nothing.
        page.get_by_test_id("pass").click()
        expect(page.get_by_test_id("tutorial-wrong")).to_be_visible()
        assert page.evaluate("window.odinTutorial.step") == 0
        page.add_script_tag(path=str(AXE))
        results = page.evaluate("async () => await axe.run(document)")
        serious = [v["id"] for v in results["violations"] if v["impact"] in ("serious", "critical")]
        assert serious == []
        steps = 0
        while True:
            ask = page.evaluate("window.odinTutorial.ask")
            if ask is None:
                break
            if steps == 3:
                page.screenshot(path=str(artifacts / f"tutorial-{theme}-{size}.png"))
            step = page.evaluate("window.odinTutorial.step")
            _do(page, ask, tap=phone)
            assert page.evaluate("window.odinTutorial.step") == step + 1, ask
            assert not page.evaluate("window.odinTutorial.wrong"), ask
            steps += 1
            assert steps <= 9
        assert steps == 9
        expect(say).to_contain_text("You went out first! The tutor keeps 6 cards")
        expect(page.get_by_test_id("tutorial-real")).to_have_attribute("href", "/")
        page.screenshot(path=str(artifacts / f"tutorial-end-{theme}-{size}.png"))
    finally:
        context.close()


def test_the_new_pages_run_under_the_content_security_policy(browser: Browser, server: str) -> None:
    """The rules page and the tutorial draw themselves with the server's strict CSP on
    (no inline script or style): no console error, no page error."""
    context = browser.new_context(locale="en-GB")
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        answer = page.goto(server + "/games/odin/tutorial")
        assert answer is not None and "script-src 'self'" in answer.headers.get(
            "content-security-policy", ""
        )
        expect(page.get_by_test_id("tutorial-say")).to_contain_text("blue 4")
        page.locator('[data-testid="hand"] button[data-card="B2"]').click()
        page.goto(server + "/games/odin/rules")
        expect(page.get_by_test_id("example")).to_have_count(5)
        # The addresses the two pages had before games had pages of their own.
        page.goto(server + "/static/tutorial.html")
        assert page.url == server + "/games/odin/tutorial"
        expect(page.get_by_test_id("tutorial-say")).to_contain_text("blue 4")
        page.goto(server + "/static/help.html")
        assert page.url == server + "/games/odin/rules"
        expect(page.get_by_test_id("example")).to_have_count(5)
        assert errors == []
    finally:
        context.close()

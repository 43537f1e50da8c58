"""Two people sign up in two browsers, are matched by Play now (heads-up, one hand),
play a rated game to its end through the table page, and see both ratings move on their
profiles. On the way: Ann follows Bob, and her friends panel shows him online at their
table. Screenshots of the Play now panel (waiting) and the friends panel go to
``people/`` (``docs/screenshots/people/`` with ``ODIN_SCREENSHOTS=docs``)."""

from __future__ import annotations

import secrets
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .shots import shots_dir
from .test_axe import AXE

pytestmark = pytest.mark.browser

SHOTS = shots_dir("people")
PASSWORD = "a long enough secret"


def context(browser: Browser) -> BrowserContext:
    # bypass_csp: the accessibility check injects axe-core as a script tag.
    made = browser.new_context(
        viewport={"width": 1280, "height": 860},
        locale="en-GB",
        bypass_csp=True,
    )
    made.set_default_timeout(15_000)
    return made


def sign_up(page: Page, server: str, name: str) -> None:
    page.goto(f"{server}/account?next=/#signup")
    page.get_by_test_id("signup-name").fill(name)
    page.get_by_test_id("signup-password").fill(PASSWORD)
    page.get_by_test_id("signup-password-again").fill(PASSWORD)
    page.get_by_test_id("signup-submit").click()
    page.wait_for_url(f"{server}/")
    expect(page.get_by_test_id("account-name")).to_contain_text(name)


def serious_in_panels(page: Page) -> list[str]:
    """axe-core's serious and critical findings inside the Play now and friends panels."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    results = page.evaluate("async () => await axe.run({include: [['#playnow'], ['#friends']]})")
    assert results["passes"], "axe-core checked nothing"
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:5]]}"
        for v in results["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def state(page: Page) -> dict[str, Any] | None:
    found: dict[str, Any] | None = page.evaluate(
        """() => window.odinTable && window.odinTable.state ? {
            seat: window.odinTable.seat, version: window.odinTable.version,
            to_move: window.odinTable.state.to_move, legal: window.odinTable.state.legal,
            outcome: window.odinTable.state.outcome,
            busy: window.odinTable.connection.busy} : null"""
    )
    return found


def take_turn(page: Page, legal: list[str]) -> None:
    """Through the page: take the first card offered, else the first legal play (its
    cards, then Play), else pass."""
    takes = [a for a in legal if a.startswith("take ")]
    plays = [a for a in legal if a.startswith("play ")]
    if takes:
        card = takes[0].split()[1]
        page.locator(f'[data-testid="table-area"] button[data-card="{card}"]').click()
    elif plays:
        for card in plays[0].split()[1:]:
            page.locator(f'[data-testid="hand"] button[data-card="{card}"]').click()
        page.get_by_test_id("play").click()
    else:
        page.get_by_test_id("pass").click()


def points(page: Page, server: str, name: str) -> str | None:
    page.goto(f"{server}/u/{name}")
    expect(page.get_by_test_id("rating-heads-up")).to_be_visible()
    shown = page.get_by_test_id("points-heads-up")
    return shown.text_content() if shown.count() else None


def test_two_people_are_matched_by_play_now_and_their_ratings_move(
    browser: Browser, server: str
) -> None:
    errors: list[str] = []
    suffix = secrets.token_hex(2)
    names = [f"Ann{suffix}", f"Bob{suffix}"]
    contexts = [context(browser), context(browser)]
    try:
        ann, bob = (c.new_page() for c in contexts)
        for page in (ann, bob):
            page.on("pageerror", lambda error: errors.append(str(error)))
        for page, name in zip((ann, bob), names, strict=True):
            sign_up(page, server, name)
        assert points(ann, server, names[0]) is None  # no rated game yet: unrated

        # Ann follows Bob from her friends panel.
        ann.goto(f"{server}/")
        friends = ann.get_by_test_id("friends")
        expect(friends).to_be_visible()
        friends.locator("#follow-name").fill(names[1])
        friends.locator("#follow").click()
        expect(friends.get_by_test_id("friend")).to_contain_text(names[1])

        # Play now: heads-up, one hand. Ann waits; Bob's request matches her at once.
        panel = ann.get_by_test_id("playnow")
        panel.locator('[data-group="playnow-target"][data-value="one"]').click()
        panel.locator("#playnow-start").click()
        expect(panel.get_by_test_id("playnow-waiting")).to_be_visible()
        expect(panel.locator("#playnow-count")).to_have_text("1 person waiting with these choices")
        expect(panel.locator("#playnow-elapsed")).to_contain_text("Waiting")
        panel.screenshot(path=str(SHOTS / "playnow-waiting.png"))
        bob.goto(f"{server}/")
        bob_panel = bob.get_by_test_id("playnow")
        bob_panel.locator('[data-group="playnow-target"][data-value="one"]').click()
        bob_panel.locator("#playnow-start").click()
        for page in (ann, bob):
            page.wait_for_url(f"{server}/t/*")
            expect(page.get_by_test_id("hand").locator("button.card")).not_to_have_count(0)
        assert ann.url == bob.url
        assert {ann.evaluate("window.odinTable.seat"), bob.evaluate("window.odinTable.seat")} == {
            0,
            1,
        }

        # Ann's friends panel (another tab) shows Bob online, at their table.
        home = contexts[0].new_page()
        home.goto(f"{server}/")
        mate = home.get_by_test_id("friends").get_by_test_id("friend")
        expect(mate).to_contain_text("online")
        table_id = ann.url.rsplit("/", 1)[1]
        expect(mate.locator(f'a[href="/t/{table_id}/watch"]')).to_be_visible()
        home.get_by_test_id("friends").screenshot(path=str(SHOTS / "friends.png"))
        assert serious_in_panels(home) == []  # both panels, signed in, in the light theme
        home.evaluate("localStorage.setItem('odin.prefs', JSON.stringify({theme: 'dark'}))")
        home.reload()
        expect(home.get_by_test_id("friends").get_by_test_id("friend")).to_contain_text("online")
        home.get_by_test_id("friends").screenshot(path=str(SHOTS / "friends-dark.png"))
        home.get_by_test_id("playnow").screenshot(path=str(SHOTS / "playnow-dark.png"))
        assert serious_in_panels(home) == []
        home.evaluate("localStorage.removeItem('odin.prefs')")
        home.close()

        # The game, through the page, to its end.
        pages = {
            ann.evaluate("window.odinTable.seat"): ann,
            bob.evaluate("window.odinTable.seat"): bob,
        }
        deadline = time.monotonic() + 40
        while True:
            assert time.monotonic() < deadline, "the game did not end in time"
            states = {seat: state(page) for seat, page in pages.items()}
            if any(s is not None and s["outcome"] for s in states.values()):
                break
            mover = next(
                (
                    seat
                    for seat, s in states.items()
                    if s and s["to_move"] == seat and s["legal"] and not s["busy"]
                ),
                None,
            )
            if mover is None:
                time.sleep(0.05)
                continue
            mine = states[mover]
            assert mine is not None
            take_turn(pages[mover], mine["legal"])
            pages[mover].wait_for_function("v => window.odinTable.version > v", arg=mine["version"])
        for page in (ann, bob):
            expect(page.get_by_test_id("final")).to_be_visible()

        # Both ratings moved (from a new person's 470), one up, one down.
        shown: list[int] = []
        for page, name in zip((ann, bob), names, strict=True):
            for _ in range(50):  # the table is settled just after its end
                value = points(page, server, name)
                if value is not None:
                    break
                time.sleep(0.2)
            assert value is not None, f"{name} has no heads-up rating after the game"
            shown.append(int(value))
            expect(page.get_by_test_id("rating-heads-up")).to_contain_text("1 rated game")
        assert min(shown) < 470 < max(shown), shown
        assert not errors, errors
    finally:
        for made in contexts:
            made.close()

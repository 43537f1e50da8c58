"""Automation preferences on the table page, against a real server and a bot: pass for
the rest of the round, take automatically when only one card can be taken; each action
is logged where the player sees it. (Auto-pass, which needs a deal where nothing beats the
table, is tested on the pure decision in test_table_state.py.)"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    """My seat (0) at a one-hand table against a random bot that leads first."""
    table = _post(
        f"{server}/api/tables",
        {"players": 2, "bots": {"1": "random"}, "options": {"one_hand": True, "first_leader": 1}},
    )["table"]
    seat = _post(f"{server}/api/tables/{table['id']}/seats/0", {"name": "Ann"})
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(server + "/static/favicon.svg")
    page.evaluate(
        """([id, token]) => localStorage.setItem("odin.seats", JSON.stringify(
            {[id]: {seat: 0, token, name: "Ann"}}))""",
        [table["id"], seat["token"]],
    )
    page.goto(f"{server}/t/{table['id']}")
    try:
        yield page
    finally:
        context.close()


MY_FOLLOW = """() => window.odinTable.state && window.odinTable.state.to_move === 0
    && window.odinTable.state.decision === 'follow' && !window.odinTable.connection.busy"""


def test_pass_for_the_rest_of_the_round(page: Page) -> None:
    page.wait_for_function(MY_FOLLOW)
    version = page.evaluate("window.odinTable.version")
    page.get_by_test_id("pass-round").click()
    page.wait_for_function("v => window.odinTable.version > v", arg=version)
    events = page.evaluate("window.odinTable.events")
    assert next(e for e in events if e["type"] == "pass")["seat"] == 0
    expect(page.locator("#toast")).to_contain_text("rest of this round")
    page.get_by_test_id("tab-log").click()
    expect(page.get_by_test_id("auto-note")).to_have_text(
        "Passed automatically for the rest of this round."
    )
    # Everybody else passed: the bot leads a new round, and I choose again.
    page.wait_for_function(MY_FOLLOW)
    assert any(e["type"] == "round" for e in page.evaluate("window.odinTable.events"))
    expect(page.get_by_test_id("pass-round")).to_have_attribute("aria-pressed", "false")
    assert (
        page.evaluate(
            """async () => (await import("/games/odin/table-state.js")).automaticAction(
            window.odinTable.state, 0, window.odinTable.events, window.odinTable.prefs,
            window.odinTable.board.passRound)"""
        )
        is None
    )
    expect(page.get_by_test_id("auto-note")).to_have_count(1)


def test_take_by_itself_when_one_card_can_be_taken(page: Page) -> None:
    page.get_by_test_id("tab-settings").click()
    page.get_by_test_id("pref-autoTake").check()
    page.reload()  # remembered
    page.get_by_test_id("tab-settings").click()
    expect(page.get_by_test_id("pref-autoTake")).to_be_checked()
    for _ in range(9):  # the bot leads one card a round: beat it with one card if I can
        page.wait_for_function(MY_FOLLOW)
        legal = page.evaluate("window.odinTable.state.legal")
        singles = [a for a in legal if a.startswith("play ") and len(a.split()) == 2]
        version = page.evaluate("window.odinTable.version")
        if not singles:
            page.get_by_test_id("pass").click()
            page.wait_for_function("v => window.odinTable.version > v", arg=version)
            continue
        card = singles[0].split()[1]
        page.locator(f'[data-testid="hand"] button[data-card="{card}"]').click()
        page.get_by_test_id("play").click()
        # I beat a single card: the take follows by itself, and says so.
        page.wait_for_function(
            """v => window.odinTable.events.some(
                (e) => e.index >= v && e.type === 'take' && e.seat === 0)""",
            arg=version,
        )
        expect(page.locator("#toast")).to_contain_text("the only card to take")
        page.get_by_test_id("tab-log").click()
        expect(page.get_by_test_id("auto-note")).to_contain_text("automatically")
        return
    pytest.fail("no single card of mine ever beat the bot's lead")

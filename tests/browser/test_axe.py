"""Accessibility: axe-core (vendored, tests/browser/vendor/axe.min.js) finds no violation
of serious or critical impact on any page or state: the lobby, the table on my turn (light
and dark, laptop and phone, the drawer and settings open), a hand's summary, the
spectator view and the replay (of a running game and of a finished one)."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

pytestmark = pytest.mark.browser

AXE = Path(__file__).with_name("vendor") / "axe.min.js"
SRC = Path(__file__).parents[2] / "src" / "odin_cards"
SHELL_WORDS = SRC / "server" / "static" / "i18n"
ODIN_WORDS = SRC / "odin" / "web" / "i18n"


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def _serious(page: Page) -> list[str]:
    """The serious and critical violations axe-core finds on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    results = page.evaluate("async () => await axe.run(document)")
    assert results["passes"], "axe-core checked nothing"
    found = []
    for violation in results["violations"]:
        if violation["impact"] in ("serious", "critical"):
            targets = [", ".join(map(str, node["target"])) for node in violation["nodes"][:5]]
            found.append(f"{violation['id']} ({violation['impact']}): {targets}")
    return found


@pytest.fixture
def context(browser: Browser, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    phone = getattr(request, "param", "laptop") == "phone"
    size: ViewportSize = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 720}
    # The axe script is injected as a script tag, which the pages' CSP would refuse.
    context = browser.new_context(
        viewport=size, is_mobile=phone, has_touch=phone, locale="en-GB", bypass_csp=True
    )
    context.set_default_timeout(15_000)
    try:
        yield context
    finally:
        context.close()


def _seat(page: Page, server: str, players: int = 3) -> str:
    table = _post(
        f"{server}/api/tables",
        {"players": players, "options": {"first_leader": 0}},
    )["table"]
    # People who never move, not bots: the server limits one client's bot seats.
    for seat in range(1, players):
        _post(f"{server}/api/tables/{table['id']}/seats/{seat}", {"name": f"Player {seat + 1}"})
    token = _post(f"{server}/api/tables/{table['id']}/seats/0", {"name": "Ann"})["token"]
    page.goto(server + "/static/favicon.svg")
    page.evaluate(
        """([id, token]) => localStorage.setItem("odin.seats", JSON.stringify(
            {[id]: {seat: 0, token, name: "Ann"}}))""",
        [table["id"], token],
    )
    page.goto(f"{server}/t/{table['id']}")
    expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(9)
    return str(table["id"])


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_lobby(context: BrowserContext, server: str, theme: str) -> None:
    # An open table with a clock and one person seated: its list entry is checked too.
    clock = {"kind": "realtime", "preset": "normal"}
    table = _post(f"{server}/api/tables", {"players": 3, "clock": clock})["table"]
    _post(f"{server}/api/tables/{table['id']}/seats/0", {"name": "Dana"})
    page = context.new_page()
    page.goto(server + "/static/favicon.svg")
    page.evaluate("(t) => localStorage.setItem('odin.prefs', JSON.stringify({theme: t}))", theme)
    page.goto(server + "/")
    expect(page.locator("#create")).to_be_visible()
    expect(page.locator(f'#open-tables .table-item:has(a[href$="{table["id"]}"])')).to_be_visible()
    assert _serious(page) == []


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_table_on_my_turn(context: BrowserContext, server: str, theme: str) -> None:
    page = context.new_page()
    page.goto(server + "/static/favicon.svg")
    page.evaluate("(t) => localStorage.setItem('odin.prefs', JSON.stringify({theme: t}))", theme)
    _seat(page, server)
    page.get_by_test_id("hand").locator("button.card").first.click()
    assert _serious(page) == []
    for tab in ("log", "settings"):
        page.get_by_test_id(f"tab-{tab}").click()
        assert _serious(page) == [], tab


@pytest.mark.parametrize("context", ["phone"], indirect=True)
def test_the_table_on_a_phone_with_the_drawer(context: BrowserContext, server: str) -> None:
    page = context.new_page()
    _seat(page, server)
    assert _serious(page) == []
    page.get_by_test_id("drawer-toggle").tap()
    expect(page.locator("#side .scores")).to_be_visible()
    assert _serious(page) == []


def test_spectator_and_replay(context: BrowserContext, server: str) -> None:
    page = context.new_page()
    table_id = _seat(page, server)
    watcher = context.new_page()
    watcher.goto(f"{server}/t/{table_id}/watch")
    expect(watcher.locator(".ring .player")).to_have_count(3)
    assert _serious(watcher) == []
    watcher.goto(f"{server}/t/{table_id}/replay")
    expect(watcher.get_by_test_id("replay-message")).to_be_visible()
    assert _serious(watcher) == []


def test_the_replay_of_a_finished_game(context: BrowserContext, server: str) -> None:
    body = {"players": 2, "bots": {"0": "heuristic", "1": "random"}, "options": {"one_hand": True}}
    table_id = _post(f"{server}/api/tables", body)["table"]["id"]
    page = context.new_page()
    page.goto(f"{server}/t/{table_id}/watch")
    expect(page.get_by_test_id("final")).to_be_visible(timeout=30_000)
    page.goto(f"{server}/t/{table_id}/replay")
    expect(page.locator(".rp-log")).to_be_visible()
    page.get_by_test_id("next").click()
    assert _serious(page) == []


def test_axe_finds_a_planted_violation(context: BrowserContext, server: str) -> None:
    """The check can fail: a button without a name and grey-on-grey text are found."""
    page = context.new_page()
    page.goto(server + "/")
    expect(page.locator("#create")).to_be_visible()
    page.evaluate(
        """() => {
            document.querySelector("main").append(document.createElement("button"));
            const p = document.createElement("p");
            p.textContent = "hard to read";
            p.style.color = "#bbb";
            p.style.background = "#ccc";
            document.querySelector("main").append(p);
        }"""
    )
    found = " ".join(_serious(page))
    assert "button-name" in found and "color-contrast" in found


@pytest.mark.parametrize("context", ["phone"], indirect=True)
def test_the_rules_page_in_every_language(
    context: BrowserContext, server: str, artifacts: Path
) -> None:
    """The rules page: reachable from the header, every example drawn with real cards,
    in each of the five languages, and accessible."""
    page = context.new_page()
    page.goto(server + "/")
    page.get_by_test_id("help-link").tap()
    page.wait_for_url("**/games/odin/rules")
    for lang in ("en", "de", "fr", "sv", "ca"):
        page.evaluate("(l) => localStorage.setItem('odin.lang', l)", lang)
        page.reload()
        strings = {  # the shell's words and Odin's (its rules are Odin's page)
            **json.loads((SHELL_WORDS / f"{lang}.json").read_text(encoding="utf-8")),
            **json.loads((ODIN_WORDS / f"{lang}.json").read_text(encoding="utf-8")),
        }
        expect(page.locator("h1")).to_have_text(strings["rules_title"])
        examples = page.get_by_test_id("example")
        expect(examples).to_have_count(5)
        expect(examples.nth(4)).to_contain_text(strings["help_goat_title"])
        expect(examples.nth(4).locator(".card")).to_have_count(3)
        assert _serious(page) == [], lang
    page.evaluate("localStorage.setItem('odin.lang', 'en')")
    page.reload()
    page.screenshot(path=str(artifacts / "help-390x844.png"), full_page=True)

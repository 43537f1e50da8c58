"""A game whose plugin brings no board module (In the Name of Odin) in the browser: the
shell's plain board shows the seats, the seat's State as text and each legal action as a
button; a whole two-player game against a bot is played by clicking them, a spectator sees
no hand, and the replay page lists every move and the result, with no page error."""

from __future__ import annotations

import json
import random
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

GAME = "name-of-odin"


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return json.load(answer)


def choose(legal: list[str], rng: random.Random) -> str:
    """A scripted person (tests/server/test_name_of_odin_table.py's): raids and matches
    when they can, ends a turn often."""
    eager = [t for t in legal if t.split()[0] in ("raid", "match", "hero", "ship", "return")]
    if eager:
        return rng.choice(eager)
    if "end" in legal and rng.random() < 0.6:
        return "end"
    return rng.choice(legal)


MY_TURN_OR_OVER = """() => { const s = window.odinTable.state;
    return Boolean(s && (s.outcome || (s.to_move === 0 && s.legal.length
        && !window.odinTable.connection.busy))); }"""


def _errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def test_a_game_without_a_board_is_played_and_replayed_on_the_plain_board(
    browser: Browser, server: str, artifacts: Path
) -> None:
    table = _post(
        f"{server}/api/tables",
        {"game": GAME, "players": 2, "bots": {"1": "heuristic"}, "options": {"first_player": 0}},
    )["table"]
    seat = _post(f"{server}/api/tables/{table['id']}/seats/0", {"name": "Ada"})
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        errors = _errors(page)
        page.goto(server + "/static/favicon.svg")
        page.evaluate(
            """([id, token]) => {
                localStorage.setItem("odin.seats", JSON.stringify(
                    {[id]: {seat: 0, token, name: "Ada"}}));
                localStorage.setItem("odin.prefs", JSON.stringify({motion: "off"}));
            }""",
            [table["id"], seat["token"]],
        )
        page.goto(f"{server}/t/{table['id']}")
        state = page.get_by_test_id("plain-state")
        expect(state).to_contain_text(GAME)
        expect(page.locator('.player[data-seat="0"]')).to_contain_text("Ada")
        expect(page.locator('.player[data-seat="1"]')).to_contain_text("Heuristic bot")
        page.screenshot(path=str(artifacts / "plain-board-1280x720.png"))

        watcher = context.new_page()
        watcher_errors = _errors(watcher)
        watcher.goto(f"{server}/t/{table['id']}/watch")
        expect(watcher.get_by_test_id("plain-state")).to_contain_text(GAME)
        expect(watcher.get_by_test_id("plain-actions")).to_have_count(0)  # nothing to do
        assert watcher.evaluate("window.odinTable.state.hand") is None

        rng = random.Random(5)
        clicked: list[str] = []
        deadline = time.monotonic() + 240
        while True:
            assert time.monotonic() < deadline, f"the game did not end ({len(clicked)} moves)"
            page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
            mine = page.evaluate("window.odinTable.state")
            if mine["outcome"]:
                break
            version = page.evaluate("window.odinTable.version")
            buttons = page.locator('[data-testid="plain-actions"] button[data-action]')
            shown = buttons.evaluate_all("(all) => all.map((b) => b.dataset.action)")
            assert shown == mine["legal"]  # one button per legal action, as the server says it
            action = choose(mine["legal"], rng)
            page.locator(f'[data-testid="plain-actions"] button[data-action="{action}"]').click()
            clicked.append(action)
            page.wait_for_function("v => window.odinTable.version > v", arg=version)

        expect(page.get_by_test_id("final")).to_be_visible()
        outcome = page.evaluate("window.odinTable.state.outcome")
        winners = [("Ada", "Heuristic bot")[seat] for seat in outcome["winners"]]
        expect(page.get_by_test_id("final").locator("li.won")).to_have_count(len(winners))
        expect(page.get_by_test_id("final")).to_contain_text(winners[0])
        page.screenshot(path=str(artifacts / "plain-board-end-1280x720.png"))
        page.get_by_test_id("tab-log").click()
        expect(page.get_by_test_id("log").locator("li").first).to_be_visible()

        record = _get(f"{server}/api/tables/{table['id']}/record")
        assert [text for s, text in record["actions"] if s == 0] == clicked
        page.goto(f"{server}/t/{table['id']}/replay")
        log = page.get_by_test_id("log").locator("li")
        expect(log).to_have_count(len(record["actions"]) + 1)  # the start, then every move
        expect(log.nth(1)).to_contain_text(record["actions"][0][1])
        page.get_by_test_id("next").click()
        expect(page.locator(".rp-action")).to_contain_text(record["actions"][0][1])
        page.get_by_test_id("last").click()
        expect(page.get_by_test_id("final")).to_contain_text(winners[0])
        expect(page.get_by_test_id("step")).to_have_text(
            f"{len(record['actions']) + 1} / {len(record['actions']) + 1}"
        )
        expect(page.get_by_test_id("analysis")).to_have_count(0)  # the game is not analysed
        page.screenshot(path=str(artifacts / "plain-replay-1280x720.png"))
        assert errors == [] and watcher_errors == []
    finally:
        context.close()

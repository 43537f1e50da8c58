"""Issue #13 in the browser: the replay page's analysis, and a hint at a table with hints."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from .shots import shots_dir

pytestmark = pytest.mark.browser

SHOTS = shots_dir("analysis")
SIZE: ViewportSize = {"width": 1280, "height": 800}


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def test_the_replay_page_annotates_every_move(browser: Browser, server: str) -> None:
    body = {"players": 2, "bots": {"0": "heuristic", "1": "random"}, "options": {"one_hand": True}}
    table_id = _post(f"{server}/api/tables", body)["table"]["id"]
    page = browser.new_page(viewport=SIZE)
    try:
        page.goto(f"{server}/t/{table_id}/watch")
        expect(page.get_by_test_id("final")).to_be_visible(timeout=30_000)
        page.goto(f"{server}/t/{table_id}/replay")
        panel = page.get_by_test_id("analysis")
        expect(panel).to_be_visible()
        summary = page.get_by_test_id("an-summary")
        expect(summary).to_be_visible(timeout=60_000)
        expect(summary.locator("tbody tr")).to_have_count(2)
        page.get_by_test_id("next").click()  # the first move
        verdict = page.get_by_test_id("an-verdict")
        expect(verdict).to_be_visible()
        assert verdict.inner_text() in {
            "best",
            "good",
            "inaccuracy",
            "mistake",
            "blunder",
            "forced",
        }
        analysis = json.load(urllib.request.urlopen(f"{server}/api/tables/{table_id}/analysis"))
        moves = analysis["analysis"]["moves"]
        assert verdict.inner_text() == moves[0]["verdict"]
        erred = [m for m in moves if m["verdict"] in ("inaccuracy", "mistake", "blunder")]
        expect(page.locator(".rp-log .an-mark")).to_have_count(len(erred))
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "replay-analysis.png"))
    finally:
        page.close()


def test_a_hint_for_the_seat_to_move_at_a_table_with_hints(browser: Browser, server: str) -> None:
    body = {
        "players": 2,
        "bots": {"1": "heuristic"},
        "options": {"first_leader": 0},
        "hints": True,
    }
    table_id = _post(f"{server}/api/tables", body)["table"]["id"]
    token = _post(f"{server}/api/tables/{table_id}/seats/0", {"name": "Ada"})["token"]
    without = _post(f"{server}/api/tables", {**body, "hints": False})["table"]["id"]
    token_without = _post(f"{server}/api/tables/{without}/seats/0", {"name": "Ada"})["token"]
    page = browser.new_page(viewport=SIZE)
    try:
        page.goto(server + "/")
        page.evaluate(
            """([a, ta, b, tb]) => localStorage.setItem("odin.seats", JSON.stringify({
                [a]: {seat: 0, token: ta, name: "Ada"},
                [b]: {seat: 0, token: tb, name: "Ada"}}))""",
            [table_id, token, without, token_without],
        )
        page.goto(f"{server}/t/{without}")
        expect(page.get_by_test_id("play")).to_be_visible()
        expect(page.get_by_test_id("hint-button")).to_have_count(0)
        page.goto(f"{server}/t/{table_id}")
        button = page.get_by_test_id("hint-button")
        expect(button).to_be_visible()
        button.click()
        hint = page.get_by_test_id("hint")
        expect(hint.locator("code")).to_have_text(re.compile(r"^(play( [A-Z][0-9])+|pass)$"))
        move = hint.locator("code").inner_text()
        assert move.startswith("play ")
        state = page.evaluate("window.odinTable.state")
        assert move in state["legal"]
        cards = move.split()[1:]
        assert set(cards) <= set(state["hand"])
        assert sorted(page.evaluate("window.odinTable.board.selection")) == sorted(cards)
        expect(page.get_by_test_id("play")).to_be_enabled()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "table-hint.png"))
        page.get_by_test_id("play").click()
        expect(button).to_have_count(0)  # no longer the seat to move
    finally:
        page.close()


def test_the_create_form_has_the_hints_option(browser: Browser, server: str) -> None:
    page = browser.new_page(viewport=SIZE)
    try:
        page.goto(server + "/")
        option = page.get_by_test_id("hints-option")
        expect(option).not_to_be_checked()
        option.check()
        option.scroll_into_view_if_needed()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "lobby-hints-option.png"))
        with page.expect_response("**/api/tables") as created:
            page.locator("#create").click()
        table = created.value.json()["table"]
        assert table["hints"] is True
    finally:
        page.close()

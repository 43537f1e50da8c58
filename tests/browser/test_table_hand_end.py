"""The end of a hand on the table page: the summary lies over the felt with the last play,
every player's cards left and points, and holds the next hand's first moves until it is
closed. Played through the page against a bot, with motion off to keep it quick."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.browser


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def test_the_hand_summary_holds_the_next_hand(
    browser: Browser, server: str, artifacts: Path
) -> None:
    # I lead the first hand, so the bot leads the second (the lead rotates).
    table = _post(
        f"{server}/api/tables",
        {"players": 2, "bots": {"1": "random"}, "options": {"target": 100, "first_leader": 0}},
    )["table"]
    seat = _post(f"{server}/api/tables/{table['id']}/seats/0", {"name": "Ann"})
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        page.goto(server + "/static/favicon.svg")
        page.evaluate(
            """([id, token]) => {
                const seats = {[id]: {seat: 0, token, name: "Ann"}};
                localStorage.setItem("odin.seats", JSON.stringify(seats));
                localStorage.setItem("odin.prefs", JSON.stringify({motion: "off"}));
            }""",
            [table["id"], seat["token"]],
        )
        page.goto(f"{server}/t/{table['id']}")
        ended = "() => window.odin.events.some((e) => e.type === 'hand_end')"
        for _ in range(200):
            page.wait_for_function(
                f"""() => ({ended})() || (window.odin.state && window.odin.state.to_move === 0
                    && !window.odin.connection.busy)"""
            )
            if page.evaluate(ended):
                break
            # Through the client's own socket: the largest play, else the first take, else pass.
            version = page.evaluate(
                """() => {
                    const legal = window.odin.state.legal;
                    const plays = legal.filter((a) => a.startsWith("play "));
                    plays.sort((a, b) => b.split(" ").length - a.split(" ").length);
                    const action = plays[0] || legal.find((a) => a.startsWith("take ")) || "pass";
                    window.odin.connection.act(action, window.odin.version);
                    return window.odin.version;
                }"""
            )
            page.wait_for_function(f"v => window.odin.version > v || ({ended})()", arg=version)
        summary = page.get_by_test_id("hand-summary")
        expect(summary).to_be_visible()
        expect(summary).to_contain_text("Hand 1 is over")
        expect(summary.get_by_test_id("final-play")).to_contain_text("ended the hand")
        end = next(e for e in page.evaluate("window.odin.events") if e["type"] == "hand_end")
        rows = summary.locator("tbody tr")
        expect(rows).to_have_count(2)
        for seat_no, points in enumerate(end["points"]):
            expect(rows.nth(seat_no)).to_contain_text(f"+{points}")
        # The felt's summary keeps the table and my new hand visible around it.
        expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(9)
        page.screenshot(path=str(artifacts / "table-hand-end-1280x720.png"))
        # The bot's first lead of hand 2 has arrived but waits behind the summary.
        page.wait_for_function(
            """() => window.odin.connection.log.some(
                (m) => m.type === "update" && m.version > window.odin.version)"""
        )
        assert not any(
            e["type"] == "play" and e["index"] > end["index"]
            for e in page.evaluate("window.odin.events")
        )
        page.get_by_test_id("summary-continue").click()
        expect(summary).to_have_count(0)
        page.wait_for_function(
            """(i) => window.odin.events.some((e) => e.type === "play" && e.index > i)""",
            arg=end["index"],
        )
    finally:
        context.close()

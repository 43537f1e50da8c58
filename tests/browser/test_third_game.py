"""The tests' own third game in Chromium, with the board module it brings: take-away
installed as a package that publishes its plugin (nothing under ``src/`` knows it), a table
with a bot played to its end by clicking its board's buttons, its end frame, and its
replay page drawn by its board's ``replay``, with no page error."""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from plugins.takeaway.install import install

from .conftest import _free_port, _odin_command

pytestmark = pytest.mark.browser

GAME = "take-away"


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return json.load(answer)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``odin serve`` with take-away installed (its bots in a worker process, which must
    find the game through the same entry point)."""
    data = tmp_path_factory.mktemp("third-game")
    environment = {**os.environ, "PYTHONPATH": install(data / "site")}
    port = _free_port()
    log = (data / "serve.log").open("w")
    command = [*_odin_command(), "serve", "--port", str(port), "--data-dir", str(data)]
    command += ["--bot-delay", "0", "--workers", "1", "--log-level", "warning"]
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=environment)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        assert process.poll() is None, (data / "serve.log").read_text()
        try:
            with urllib.request.urlopen(f"{base}/api/games", timeout=1) as answer:
                if answer.status == 200:
                    break
        except OSError:
            pass
        assert time.monotonic() < deadline, "odin serve did not answer within 30 s"
        time.sleep(0.1)
    try:
        yield base
    finally:
        process.terminate()
        process.wait(10)
        log.close()


def _errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


MY_TURN_OR_OVER = """() => { const s = window.odinTable.state;
    return Boolean(s && (s.outcome || (s.to_move === 0 && s.legal.length
        && !window.odinTable.connection.busy))); }"""


def test_its_board_plays_a_game_with_a_bot_to_the_end_and_replays_it(
    browser: Browser, server: str, artifacts: Path
) -> None:
    offered = {game["key"]: game for game in _get(f"{server}/api/games")["games"]}
    assert offered[GAME]["board"] == f"/games/{GAME}/board.js"
    table = _post(
        f"{server}/api/tables",
        {"game": GAME, "players": 2, "bots": {"1": "greedy"}, "options": {"pile": 11}},
    )["table"]
    seat = _post(f"{server}/api/tables/{table['id']}/seats/0", {"name": "Ada"})
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        errors = _errors(page)
        page.goto(server + "/static/favicon.svg")
        page.evaluate(
            """([id, token]) => localStorage.setItem("odin.seats", JSON.stringify(
                {[id]: {seat: 0, token, name: "Ada"}}))""",
            [table["id"], seat["token"]],
        )
        page.goto(f"{server}/t/{table['id']}")
        expect(page.get_by_test_id("ta-pile")).to_have_text("11 tokens left")
        hand = page.evaluate("window.odinTable.state.hand")
        expect(page.get_by_test_id("ta-hand")).to_have_text(
            "Your numbers: " + ", ".join(map(str, hand))
        )
        clicked: list[str] = []
        while True:
            page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
            mine = page.evaluate("window.odinTable.state")
            if mine["outcome"]:
                break
            buttons = page.get_by_test_id("ta-take")
            assert buttons.all_inner_texts() == mine["legal"]
            version = page.evaluate("window.odinTable.version")
            buttons.first.click()
            clicked.append(mine["legal"][0])
            page.wait_for_function("v => window.odinTable.version > v", arg=version)
        expect(page.get_by_test_id("final")).to_be_visible()
        page.screenshot(path=str(artifacts / "third-game-end-1280x720.png"))

        record = _get(f"{server}/api/tables/{table['id']}/record")
        assert record["actions"][::2] == clicked
        page.goto(f"{server}/t/{table['id']}/replay")
        expect(page.get_by_test_id("ta-step")).to_have_text("The pile before the first take")
        page.get_by_test_id("next").click()
        expect(page.get_by_test_id("ta-step")).to_have_text(record["actions"][0])
        assert errors == []
    finally:
        context.close()

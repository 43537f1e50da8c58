"""The tests' own third game in Chromium, with the board module it brings: take-away
installed as a package that publishes its plugin (nothing under ``src/`` knows it), offered
in the lobby (its own create form, its open tables, no Play now), a table with a bot played
to its end by clicking its board's buttons, its end frame, and its replay page drawn by its
board's ``replay``, with no page error."""

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
from plugins.takeaway.rules import TAKE_AWAY

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
        # The page's other modules (friends, the account bar) start the shell's words too:
        # they are loaded once a page, never again over the words the board added.
        again = page.evaluate(
            """async () => { const i18n = await import("/static/js/i18n.js");
                await i18n.initI18n(); return i18n.t("ta.pile", {n: 3}); }"""
        )
        assert again == "3 tokens left"
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


def test_it_is_offered_in_the_lobby(browser: Browser, server: str, artifacts: Path) -> None:
    """The lobby offers every installed game: choosing take-away shows its create form (its
    one table size, its bot levels by name, none of Odin's options: the rules' defaults),
    its open tables and no Play now (it has no presets); the table created from the form
    opens on its own board, and the choice is remembered."""
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        errors = _errors(page)
        page.goto(server + "/")
        choice = page.locator('[data-group="game"]')
        expect(choice).to_have_text(["Odin", "In the Name of Odin", "Take-away"])
        chosen = page.locator('[data-group="game"][aria-checked="true"]')
        expect(chosen).to_have_text("Odin")  # the server's first game, by default
        expect(page.get_by_test_id("playnow")).to_be_visible()
        expect(page.locator("#custom-target")).to_be_attached()  # Odin's own options

        choice.filter(has_text="Take-away").click()
        expect(page.locator("#create-form")).to_have_attribute("data-game", GAME)
        expect(chosen).to_have_text("Take-away")
        expect(page.get_by_text("Take tokens from a pile; the last token wins.")).to_be_visible()
        expect(page.get_by_test_id("playnow")).to_be_hidden()  # no Play now presets
        expect(page.locator('[data-group="players"]')).to_have_text(["2"])
        expect(page.locator("#seat-1 option")).to_have_text(
            ["A person", "Bot: Random", "Bot: Greedy"]
        )
        form = page.locator("#create-form")
        for odin in ("#custom-target", "details.rules", '[data-group="target"]'):
            expect(form.locator(odin)).to_have_count(0)
        expect(page.get_by_test_id("help-link")).to_be_hidden()  # it has no rules page
        expect(page.locator("details.how-to")).to_be_hidden()

        page.locator("#seat-1").select_option("greedy")
        page.screenshot(path=str(artifacts / "third-game-lobby-1280x720.png"), full_page=True)
        page.locator("#create").click()
        invite = page.get_by_test_id("invite").input_value()
        table_id = invite.rsplit("/", 1)[1]
        table = _get(f"{server}/api/tables/{table_id}")["table"]
        assert table["game"] == GAME
        assert [seat["bot"] for seat in table["seats"]] == [None, "greedy"]
        assert table["options"] == TAKE_AWAY.check_setup(2, {})  # the rules' defaults
        listed = page.locator(f'#open-tables [data-table="{table_id}"]')
        expect(listed).to_be_visible()  # among take-away's open tables

        page.reload()  # the choice is remembered
        expect(chosen).to_have_text("Take-away")
        expect(listed).to_be_visible()
        choice.filter(has_text="Odin").first.click()
        expect(chosen).to_have_text("Odin")
        expect(page.get_by_test_id("playnow")).to_be_visible()
        expect(listed).to_have_count(0)  # Odin's open tables hold no table of take-away
        choice.filter(has_text="Take-away").click()
        page.locator("#seat-1").select_option("random")
        # Its "random" level is described in its own words, not in Odin's (same key).
        expect(page.locator("#create-form .help").first).to_have_text("Takes any legal number.")
        page.locator("#create").click()
        page.locator("#go-to-table").click()
        page.locator("#name").fill("Ada")
        page.locator('button[data-seat="0"]').click()
        expect(page.get_by_test_id("ta-board")).to_be_visible()  # its own board
        expect(page.get_by_test_id("ta-pile")).to_have_text("15 tokens left")
        assert page.evaluate("window.odinTable.game") == GAME
        assert errors == []
    finally:
        context.close()

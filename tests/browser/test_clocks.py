"""Clocks in real Chromium (issue #9): a person closes the page of a real-time table and the
game goes on after their clock runs out; at a table without a clock the others vote an
absent person's seat to a bot, shown as "bot for <name>".

The clock here is a real one (the page counts down the server's deadline): a custom clock
of 8 s a move keeps the wait short; ``expect`` waits for what the page shows, no sleep.
Screenshots of each new state go to ``artifacts/screenshots/never-stall/``
(``docs/screenshots/`` with ``ODIN_SCREENSHOTS=docs``).
"""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .shots import shots_dir

pytestmark = pytest.mark.browser

SHOTS = shots_dir("never-stall")
SIZE = {"width": 1280, "height": 800}


def post(server: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        server + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


def seated_table(server: str, players: int, **settings: Any) -> tuple[str, list[str]]:
    table = post(
        server,
        "/api/tables",
        {"players": players, "options": {"one_hand": True, "first_leader": 1}, **settings},
    )["table"]
    tokens = [
        post(server, f"/api/tables/{table['id']}/seats/{s}", {"name": name})["token"]
        for s, name in zip(range(players), ("Ann", "Bob", "Cleo"), strict=False)
    ]
    return table["id"], tokens


def context(browser: Browser) -> BrowserContext:
    made = browser.new_context(viewport=SIZE, locale="en-GB")  # type: ignore[arg-type]
    made.set_default_timeout(15_000)
    return made


def open_seat(browser: Browser, server: str, table_id: str, token: str) -> Page:
    page = context(browser).new_page()
    page.goto(f"{server}/t/{table_id}#seat={token}")
    expect(page.get_by_test_id("game")).to_be_visible()
    return page


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_the_create_form_offers_a_clock_and_the_lobby_shows_it(
    browser: Browser, server: str
) -> None:
    page = context(browser).new_page()
    page.goto(server + "/")
    choice = page.get_by_test_id("clock-choice")
    choice.select_option("custom")
    expect(page.locator("#clock-clockMove")).to_be_visible()
    page.locator("#clock-clockMove").fill("20")
    choice.scroll_into_view_if_needed()
    shoot(page, "clock-create-form")
    page.locator("#create").click()
    created = page.locator("#open-tables .table-item").first
    expect(created.get_by_test_id("clock-summary")).to_contain_text("20 s a move")
    shoot(page, "clock-lobby")
    page.context.close()


def test_a_closed_page_does_not_stall_a_real_time_game(browser: Browser, server: str) -> None:
    # Bob's 15 s run from the game's start: long enough for two pages to open on a loaded
    # machine before they are over, so that Ann still sees them count down.
    clock = {"kind": "realtime", "move": 15, "reserve": 0, "bonus": 0}
    table_id, tokens = seated_table(server, 2, clock=clock)
    bob = open_seat(browser, server, table_id, tokens[1])
    bob.context.close()  # Bob leads, and is gone
    ann = open_seat(browser, server, table_id, tokens[0])
    running = ann.locator('.player[data-seat="1"] [data-testid="clock-running"]')
    expect(running).to_have_text(re.compile(r"^0:(0[0-9]|1[0-5])$"))
    shoot(ann, "clock-countdown")
    # the 15 s run out (up to 15 s after the countdown showed), then the stand-in moves
    stand_in = ann.locator('.player[data-seat="1"] [data-testid="stand-in"]')
    expect(stand_in).to_contain_text("1", timeout=30_000)
    expect(ann.get_by_test_id("turn")).to_contain_text("Your turn")  # the game went on
    expect(ann.locator('.player[data-seat="0"] [data-testid="clock-running"]')).to_be_visible()
    shoot(ann, "clock-stand-in")
    ann.context.close()


def test_the_others_vote_an_absent_player_to_a_bot(browser: Browser, server: str) -> None:
    table_id, tokens = seated_table(server, 3)
    ann = open_seat(browser, server, table_id, tokens[0])
    bob = open_seat(browser, server, table_id, tokens[1])
    vote = ann.get_by_test_id("vote-2")  # Cleo never came
    expect(vote).to_contain_text("Cleo")
    vote.click()
    expect(ann.get_by_test_id("vote-2")).to_contain_text("(1 vote)")
    expect(ann.get_by_test_id("vote-2")).to_be_disabled()
    shoot(ann, "clock-vote")
    bob.get_by_test_id("vote-2").click()
    for page in (ann, bob):
        expect(page.locator('.player[data-seat="2"] [data-testid="bot-for"]')).to_have_text(
            "bot for Cleo"
        )
    shoot(ann, "clock-bot-for")
    ann.context.close()
    bob.context.close()


def test_a_person_leaves_and_takes_the_seat_back(browser: Browser, server: str) -> None:
    table_id, tokens = seated_table(server, 2)
    bob = open_seat(browser, server, table_id, tokens[1])
    bob.once("dialog", lambda dialog: dialog.accept())
    bob.get_by_test_id("leave").click()
    mine = bob.locator('.player[data-seat="1"] [data-testid="bot-for"]')
    expect(mine).to_have_text("bot for Bob")
    take_back = bob.get_by_test_id("take-back")
    expect(take_back).to_be_visible()
    # While the bot plays the seat, the hand's actions are one: take it back.
    expect(bob.get_by_test_id("play")).to_have_count(0)
    expect(bob.get_by_test_id("take-back-bar")).to_be_visible()
    shoot(bob, "clock-take-back")
    bob.get_by_test_id("take-back-bar").click()
    expect(mine).to_have_count(0)
    expect(bob.get_by_test_id("leave")).to_be_visible()
    expect(bob.get_by_test_id("play")).to_be_visible()
    bob.context.close()


def test_the_replay_says_which_moves_a_bot_made_for_a_person(browser: Browser, server: str) -> None:
    table_id, tokens = seated_table(server, 2)
    watcher = context(browser).new_page()
    watcher.goto(f"{server}/t/{table_id}/watch")
    for token in tokens:  # both leave: bots play the game out for them
        post(server, f"/api/tables/{table_id}/leave", {"token": token})
    watcher.wait_for_function(
        "() => window.odinTable.table && window.odinTable.table.status === 'finished'"
    )
    watcher.goto(f"{server}/t/{table_id}/replay")
    expect(watcher.get_by_test_id("step")).to_contain_text("1 ")  # the deal
    watcher.get_by_test_id("next").click()  # the first move
    expect(watcher.locator(".rp-action")).to_contain_text("played by the bot that took the seat")
    shoot(watcher, "clock-replay-bot-moves")
    watcher.context.close()

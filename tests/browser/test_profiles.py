"""Profiles in Chromium: a guest's game follows them when they sign up; a rated player's
profile charts their rating; the leaderboard lists them (screenshots of both)."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import threading
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, ViewportSize, expect
from websockets.asyncio.client import connect

from .shots import shots_dir

pytestmark = pytest.mark.browser

SHOTS = shots_dir("people")
SIZE: ViewportSize = {"width": 1280, "height": 900}
PASSWORD = "a long enough password"
PACE = 0.08
"""Seconds between a scripted player's moves (the server allows 20 messages a second)."""


async def _rated_games(base: str, name: str, games: int) -> None:
    """``name`` signs up and plays ``games`` rated heads-up games against the random bot."""
    async with httpx.AsyncClient(base_url=base, timeout=20) as http:
        answer = await http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        for game in range(games):
            created = await http.post(
                "/api/tables",
                json={
                    "players": 2,
                    "bots": {"1": "random"},
                    "options": {"one_hand": True},
                    "rated": True,
                },
            )
            assert created.status_code == 201, created.text
            table_id = created.json()["table"]["id"]
            seat = await http.post(f"/api/tables/{table_id}/seats/0", json={"name": name})
            assert seat.status_code == 200, seat.text
            await _play(base, table_id, seat.json()["token"], random.Random(game))


async def _play(base: str, table_id: str, token: str, rng: random.Random) -> None:
    """Seat 0 plays random legal moves until the game is over (the bot plays seat 1)."""
    async with connect(base.replace("http://", "ws://") + f"/ws/{table_id}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "version": None}))
        state: dict[str, Any] | None = None
        version, pending = 0, False
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 20))
            if message["type"] == "update":
                state, version = message["state"], message["version"]
            elif message["type"] in ("ack", "error"):
                pending = False  # (every accepted move is followed by an update)
                if message["type"] == "ack":
                    continue
            else:
                continue
            if state is None:
                continue
            if state["outcome"] is not None:
                return
            if state["to_move"] == 0 and not pending:
                pending = True
                act = {"type": "act", "action": rng.choice(state["legal"]), "version": version}
                await ws.send(json.dumps({**act, "id": secrets.token_hex(8)}))
                # A person's pace: the browser tests' server keeps the default limit of 20
                # messages a second, which an instant scripted player would pass.
                await asyncio.sleep(PACE)


def _in_a_thread(work: Any) -> None:
    """Run a coroutine to its end in a thread of its own (Playwright's loop holds this one)."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(work)
        except BaseException as error:
            failure.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    assert not thread.is_alive(), "the scripted games did not end within 60 s"
    if failure:
        raise failure[0]


def test_a_guest_signs_up_and_finds_their_game_on_their_profile(
    browser: Browser, server: str
) -> None:
    context = browser.new_context(viewport=SIZE)
    page = context.new_page()
    try:
        page.goto(f"{server}/")
        # A guest's table against a bot: they take a seat as the page would and keep its
        # token in this browser, then hand the seat to a bot, which plays it to the end.
        table_id = page.evaluate(
            """async () => {
              const post = (url, body) => fetch(url, {method: "POST",
                headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
                .then((r) => r.json());
              const made = await post("/api/tables", {players: 2, bots: {"1": "random"},
                options: {one_hand: true}});
              const id = made.table.id;
              const sat = await post(`/api/tables/${id}/seats/0`, {name: "Guest"});
              localStorage.setItem("odin.seats", JSON.stringify({[id]: {seat: 0,
                token: sat.token, name: "Guest", saved: Date.now()}}));
              await post(`/api/tables/${id}/leave`, {token: sat.token});
              return id;
            }"""
        )
        page.wait_for_function(
            """async (id) => (await (await fetch(`/api/tables/${id}`)).json()).table.status
                 === "finished" """,
            arg=table_id,
            polling=100,
            timeout=20_000,
        )
        name = f"guest{secrets.token_hex(3)}"
        status = page.evaluate(
            """async ([name, password]) => {
              const seats = Object.values(JSON.parse(localStorage.getItem("odin.seats")));
              const answer = await fetch("/api/account/signup", {method: "POST",
                headers: {"Content-Type": "application/json"},
                body: JSON.stringify({name, password, seats: seats.map((s) => s.token)})});
              return answer.status;
            }""",
            [name, PASSWORD],
        )
        assert status == 201
        page.goto(f"{server}/u/{name}")
        expect(page.get_by_test_id("profile-name")).to_have_text(name)
        recent = page.get_by_test_id("recent-games")
        expect(recent.locator(f'a[href="/t/{table_id}/replay"]')).to_be_visible()
        expect(page.get_by_test_id("games-played")).to_contain_text("1")
        expect(page.get_by_test_id("rating-heads-up")).to_be_visible()
    finally:
        context.close()


def test_a_rated_players_profile_and_the_leaderboard(browser: Browser, server: str) -> None:
    name = f"Rita{secrets.token_hex(2)}"
    _in_a_thread(_rated_games(server, name, 4))
    for theme in ("light", "dark"):
        context = browser.new_context(viewport=SIZE, color_scheme=theme)
        page = context.new_page()
        try:
            page.goto(f"{server}/u/{name}")
            panel = page.get_by_test_id("rating-heads-up")
            expect(panel.get_by_test_id("rating-chart")).to_be_visible()
            expect(panel.locator(".rating-chart circle")).to_have_count(4)
            rows = panel.get_by_test_id("rating-chart-text").locator("tbody tr")
            expect(rows).to_have_count(4)
            expect(panel).to_contain_text("provisional")
            page.screenshot(path=str(SHOTS / f"profile-{theme}.png"), full_page=True)
            page.goto(f"{server}/leaderboard")
            expect(page.get_by_test_id("leaderboard-empty")).to_be_visible()  # all provisional
            page.locator("#show-provisional").check()
            board = page.get_by_test_id("leaderboard")
            expect(board.get_by_role("link", name=name)).to_be_visible()
            page.screenshot(path=str(SHOTS / f"leaderboard-{theme}.png"), full_page=True)
            board.get_by_role("link", name=name).click()
            expect(page.get_by_test_id("profile-name")).to_have_text(name)
        finally:
            context.close()

"""Profiles in Chromium: a guest's game follows them when they sign up; a rated player's
profile charts their rating; the leaderboard lists them (screenshots of both)."""

from __future__ import annotations

import asyncio
import json
import random
import re
import secrets
import threading
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from websockets.asyncio.client import connect

from .shots import shots_dir
from .test_axe import _serious
from .test_pages import PHONE, header_problems, longest_name

pytestmark = pytest.mark.browser

SHOTS = shots_dir("people")
SIZE: ViewportSize = {"width": 1280, "height": 900}
PASSWORD = "a long enough password"


async def _rated_games(base: str, name: str, tables: list[tuple[str, ...]]) -> None:
    """``name`` signs up and plays one rated game at seat 0 for each entry of ``tables``,
    against its bots (one bot: heads-up; two or more: the 3-6 players class)."""
    async with httpx.AsyncClient(base_url=base, timeout=20) as http:
        answer = await http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        http.headers["X-CSRF-Token"] = answer.json()["csrf"]  # a rated table is a checked write
        for game, bots in enumerate(tables):
            created = await http.post(
                "/api/tables",
                json={
                    "players": 1 + len(bots),
                    "bots": {str(seat + 1): level for seat, level in enumerate(bots)},
                    "options": {"one_hand": True},
                    "rated": True,
                },
            )
            assert created.status_code == 201, created.text
            table_id = created.json()["table"]["id"]
            seat = await http.post(f"/api/tables/{table_id}/seats/0", json={"name": name})
            assert seat.status_code == 200, seat.text
            await _play(base, table_id, seat.json()["token"], random.Random(f"{name}{game}"))


class _Pace:
    """The server's message budget of one connection (a bucket of ``BURST`` refilled at
    ``RATE`` a second, its defaults), kept on the client's side: a scripted player waits
    only when the bucket is empty, as a person's pace would."""

    RATE, BURST = 20.0, 18.0  # (the server's 20 and 20, less a margin for the clocks)

    def __init__(self) -> None:
        self.tokens, self.stamp = self.BURST, time.monotonic()

    async def take(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.BURST, self.tokens + (now - self.stamp) * self.RATE)
        self.stamp = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / self.RATE)
            self.stamp, self.tokens = time.monotonic(), 1.0
        self.tokens -= 1


async def _play(base: str, table_id: str, token: str, rng: random.Random) -> None:
    """Seat 0 plays random legal moves until the game is over (bots play the others)."""
    pace = _Pace()
    async with connect(base.replace("http://", "ws://") + f"/ws/{table_id}") as ws:
        await pace.take()
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
                await pace.take()
                await ws.send(json.dumps({**act, "id": secrets.token_hex(8)}))


async def _a_board(base: str, rita: str, others: list[str], newcomer: str, long: str) -> None:
    """A leaderboard worth the name: ``rita`` plays 4 heads-up games and 2 of three players,
    ``newcomer`` 6 heads-up games (both provisional: fewer than 10), each of ``others`` 18
    heads-up games against the random bot, which settles most ratings (10 games and a
    small enough spread), ``long`` (the widest name there can be) one; all at once."""
    heads_up, three = ("random",), ("random", "heuristic")
    await asyncio.gather(
        _rated_games(base, rita, [heads_up] * 4 + [three] * 2),
        _rated_games(base, newcomer, [heads_up] * 6),
        _rated_games(base, long, [heads_up]),
        *(_rated_games(base, name, [heads_up] * 18) for name in others),
    )


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


_FITS = """() => {
  const scroller = document.querySelector(".ranking-scroll");
  return scroller.scrollWidth <= scroller.clientWidth;
}"""
"""Whether the leaderboard fits its box (it would scroll sideways, not widen the page)."""


def _misaligned(page: Page) -> list[str]:
    """The leaderboard's cells that are not under their heading (left edge and width)."""
    found: list[str] = page.evaluate(
        """() => {
          const table = document.querySelector('[data-testid="leaderboard"]');
          const heads = [...table.tHead.rows[0].cells].map((c) => c.getBoundingClientRect());
          const wrong = [];
          for (const row of table.tBodies[0].rows) {
            const who = row.textContent;
            if (row.cells.length !== heads.length) wrong.push(`${who}: ${row.cells.length} cells`);
            [...row.cells].forEach((cell, i) => {
              const box = cell.getBoundingClientRect();
              const off = (a, b) => Math.abs(a - b) > 1;
              if (!heads[i] || off(box.left, heads[i].left) || off(box.width, heads[i].width))
                wrong.push(`${who}: cell ${i}`);
            });
          }
          return wrong;
        }"""
    )
    return found


def test_a_rated_players_profile_and_the_leaderboard(browser: Browser, server: str) -> None:
    tag = secrets.token_hex(2)
    name = f"Rita{tag}"
    others = [f"{who}{tag}" for who in ("Odo", "Frigg", "Sif", "Loki")]
    newcomer = f"Tyr{tag}"
    # Other tests' accounts share this server's board; whatever they are, the widest
    # name there can be is on it too.
    long = longest_name()
    _in_a_thread(_a_board(server, name, others, newcomer, long))
    query = {"class": "heads-up", "provisional": "true", "limit": "100"}
    everyone = {name, newcomer, long, *others}
    games = {newcomer: 6, long: 1, name: 4} | dict.fromkeys(others, 18)
    # A finished game is rated just after its last move is shown (the server settles it
    # in a task of its own): on a loaded machine the board may be a game behind at first.
    deadline = time.monotonic() + 30
    while True:
        listed = httpx.get(f"{server}/api/leaderboard", params=query).json()
        ours = {e["name"]: e for e in listed["entries"] if e["name"] in everyone}
        counted = {who: entry["games"] for who, entry in ours.items()}
        if counted == games or time.monotonic() > deadline:
            break
        time.sleep(0.2)  # polling the board until the last results are settled
    assert set(ours) == everyone
    assert ours[newcomer]["provisional"] and ours[newcomer]["games"] == 6
    assert ours[long]["provisional"] and ours[long]["games"] == 1
    assert ours[name]["provisional"] and ours[name]["games"] == 4
    assert all(ours[other]["games"] == 18 for other in others)
    settled = [other for other in others if not ours[other]["provisional"]]
    state: Any = None
    for theme in ("light", "dark"):
        # bypass_csp: the accessibility check injects axe-core as a script tag.
        context = browser.new_context(
            viewport=SIZE, color_scheme=theme, bypass_csp=True, storage_state=state
        )
        page = context.new_page()
        try:
            if state is None:
                # Rita logs in; her account page and the account bar's name lead to her profile.
                page.goto(f"{server}/account#login")
                page.get_by_test_id("login-name").fill(name)
                page.get_by_test_id("login-password").fill(PASSWORD)
                page.get_by_test_id("login-submit").click()
                page.wait_for_url(f"{server}/account")
                own = page.get_by_test_id("account-own-profile")
                expect(own).to_have_attribute("href", f"/u/{name}")
                page.get_by_test_id("account-profile-link").click()
                page.wait_for_url(f"{server}/u/{name}")
                state = context.storage_state()
            else:
                page.goto(f"{server}/u/{name}")
            expect(page.get_by_test_id("account-name")).to_contain_text(name)
            expect(page.get_by_test_id("account-page-link")).to_have_attribute("href", "/account")
            panel = page.get_by_test_id("rating-heads-up")
            expect(panel.get_by_test_id("rating-chart")).to_be_visible()
            expect(panel.locator(".rating-chart circle")).to_have_count(4)
            rows = panel.get_by_test_id("rating-chart-text").locator("tbody tr")
            expect(rows).to_have_count(4)
            expect(panel).to_contain_text("provisional")
            multi = page.get_by_test_id("rating-multi")
            expect(multi.locator(".rating-chart circle")).to_have_count(2)
            assert _serious(page) == [], f"profile, {theme}"
            page.screenshot(path=str(SHOTS / f"profile-{theme}.png"), full_page=True)

            page.goto(f"{server}/leaderboard")
            # Settled ratings only, at first; then the provisional ones too, marked.
            if settled:
                board = page.get_by_test_id("leaderboard")
                expect(board.get_by_role("link", name=settled[0], exact=True)).to_be_visible()
                expect(board.get_by_test_id("provisional")).to_have_count(0)
                expect(board.get_by_role("link", name=name, exact=True)).to_have_count(0)
            else:
                expect(page.get_by_test_id("leaderboard-empty")).to_be_visible()
            page.locator("#show-provisional").check()
            board = page.get_by_test_id("leaderboard")
            expect(board.get_by_test_id("leaderboard-row")).to_have_count(min(listed["total"], 25))
            for entry in ours.values():
                row = board.get_by_test_id("leaderboard-row").filter(
                    has=page.get_by_role("link", name=entry["name"], exact=True)
                )
                expect(row.locator("td").nth(1)).to_have_text(str(entry["points"]))
                marks = 1 if entry["provisional"] else 0
                expect(row.get_by_test_id("provisional")).to_have_count(marks)
            me = board.locator("tr.me")
            expect(me).to_have_count(1)
            expect(me.get_by_role("link")).to_have_text(name)
            assert _misaligned(page) == []
            assert _serious(page) == [], f"leaderboard, {theme}"
            page.screenshot(path=str(SHOTS / f"leaderboard-{theme}.png"), full_page=True)
            if theme == "light":  # a phone: the same columns, nothing wider than the screen
                page.set_viewport_size({"width": 390, "height": 844})
                page.screenshot(path=str(SHOTS / "leaderboard-phone.png"), full_page=True)
                assert _misaligned(page) == []
                assert header_problems(page) == []  # (the page no wider than the screen)
                page.set_viewport_size(SIZE)
            board.get_by_role("link", name=others[0], exact=True).click()
            expect(page.get_by_test_id("profile-name")).to_have_text(others[0])
        finally:
            context.close()

    # A phone, signed in with the widest name: the account bar, its row with both badges
    # (you, provisional), and every page of the board fit the screen.
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        page.goto(f"{server}/account#login")
        page.get_by_test_id("login-name").fill(long)
        page.get_by_test_id("login-password").fill(PASSWORD)
        page.get_by_test_id("login-submit").click()
        page.wait_for_url(f"{server}/account")
        caption = page.get_by_test_id("leaderboard").locator("caption")
        for lang in ("de", "fr", "sv", "ca", "en"):  # (their headings differ in width)
            page.evaluate("(lang) => localStorage.setItem('odin.lang', lang)", lang)
            page.goto(f"{server}/leaderboard")
            expect(page.get_by_test_id("account-name")).to_contain_text(long)
            page.locator("#show-provisional").check()
            expect(caption).to_have_text(re.compile(rf"· 1–\d+ \D+ {listed['total']}$"))
            assert header_problems(page) == [], lang
            assert _misaligned(page) == [], lang
            assert page.evaluate(_FITS), f"{lang}: the table scrolls sideways"
        first, mine = 1, 0
        while True:  # every page of the board, in English
            expect(caption).to_have_text(re.compile(rf"· {first}–\d+ of {listed['total']}$"))
            assert header_problems(page) == [], f"from {first}"
            assert _misaligned(page) == [], f"from {first}"
            me = page.locator("tr.me")
            if me.count():
                mine += 1
                expect(me.locator(".badge.you")).to_be_visible()
                expect(me.get_by_test_id("provisional")).to_be_visible()
                expect(me.get_by_role("link")).to_have_text(long)
            following = page.locator("nav.pager button").nth(1)
            if following.is_disabled():
                break
            following.click()
            first += 25
        assert mine == 1
    finally:
        context.close()

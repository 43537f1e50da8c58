"""Chat and rematch in real Chromium (issue #9): two players and a spectator chat (text,
reactions, a spectator not heard by the players, a mute that outlives a reload), the chat
in the replay among the moves, and a rematch where one player declines.

Screenshots for the closing note go to artifacts/screenshots/never-stall/
(docs/screenshots/ with ODIN_SCREENSHOTS=docs).
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    ViewportSize,
    WebSocketRoute,
    expect,
)

from .shots import shots_dir

pytestmark = pytest.mark.browser

SHOTS = shots_dir("never-stall")
SCREEN: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}


def _post(server: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{server}{path}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


def _context(browser: Browser) -> BrowserContext:
    context = browser.new_context(viewport=SCREEN, locale="en-GB")
    context.set_default_timeout(15_000)
    return context


def _open(
    context: BrowserContext, server: str, path: str, seats: dict[str, Any], errors: list[str]
) -> Page:
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    page.goto(f"{server}/")
    page.evaluate("(s) => localStorage.setItem('odin.seats', JSON.stringify(s))", seats)
    page.goto(f"{server}{path}")
    page.wait_for_function("() => window.odinTable && window.odinTable.state")
    return page


def _say(page: Page, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-send").click()


def _lines(page: Page) -> list[str]:
    texts: list[str] = page.locator('[data-testid="chat-lines"] .chat-text').all_inner_texts()
    return texts


def _move(pages: list[Page], moves: int) -> None:
    """Play ``moves`` moves (or to the end) through the pages' own connections: whoever
    is to move plays its first legal action; then wait until every page has seen it."""
    for _ in range(moves):
        if pages[0].evaluate("Boolean(window.odinTable.state.outcome)"):
            return
        version = pages[0].evaluate("window.odinTable.version")
        for page in pages:
            page.evaluate(
                """() => { const s = window.odinTable;
                if (s.state.to_move === s.seat && s.state.legal.length)
                    s.connection.act(s.state.legal[0], s.version); }"""
            )
        for page in pages:
            page.wait_for_function("v => window.odinTable.version > v", arg=version)


def test_chat_between_two_players_and_a_spectator_then_a_rematch(
    browser: Browser, server: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    table = _post(server, "/api/tables", {"players": 2, "options": {"one_hand": True}})["table"]
    table_id = table["id"]
    ann_token = _post(server, f"/api/tables/{table_id}/seats/0", {"name": "Ann"})["token"]
    bob_token = _post(server, f"/api/tables/{table_id}/seats/1", {"name": "Bob"})["token"]
    contexts = [_context(browser) for _ in range(3)]
    errors: list[str] = []
    try:
        ann_seats = {table_id: {"seat": 0, "token": ann_token, "name": "Ann"}}
        bob_seats = {table_id: {"seat": 1, "token": bob_token, "name": "Bob"}}
        ann = _open(contexts[0], server, f"/t/{table_id}", ann_seats, errors)
        bob = _open(contexts[1], server, f"/t/{table_id}", bob_seats, errors)
        eve = _open(contexts[2], server, f"/t/{table_id}/watch", {}, errors)

        # Text is shown as written: markup stays text.
        _say(ann, "Hello <b>Bob</b>")
        expect(bob.locator(".chat-text").first).to_have_text("Hello <b>Bob</b>")
        assert bob.locator('[data-testid="chat-lines"] b').count() == 0
        bob.get_by_test_id("react-gg").click()
        expect(ann.locator(".chat-text.reaction")).to_have_text("✌ Good game")
        # A spectator: heard by spectators only (this table keeps the default).
        expect(eve.get_by_test_id("chat-name")).to_be_visible()
        expect(eve.get_by_test_id("chat-note")).to_contain_text("Only spectators see")
        expect(ann.get_by_test_id("chat-name")).to_be_hidden()
        eve.get_by_test_id("chat-name").fill("Eve")
        _say(eve, "Go Ann!")
        expect(eve.locator(".chat-line", has_text="Go Ann!")).to_contain_text("Eve")
        _move([ann, bob], 3)
        _say(ann, "halfway")
        expect(eve.locator(".chat-text", has_text="halfway")).to_be_visible()
        expect(bob.locator(".chat-text", has_text="halfway")).to_be_visible()
        assert "Go Ann!" not in _lines(bob) and "Go Ann!" not in _lines(ann)
        eve.screenshot(path=str(SHOTS / "chat-reactions.png"))

        # Bob mutes Ann; the page remembers it across a reload.
        bob.locator('.chat-line[data-author="s0"] [data-testid="chat-mute"]').first.click()
        expect(bob.locator('.chat-line[data-author="s0"]')).to_have_count(0)
        _say(ann, "are you there?")
        expect(eve.locator(".chat-text", has_text="are you there?")).to_be_visible()
        bob.reload()
        bob.wait_for_function("() => window.odinTable && window.odinTable.state")
        expect(bob.get_by_test_id("chat-unmute")).to_have_text("Show Ann again")
        expect(bob.locator(".chat-text", has_text="✌ Good game")).to_be_visible()
        assert not any("Hello" in line or "are you there" in line for line in _lines(bob))
        bob.get_by_test_id("chat-unmute").click()
        _say(ann, "welcome back")
        expect(bob.locator(".chat-text", has_text="welcome back")).to_be_visible()

        # The game ends; Ann accepts a rematch, Bob declines: a bot takes his seat.
        _move([ann, bob], 500)
        expect(ann.get_by_test_id("rematch")).to_be_visible()
        expect(eve.get_by_test_id("rematch-accept")).to_have_count(0)
        ann.get_by_test_id("rematch-accept").click()
        expect(bob.get_by_test_id("rematch-0")).to_have_attribute("data-answer", "accept")
        expect(eve.get_by_test_id("rematch-1")).to_have_attribute("data-answer", "waiting")
        ann.get_by_test_id("rematch").scroll_into_view_if_needed()
        ann.screenshot(path=str(SHOTS / "rematch-accepted.png"))
        bob.get_by_test_id("rematch-decline").click()
        expect(ann.get_by_test_id("rematch-1")).to_have_attribute("data-answer", "decline")
        expect(ann.get_by_test_id("rematch-go")).to_be_visible()
        expect(bob.get_by_test_id("rematch-watch")).to_be_visible()
        ann.get_by_test_id("rematch").scroll_into_view_if_needed()
        ann.screenshot(path=str(SHOTS / "rematch-declined.png"))
        ann.get_by_test_id("rematch-go").click()
        ann.wait_for_url(re.compile(r"/t/(?!" + re.escape(table_id) + r")[^/]+$"))
        ann.wait_for_function("() => window.odinTable && window.odinTable.state")
        assert ann.evaluate("window.odinTable.seat") == 0
        seats = ann.evaluate("window.odinTable.table.seats.map((s) => [s.name, s.bot])")
        assert seats == [["Ann", None], [None, "heuristic"]]

        # The replay shows the chat among the moves.
        replay = contexts[2].new_page()
        replay.goto(f"{server}/t/{table_id}/replay")
        chat = replay.get_by_test_id("replay-chat")
        expect(chat).to_contain_text("Hello <b>Bob</b>")
        expect(chat).not_to_contain_text("halfway")  # said after the third move
        replay.get_by_test_id("last").click()
        expect(chat).to_contain_text("halfway")
        expect(chat).to_contain_text("Go Ann!")
        chat.scroll_into_view_if_needed()
        replay.screenshot(path=str(SHOTS / "chat-replay.png"))
        assert errors == []
    finally:
        for context in contexts:
            context.close()


def test_the_lobby_lets_players_hear_spectators(browser: Browser, server: str) -> None:
    """The create form's chat option reaches the table; a spectator is told who reads them."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = _context(browser)
    try:
        page = context.new_page()
        page.goto(f"{server}/")
        page.locator('[data-group="players"][data-value="2"]').click()
        page.locator("#chat-spectators").check()
        page.locator("#chat-spectators").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "chat-create-option.png"))
        page.locator("#create").click()
        invite = page.get_by_test_id("invite").input_value()
        table_id = invite.rsplit("/", 1)[1]
        with urllib.request.urlopen(f"{server}/api/tables/{table_id}", timeout=10) as answer:
            assert json.loads(answer.read())["table"]["chat"] == {"spectators": True}
        page.goto(f"{server}/t/{table_id}/watch")
        expect(page.get_by_test_id("chat-note")).to_have_text("Players see what you write.")
        quiet = _post(server, "/api/tables", {"players": 2})["table"]
        page.goto(f"{server}/t/{quiet['id']}/watch")
        expect(page.get_by_test_id("chat-note")).to_have_text(
            "Only spectators see what you write at this table."
        )
        # On a phone the chat is in the side drawer: a new line is told in a toast.
        game = _post(
            server,
            "/api/tables",
            {"players": 2, "bots": {"1": "random"}, "chat": {"spectators": True}},
        )["table"]
        token = _post(server, f"/api/tables/{game['id']}/seats/0", {"name": "Ann"})["token"]
        phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        errors: list[str] = []
        ann = _open(
            phone, server, f"/t/{game['id']}", {game["id"]: {"seat": 0, "token": token}}, errors
        )
        expect(ann.get_by_test_id("chat")).to_be_hidden()
        page.goto(f"{server}/t/{game['id']}/watch")
        page.get_by_test_id("chat-name").fill("Eve")
        _say(page, "hello from the rail")
        expect(ann.locator("#toast")).to_have_text("Eve: hello from the rail")
        phone.close()
        assert errors == []
    finally:
        context.close()


def test_what_a_spectator_types_before_the_game_shows_is_kept(
    browser: Browser, server: str
) -> None:
    """The chat waits outside the table until the first position arrives, then moves into
    it: the name being typed keeps the focus and every key (CI once lost a whole name this
    way, and the line went out as "Spectator")."""
    game = _post(server, "/api/tables", {"players": 2, "bots": {"1": "random"}})["table"]
    _post(server, f"/api/tables/{game['id']}/seats/0", {"name": "Ann"})
    context = _context(browser)
    held: list[str | bytes] = []
    holding = [True]

    def hold(route: WebSocketRoute) -> None:
        """The page's socket, the server's messages held back while ``holding``."""
        upstream = route.connect_to_server()
        upstream.on_message(
            lambda message: held.append(message) if holding[0] else route.send(message)
        )
        routes.append(route)

    routes: list[WebSocketRoute] = []
    try:
        page = context.new_page()
        page.route_web_socket(re.compile(r"/ws/"), hold)
        page.goto(f"{server}/t/{game['id']}/watch")
        expect(page.locator("p.loading")).to_be_visible()  # no position yet
        name = page.get_by_test_id("chat-name")
        name.click()
        page.keyboard.type("Ev")
        deadline = time.monotonic() + 15
        while not any('"update"' in str(message) for message in held):  # welcome, position
            assert time.monotonic() < deadline, f"the server sent only {held}"
            page.wait_for_timeout(20)  # lets Playwright hand over the socket's messages
        holding[0] = False
        for message in held:
            routes[0].send(message)
        expect(page.locator("body.in-game")).to_be_attached()  # the chat moved into the table
        page.keyboard.type("e")
        expect(name).to_have_value("Eve")
        expect(name).to_be_focused()
    finally:
        context.close()

"""The one-screen table: on a laptop and on a phone, on your turn, every card of a 9-card
hand and the Play button are inside the window without scrolling; the other players sit
around the felt; the scores and moves are a side panel on desktop and a drawer on phones.
Screenshots of each state go to artifacts/browser/."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

pytestmark = pytest.mark.browser

SIZES: dict[str, dict[str, Any]] = {
    "1366x768": {"viewport": {"width": 1366, "height": 768}},
    "1280x720": {"viewport": {"width": 1280, "height": 720}},
    "390x844": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    },
    "360x640": {
        "viewport": {"width": 360, "height": 640},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    },
}


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def _seated_table(server: str, players: int = 4) -> tuple[str, str]:
    """A table where I (seat 0, Ann) lead first, with people who join through the API and
    never move (not bots: the server limits the bot seats one client may hold at unfinished
    tables); returns the table id and my token."""
    table = _post(
        f"{server}/api/tables",
        {"players": players, "options": {"target": 15, "first_leader": 0}},
    )["table"]
    for seat in range(1, players):
        _post(f"{server}/api/tables/{table['id']}/seats/{seat}", {"name": f"Player {seat + 1}"})
    seat = _post(f"{server}/api/tables/{table['id']}/seats/0", {"name": "Ann"})
    return table["id"], seat["token"]


@pytest.fixture
def context(browser: Browser, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    context = browser.new_context(locale="en-GB", **SIZES[request.param])
    context.set_default_timeout(15_000)
    try:
        yield context
    finally:
        context.close()


def _open_seat(page: Page, server: str, table_id: str, token: str) -> None:
    page.goto(server + "/static/favicon.svg")
    page.evaluate(
        """([id, token]) => localStorage.setItem("odin.seats", JSON.stringify(
            {[id]: {seat: 0, token, name: "Ann"}}))""",
        [table_id, token],
    )
    page.goto(f"{server}/t/{table_id}")


def _inside(page: Page, selector: str) -> int:
    """Every element matching selector lies wholly inside the window; returns how many."""
    viewport = page.viewport_size
    assert viewport is not None
    boxes = [el.bounding_box() for el in page.locator(selector).all()]
    for box in boxes:
        assert box is not None, f"{selector} is not displayed"
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 0.5, (selector, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"] + 0.5, (
            selector,
            box,
        )
    return len(boxes)


def _no_scrolling(page: Page) -> None:
    sizes = page.evaluate(
        """() => [document.documentElement.scrollWidth, window.innerWidth,
                  document.documentElement.scrollHeight, window.innerHeight,
                  document.querySelector("main").scrollHeight,
                  document.querySelector("main").clientHeight]"""
    )
    assert sizes[0] <= sizes[1], f"page is {sizes[0]}px wide in a {sizes[1]}px window"
    assert sizes[2] <= sizes[3], f"page is {sizes[2]}px high in a {sizes[3]}px window"
    assert sizes[4] <= sizes[5], f"the game is {sizes[4]}px high in {sizes[5]}px"


@pytest.mark.parametrize("context", list(SIZES), indirect=True)
def test_your_turn_fits_one_screen(
    context: BrowserContext, server: str, artifacts: Path, request: pytest.FixtureRequest
) -> None:
    size = request.node.callspec.params["context"]
    table_id, token = _seated_table(server)
    page = context.new_page()
    _open_seat(page, server, table_id, token)
    hand = page.get_by_test_id("hand").locator("button.card")
    expect(hand).to_have_count(9)
    expect(page.get_by_test_id("turn")).to_have_text("Your turn: lead one card")
    hint = "Tap cards" if SIZES[size].get("has_touch") else "Click cards"
    expect(page.locator("#selection")).to_contain_text(hint)
    first = hand.first
    if SIZES[size].get("has_touch"):
        first.tap()
    else:
        first.click()
    expect(page.get_by_test_id("play")).to_be_enabled()
    _no_scrolling(page)
    assert _inside(page, '[data-testid="hand"] button.card') == 9
    for name in ("play", "pass", "clear", "turn"):
        _inside(page, f'[data-testid="{name}"]')
    # The other three players sit around the felt, each with its slots for later features.
    players = page.locator(".ring .player")
    expect(players).to_have_count(3)
    assert _inside(page, ".ring .player") == 3
    expect(players.first.locator('[data-slot="clock"]')).to_have_count(1)
    expect(players.first.locator('[data-slot="presence"]')).to_have_count(1)
    places = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.ring .player')].map(
            (p) => [p.dataset.seat, p.className.split(" ")[1]]))"""
    )
    assert places == {"1": "place-left", "2": "place-top", "3": "place-right"}
    page.screenshot(path=str(artifacts / f"table-lead-{size}.png"))

    side = page.locator("#side")
    if SIZES[size].get("is_mobile"):
        # On a phone the scores and moves are a drawer, closed until asked for.
        expect(side).to_be_hidden()
        page.get_by_test_id("drawer-toggle").tap()
        expect(side.locator(".scores")).to_be_visible()
        page.get_by_test_id("tab-log").tap()
        expect(side.get_by_test_id("log")).to_be_visible()
        page.screenshot(path=str(artifacts / f"table-drawer-{size}.png"))
        side.locator(".drawer-close").tap()
        expect(side).to_be_hidden()
    else:
        expect(side.locator(".scores")).to_be_visible()
        page.get_by_test_id("tab-log").click()
        expect(side.get_by_test_id("log")).to_contain_text("Hand 1")
        _inside(page, "#side")

    # Lead; the next player is to play: the set lies on the felt with who played it
    # and its value.
    page.get_by_test_id("play").click()
    page.wait_for_function("() => window.odinTable.state.to_move === 1")
    expect(page.get_by_test_id("table-area")).to_contain_text("Played by Ann · Worth")
    expect(page.get_by_test_id("turn")).to_have_text("Player 2 is playing")
    page.screenshot(path=str(artifacts / f"table-others-turn-{size}.png"))


@pytest.mark.parametrize("context", ["1366x768", "390x844"], indirect=True)
def test_a_spectator_sees_everyone_around_the_table(
    context: BrowserContext, server: str, artifacts: Path, request: pytest.FixtureRequest
) -> None:
    size = request.node.callspec.params["context"]
    table_id, _ = _seated_table(server, players=5)
    page = context.new_page()
    page.goto(f"{server}/t/{table_id}/watch")
    expect(page.locator(".ring .player")).to_have_count(5)
    expect(page.locator(".myseat")).to_have_count(0)
    _no_scrolling(page)
    assert _inside(page, ".ring .player") == 5
    page.screenshot(path=str(artifacts / f"table-spectator-{size}.png"))
    page.evaluate("localStorage.setItem('odin.prefs', JSON.stringify({theme: 'dark'}))")
    page.reload()
    expect(page.locator(".ring .player")).to_have_count(5)
    page.screenshot(path=str(artifacts / f"table-spectator-dark-{size}.png"))


@pytest.mark.parametrize("context", ["1280x720"], indirect=True)
def test_keyboard_play_and_spoken_moves(context: BrowserContext, server: str) -> None:
    """Arrow keys move between the cards, Space selects, Enter plays; focus never looks
    like selection; every move is told to screen readers."""
    table_id, token = _seated_table(server)
    page = context.new_page()
    _open_seat(page, server, table_id, token)
    hand = page.get_by_test_id("hand").locator("button.card")
    expect(hand).to_have_count(9)
    cards = [c.get_attribute("data-card") for c in hand.all()]
    focused = "() => document.activeElement.dataset.card"
    hand.first.focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == cards[1]
    page.keyboard.press("End")
    assert page.evaluate(focused) == cards[8]
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == cards[0]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Space")
    expect(hand.nth(8)).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(focused) == cards[8]
    page.keyboard.press("Home")
    looks = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="hand"] button.card')].map((b) => {
            const s = getComputedStyle(b);
            return {outline: s.outlineStyle, ring: s.boxShadow.includes("rgb(242, 183, 5)"),
                    check: getComputedStyle(b, "::before").content};
        })"""
    )
    assert looks[0]["outline"] == "dashed" and not looks[0]["ring"]  # focused, not selected
    assert looks[8]["outline"] == "none" and looks[8]["ring"]  # selected, not focused
    assert looks[8]["check"] == '"✓"' and looks[0]["check"] == "none"
    page.keyboard.press("Enter")
    expect(hand).to_have_count(8)
    moves = page.get_by_test_id("moves-announcer")
    expect(moves).to_have_attribute("aria-live", "polite")
    label = page.evaluate(
        "async (c) => (await import('/games/odin/card-view.js')).cardLabel(c)", cards[8]
    )
    expect(moves).to_contain_text(f"Ann plays {label}")


@pytest.mark.parametrize("context", ["1280x720"], indirect=True)
def test_cards_keep_their_colour_and_symbol(context: BrowserContext, server: str) -> None:
    """Small cards show their colour's symbol; unusable cards stay in their colour."""
    page = context.new_page()
    page.goto(server + "/games/odin/rules")  # an Odin page: its cards' stylesheet is there
    expect(page.get_by_test_id("example").first).to_be_visible()
    looks = page.evaluate(
        """async () => {
            const { cardEl } = await import("/games/odin/card-view.js");
            const small = cardEl("R5", { size: "xs" });
            const big = cardEl("R5", { size: "lg", button: true });
            big.classList.add("unusable");
            document.body.append(small, big);
            const symbol = small.querySelector(".corner.top").getBoundingClientRect();
            const s = getComputedStyle(big);
            return { symbol: [symbol.width, symbol.height], opacity: s.opacity,
                     filter: s.filter, background: s.backgroundColor };
        }"""
    )
    assert min(looks["symbol"]) >= 8
    assert looks["opacity"] == "1"
    assert "saturate" not in looks["filter"] and "grayscale" not in looks["filter"]
    assert looks["background"] == "rgb(210, 52, 42)"  # still red, only darker by the filter


def _open_settings(page: Page, phone: bool) -> None:
    if phone:
        page.get_by_test_id("drawer-toggle").tap()
        page.get_by_test_id("tab-settings").tap()
    else:
        page.get_by_test_id("tab-settings").click()


@pytest.mark.parametrize("context", ["1280x720", "390x844"], indirect=True)
def test_dark_theme_and_card_size(
    context: BrowserContext, server: str, artifacts: Path, request: pytest.FixtureRequest
) -> None:
    size = request.node.callspec.params["context"]
    phone = bool(SIZES[size].get("is_mobile"))
    table_id, token = _seated_table(server)
    page = context.new_page()
    _open_seat(page, server, table_id, token)
    hand = page.get_by_test_id("hand").locator("button.card")
    expect(hand).to_have_count(9)
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    _open_settings(page, phone)
    colours = "(cards) => cards.map((c) => getComputedStyle(c).backgroundColor)"
    light = hand.evaluate_all(colours)
    page.get_by_test_id("theme-dark").click()
    background = "() => getComputedStyle(document.body).backgroundColor"
    assert page.evaluate(background) == "rgb(20, 24, 29)"
    width = hand.first.bounding_box()["width"]  # type: ignore[index]

    page.get_by_test_id("cards-large").click()
    page.reload()  # both remembered
    expect(hand).to_have_count(9)
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert hand.first.bounding_box()["width"] > width  # type: ignore[index]
    assert hand.evaluate_all(colours) == light  # the cards keep their colours
    hand.first.click()
    _no_scrolling(page)
    assert _inside(page, '[data-testid="hand"] button.card') == 9
    _inside(page, '[data-testid="play"]')
    page.screenshot(path=str(artifacts / f"table-lead-dark-{size}.png"))


def test_the_system_dark_mode_is_followed(browser: Browser, server: str) -> None:
    context = browser.new_context(color_scheme="dark")
    try:
        page = context.new_page()
        page.goto(server + "/")
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    finally:
        context.close()

"""The end of a hand and of the game on the table page, played through the page against a
bot with motion off: the hand's summary lies over the felt with who ended it and the last
play, every player's cards left (shown as small cards, equal to the `hand_end` event's)
and points, and holds the next hand's first moves until it is closed; the game's end shows
the standings, the winners, the game hand by hand and the next steps. Screenshots of each
state (follow with a selection, take, hand end, game end) in light and dark go to
artifacts/browser/, and axe-core finds no serious or critical violation in any of them."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_axe import _serious

pytestmark = pytest.mark.browser

SIZES = {"1280x720": (1280, 720, False), "390x844": (390, 844, True)}


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


@pytest.fixture
def page(browser: Browser, server: str, request: pytest.FixtureRequest) -> Iterator[Page]:
    """My seat (0, leading first) against a random bot; `request.param`: (size, theme,
    options)."""
    size, theme, options = request.param
    width, height, phone = SIZES[size]
    table = _post(
        f"{server}/api/tables",
        {"players": 2, "bots": {"1": "random"}, "options": {"first_leader": 0, **options}},
    )["table"]
    seat = _post(f"{server}/api/tables/{table['id']}/seats/0", {"name": "Ann"})
    context = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=phone,
        has_touch=phone,
        locale="en-GB",
        bypass_csp=True,  # only to inject axe-core
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(server + "/static/favicon.svg")
    page.evaluate(
        """([id, token, theme]) => {
            const seats = {[id]: {seat: 0, token, name: "Ann"}};
            localStorage.setItem("odin.seats", JSON.stringify(seats));
            localStorage.setItem("odin.prefs", JSON.stringify({motion: "off", theme}));
        }""",
        [table["id"], seat["token"], theme],
    )
    page.goto(f"{server}/t/{table['id']}")
    try:
        yield page
    finally:
        context.close()


def _play_until(
    page: Page, done: str, shots: dict[str, Path], close_summaries: bool = False
) -> None:
    """Play my turns until `done` (a JS predicate) holds: the largest play, else the first
    take, else pass. The first follow with a play is chosen by clicking its cards, and
    photographed with the selection (shots["follow"]); the first take is photographed
    (shots["take"]). With `close_summaries`, each hand's summary is closed as it shows."""
    summary = (
        "document.querySelector('[data-testid=summary-continue]')" if close_summaries else "false"
    )
    for _ in range(300):
        page.wait_for_function(
            f"""() => ({done})() || {summary} || (window.odinTable.state
                && window.odinTable.state.to_move === 0 && !window.odinTable.connection.busy)"""
        )
        if page.evaluate(done):
            return
        if close_summaries and page.get_by_test_id("summary-continue").count():
            page.get_by_test_id("summary-continue").click()
            continue
        state = page.evaluate("window.odinTable.state")
        plays = sorted(
            (a for a in state["legal"] if a.startswith("play ")), key=lambda a: -len(a.split())
        )
        version = page.evaluate("window.odinTable.version")
        if state["decision"] == "take" and "take" in shots:
            page.screenshot(path=str(shots.pop("take")))
            assert _serious(page) == []
        if state["decision"] == "follow" and plays and "follow" in shots:
            for card in plays[0].split()[1:]:
                page.locator(f'[data-testid="hand"] button[data-card="{card}"]').click()
            expect(page.get_by_test_id("play")).to_be_enabled()
            page.screenshot(path=str(shots.pop("follow")))
            assert _serious(page) == []
            page.get_by_test_id("play").click()
        else:
            # Through the client's own socket, to keep the test quick.
            take = next((a for a in state["legal"] if a.startswith("take ")), None)
            action = plays[0] if plays else take or "pass"
            page.evaluate(
                "(a) => window.odinTable.connection.act(a, window.odinTable.version)", action
            )
        page.wait_for_function(f"v => window.odinTable.version > v || ({done})()", arg=version)
    pytest.fail("the game did not get there in 300 of my turns")


@pytest.mark.parametrize(
    "page",
    [("1280x720", "light", {"target": 100}), ("1280x720", "dark", {"target": 100})],
    indirect=True,
    ids=["light", "dark"],
)
def test_the_hand_summary_holds_the_next_hand(page: Page, artifacts: Path) -> None:
    theme = page.evaluate("JSON.parse(localStorage.getItem('odin.prefs')).theme")
    shots = {
        "follow": artifacts / f"table-follow-{theme}-1280x720.png",
        "take": artifacts / f"table-take-{theme}-1280x720.png",
    }
    ended = "() => window.odinTable.events.some((e) => e.type === 'hand_end')"
    # The summary holds the next hand until it is closed, or for a few seconds: longer
    # here, for the checks and screenshots below may take that long on a loaded machine.
    page.wait_for_function("() => window.odinTable.board")  # the game's board is loaded
    page.evaluate("window.odinTable.board.holdMs = 600000")
    _play_until(page, ended, shots)
    summary = page.get_by_test_id("hand-summary")
    expect(summary).to_be_visible()
    expect(summary).to_contain_text("Hand 1 is over")
    expect(summary.get_by_test_id("final-play")).to_contain_text("ended the hand")
    end = next(e for e in page.evaluate("window.odinTable.events") if e["type"] == "hand_end")
    rows = summary.locator("tbody tr")
    expect(rows).to_have_count(2)
    for seat_no, points in enumerate(end["points"]):
        expect(rows.nth(seat_no)).to_contain_text(f"+{points}")
    # Every player's cards left, shown at the hand's end: the event's, as small cards.
    assert any(end["cards"]) and end["cards"][end["seat"]] == []
    for seat_no, cards in enumerate(end["cards"]):
        left = rows.nth(seat_no).get_by_test_id("cards-left")
        expect(left).to_contain_text(str(len(cards)))
        shown = left.locator(".card.card-xs")
        expect(shown).to_have_count(len(cards))
        assert [shown.nth(i).get_attribute("data-card") for i in range(len(cards))] == cards
        expect(shown.locator(".corner.top svg")).to_have_count(len(cards))  # colour symbols
    # The felt's summary keeps the table and my new hand visible around it.
    expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(9)
    page.screenshot(path=str(artifacts / f"table-hand-end-{theme}-1280x720.png"))
    assert _serious(page) == []
    # I led hand 1, so the bot leads hand 2: its lead has arrived but waits.
    page.wait_for_function(
        """() => window.odinTable.connection.log.some(
            (m) => m.type === "update" && m.version > window.odinTable.version)"""
    )
    assert not any(
        e["type"] == "play" and e["index"] > end["index"]
        for e in page.evaluate("window.odinTable.events")
    )
    page.get_by_test_id("summary-continue").click()
    expect(summary).to_have_count(0)
    page.wait_for_function(
        """(i) => window.odinTable.events.some((e) => e.type === "play" && e.index > i)""",
        arg=end["index"],
    )


@pytest.mark.parametrize(
    "page",
    [
        ("1280x720", "light", {"target": 3}),
        ("390x844", "light", {"target": 3}),
        ("390x844", "dark", {"target": 3}),
    ],
    indirect=True,
    ids=["laptop-light", "phone-light", "phone-dark"],
)
def test_the_game_end_screen(page: Page, artifacts: Path, request: pytest.FixtureRequest) -> None:
    size, theme, _ = request.node.callspec.params["page"]
    over = "() => Boolean(window.odinTable.state && window.odinTable.state.outcome)"
    _play_until(page, over, {}, close_summaries=True)
    final = page.get_by_test_id("final")
    expect(final).to_be_visible()
    outcome = page.evaluate("window.odinTable.state.outcome")
    names = ["Ann", "Random bot"]
    for winner in outcome["winners"]:
        expect(final.locator(".standings .won")).to_contain_text(names[winner])
    expect(final.locator(".winner")).to_contain_text(
        "win" if len(outcome["winners"]) == 1 else "Shared"
    )
    hands = sum(e["type"] == "hand_end" for e in page.evaluate("window.odinTable.events"))
    stats = page.get_by_test_id("game-stats")
    expect(stats).to_contain_text(f"({hands} hand")
    expect(stats.locator("tbody tr")).to_have_count(2)
    expect(page.get_by_test_id("rematch-accept")).to_be_visible()
    expect(final.get_by_role("link", name="Replay")).to_be_visible()
    page.screenshot(path=str(artifacts / f"table-game-end-{theme}-{size}.png"))
    assert _serious(page) == []
    # The replay of the finished game, in the same theme and size.
    final.get_by_role("link", name="Replay").click()
    page.get_by_test_id("last").click()
    expect(page.get_by_test_id("final")).to_be_visible()
    page.screenshot(path=str(artifacts / f"replay-{theme}-{size}.png"))

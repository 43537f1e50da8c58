"""Motion and sound on the table page, against a real server and a bot: updates that
arrive together are shown one after the other at a readable pace with their animations;
prefers-reduced-motion turns motion off; no sound before the first gesture; volume and
mute are remembered."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

pytestmark = pytest.mark.browser

MY_FOLLOW = """() => window.odinTable.state && window.odinTable.state.to_move === 0
    && window.odinTable.state.decision === 'follow' && !window.odinTable.connection.busy"""


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def _open(context: BrowserContext, server: str) -> Page:
    """My seat (0) at a one-hand table against a random bot that leads first."""
    table = _post(
        f"{server}/api/tables",
        {"players": 2, "bots": {"1": "random"}, "options": {"one_hand": True, "first_leader": 1}},
    )["table"]
    seat = _post(f"{server}/api/tables/{table['id']}/seats/0", {"name": "Ann"})
    page = context.new_page()
    page.goto(server + "/static/favicon.svg")
    page.evaluate(
        """([id, token]) => localStorage.setItem("odin.seats", JSON.stringify(
            {[id]: {seat: 0, token, name: "Ann"}}))""",
        [table["id"], seat["token"]],
    )
    page.goto(f"{server}/t/{table['id']}")
    return page


@pytest.fixture
def context(browser: Browser, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    reduced: Literal["no-preference", "reduce"] = getattr(request, "param", "no-preference")
    context = browser.new_context(
        viewport={"width": 1280, "height": 720}, locale="en-GB", reduced_motion=reduced
    )
    context.set_default_timeout(15_000)
    try:
        yield context
    finally:
        context.close()


def _pass_and_wait_for_the_bots_lead(page: Page) -> None:
    """I pass: the round ends (one update) and the bot leads again (the next, at once)."""
    page.wait_for_function(MY_FOLLOW)
    version = page.evaluate("window.odinTable.version")
    page.get_by_test_id("pass").click()
    page.wait_for_function(
        """v => window.odinTable.version > v && window.odinTable.events.some(
            (e) => e.index >= v && e.type === 'play' && e.seat === 1)""",
        arg=version,
    )


def test_updates_together_are_shown_one_after_the_other(
    context: BrowserContext, server: str
) -> None:
    page = _open(context, server)
    page.wait_for_function(MY_FOLLOW)
    assert page.evaluate("window.odinTable.prefs.motion") == "normal"
    shown = len(page.evaluate("window.odinTable.shownAt"))
    _pass_and_wait_for_the_bots_lead(page)
    times = page.evaluate("window.odinTable.shownAt")[shown:]
    assert len(times) >= 2
    # The round's end, then the bot's lead: the second waits for the first to be seen.
    assert times[-1]["at"] - times[-2]["at"] >= 600, times
    log = page.evaluate("window.odinTable.board.motionLog")
    assert {"type": "sweep", "seat": None} in log
    assert {"type": "play", "seat": 1} in log  # the bot's lead flew from its seat
    # Faster, then off: remembered.
    page.get_by_test_id("tab-settings").click()
    page.get_by_test_id("motion-off").click()
    page.reload()
    assert page.evaluate("window.odinTable.prefs.motion") == "off"


@pytest.mark.parametrize("context", ["reduce"], indirect=True)
def test_reduced_motion_turns_motion_off(context: BrowserContext, server: str) -> None:
    page = _open(context, server)
    page.wait_for_function(MY_FOLLOW)
    assert page.evaluate("window.odinTable.prefs.motion") == "off"
    _pass_and_wait_for_the_bots_lead(page)
    assert page.evaluate("window.odinTable.board.motionLog") == []
    page.get_by_test_id("tab-settings").click()
    expect(page.get_by_test_id("motion-off")).to_have_attribute("aria-pressed", "true")


def test_no_sound_before_a_gesture_and_volume_remembered(
    context: BrowserContext, server: str
) -> None:
    page = _open(context, server)
    page.wait_for_function(MY_FOLLOW)
    # The bot has played and it is my turn, but nobody touched the page yet: silence.
    assert page.evaluate("window.odinTable.sound.context") is None
    assert page.evaluate("window.odinTable.sound.played") == []
    page.get_by_test_id("tab-settings").click()  # the first gesture
    assert page.evaluate("window.odinTable.sound.context !== null")
    page.get_by_test_id("pref-volume").fill("20")
    page.get_by_test_id("pref-volume").dispatch_event("change")
    _pass_and_wait_for_the_bots_lead(page)
    page.wait_for_function("() => window.odinTable.sound.played.includes('play')")
    page.reload()
    page.get_by_test_id("tab-settings").click()
    expect(page.get_by_test_id("pref-volume")).to_have_value("20")
    assert page.evaluate("window.odinTable.prefs.volume") == 0.2
    page.get_by_test_id("pref-sound").uncheck()
    played = len(page.evaluate("window.odinTable.sound.played"))
    _pass_and_wait_for_the_bots_lead(page)
    assert len(page.evaluate("window.odinTable.sound.played")) == played  # muted
    page.reload()
    page.get_by_test_id("tab-settings").click()
    expect(page.get_by_test_id("pref-sound")).not_to_be_checked()

"""Turn-based play and the statistics at a game's end, in real Chromium (#9).

* A turn-based table (a 24 h clock) between two people: the tab title says whose turn it
  is; the browser's notification permission is asked only from the alerts button; with
  permission granted, a notification (and the turn sound) comes when the turn reaches me
  while the page is hidden, and none while it is shown or before I opted in.
* My games: the table waiting on me comes first, marked; the others say whose turn it is.
* The final screen and the replay page show the record's statistics and the points chart.

Screenshots go to artifacts/screenshots/never-stall/
(docs/screenshots/ with ODIN_SCREENSHOTS=docs).
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .shots import shots_dir
from .test_axe import AXE, _serious
from .test_table_hand_end import _play_until

pytestmark = pytest.mark.browser

SHOTS = shots_dir("never-stall")
TURN_BASED = {"kind": "turn", "preset": "24h"}

# Records every notification the page creates and every permission request, around the
# browser's own Notification (which a headless browser may not draw).
WATCH_NOTIFICATIONS = """
(() => {
  const Real = window.Notification;
  window.__notes = [];
  window.__asked = 0;
  function Watched(title, options) {
    window.__notes.push({ title, body: options && options.body, tag: options && options.tag });
    try { return new Real(title, options); } catch { return { close() {} }; }
  }
  Object.defineProperty(Watched, "permission", { get: () => Real.permission });
  Watched.requestPermission = (...args) => {
    window.__asked += 1;
    return Real.requestPermission(...args);
  };
  window.Notification = Watched;
})();
"""

HIDE = """(hidden) => {
  Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
  const state = hidden ? "hidden" : "visible";
  Object.defineProperty(document, "visibilityState", { value: state, configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def _serious_in(page: Page, selector: str) -> list[str]:
    """The serious and critical violations axe-core finds inside ``selector`` (the replay
    page's own move log is not focusable: not this file's business)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    results = page.evaluate("async (s) => await axe.run(document.querySelector(s))", selector)
    assert results["passes"], "axe-core checked nothing"
    return [v["id"] for v in results["violations"] if v["impact"] in ("serious", "critical")]


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def _table(server: str, **body: Any) -> str:
    table: dict[str, Any] = _post(f"{server}/api/tables", {"players": 2, **body})["table"]
    return str(table["id"])


def _sit(server: str, table_id: str, seat: int, name: str) -> str:
    token: str = _post(f"{server}/api/tables/{table_id}/seats/{seat}", {"name": name})["token"]
    return token


@pytest.fixture
def context(browser: Browser, server: str) -> Iterator[BrowserContext]:
    context = browser.new_context(
        viewport={"width": 1280, "height": 800},
        locale="en-GB",
        bypass_csp=True,  # only to inject axe-core
    )
    context.set_default_timeout(15_000)
    try:
        yield context
    finally:
        context.close()


def _open_seat(context: BrowserContext, server: str, seats: dict[str, Any], url: str) -> Page:
    """A page of ``context`` that holds ``seats`` (table id -> seat record), at ``url``."""
    page = context.new_page()
    page.goto(server + "/static/favicon.svg")
    page.evaluate(
        """(seats) => {
            localStorage.setItem("odin.seats", JSON.stringify(seats));
            localStorage.setItem("odin.prefs", JSON.stringify({motion: "off"}));
        }""",
        seats,
    )
    page.goto(server + url)
    return page


def _play_turn(page: Page, seat: int) -> None:
    """Play the first legal actions through the page's own connection (a play and its
    take are two) until the turn leaves ``seat``. The turn must first reach this page: the
    other player's last move may show on their page before it shows here, and a page
    that still showed their turn would play nothing."""
    page.wait_for_function(
        "s => window.odinTable.state && window.odinTable.state.to_move === s", arg=seat
    )
    while page.evaluate("window.odinTable.state.to_move") == seat:
        version = page.evaluate("window.odinTable.version")
        page.evaluate(
            """window.odinTable.connection.act(
                window.odinTable.state.legal[0], window.odinTable.version)"""
        )
        page.wait_for_function("v => window.odinTable.version > v", arg=version)


def _expect_title(page: Page, title: str) -> None:
    """The page's title becomes ``title``; if not, the failure says what the page last
    received and showed (its connection's log, version, whose turn), to tell a message
    that never came from one that was not shown."""
    try:
        expect(page).to_have_title(title)
    except AssertionError as failure:
        seen = page.evaluate(
            """() => ({version: window.odinTable.version, to_move: window.odinTable.state.to_move,
                status: window.odinTable.status, welcomes: window.odinTable.connection.welcomes,
                busy: window.odinTable.connection.busy, shown: window.odinTable.shownAt.slice(-5),
                log: window.odinTable.connection.log})"""
        )
        raise AssertionError(f"{failure}\nthe page: {json.dumps(seen)}") from None


def test_a_turn_based_table_tells_me_my_turn_in_the_title_and_a_notification(
    browser: Browser, context: BrowserContext, server: str
) -> None:
    table = _table(server, options={"first_leader": 0}, clock=TURN_BASED)
    ann_token, bo_token = _sit(server, table, 0, "Ann"), _sit(server, table, 1, "Bo")
    context.grant_permissions(["notifications"], origin=server)
    context.add_init_script(WATCH_NOTIFICATIONS)
    ann = _open_seat(
        context, server, {table: {"seat": 0, "token": ann_token, "name": "Ann"}}, f"/t/{table}"
    )
    bo_context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    try:
        bo = _open_seat(
            bo_context, server, {table: {"seat": 1, "token": bo_token, "name": "Bo"}}, f"/t/{table}"
        )
        _expect_title(ann, "Your turn — Odin")
        _expect_title(bo, "Ann's turn — Odin")
        alerts = ann.get_by_test_id("alerts")
        expect(alerts).to_have_attribute("aria-pressed", "false")
        # Hidden, but alerts not asked for: my turn comes back without a notification.
        _play_turn(ann, 0)
        _expect_title(ann, "Bo's turn — Odin")
        ann.evaluate(HIDE, True)
        _play_turn(bo, 1)
        _expect_title(ann, "Your turn — Odin")
        assert ann.evaluate("window.__notes") == []
        assert ann.evaluate("window.__asked") == 0
        ann.evaluate(HIDE, False)
        # I opt in (the browser has granted notifications already: nothing more to ask).
        alerts.click()
        expect(alerts).to_have_attribute("aria-pressed", "true")
        expect(alerts).to_have_text("Turn alerts on")
        assert ann.evaluate("localStorage.getItem('odin.notify')") == "on"
        ann.screenshot(path=str(SHOTS / "turns-table-alerts-on.png"))
        assert _serious(ann) == []
        # Shown: no notification when my turn comes.
        _play_turn(ann, 0)
        _expect_title(ann, "Bo's turn — Odin")
        _play_turn(bo, 1)
        _expect_title(ann, "Your turn — Odin")
        assert ann.evaluate("window.__notes") == []
        # Hidden: the turn coming to me brings one notification, and the turn sound.
        _play_turn(ann, 0)
        ann.evaluate(HIDE, True)
        played = ann.evaluate("window.odinTable.sound.played.length")
        _play_turn(bo, 1)
        _expect_title(ann, "Your turn — Odin")
        ann.wait_for_function("() => window.__notes.length === 1")
        note = ann.evaluate("window.__notes[0]")
        assert note["title"] == "Odin: your turn"
        assert note["body"] == ann.get_by_test_id("turn").text_content()
        assert note["tag"] == f"odin-turn-{table}"
        assert ann.evaluate("window.odinTable.sound.played").count("turn") >= 1
        assert ann.evaluate("window.odinTable.sound.played.length") > played
        # Alerts off again: remembered, and nothing more is shown.
        ann.evaluate(HIDE, False)
        alerts.click()
        expect(alerts).to_have_attribute("aria-pressed", "false")
        assert ann.evaluate("localStorage.getItem('odin.notify')") == "off"
    finally:
        bo_context.close()


def test_the_alerts_button_asks_the_browser_once_and_stays_off_when_refused(
    context: BrowserContext, server: str
) -> None:
    table = _table(server, options={"first_leader": 0})
    _sit(server, table, 1, "Bo")
    token = _sit(server, table, 0, "Ann")
    context.add_init_script(WATCH_NOTIFICATIONS)
    page = _open_seat(
        context, server, {table: {"seat": 0, "token": token, "name": "Ann"}}, f"/t/{table}"
    )
    expect(page).to_have_title("Your turn — Odin")
    alerts = page.get_by_test_id("alerts")
    expect(alerts).to_be_visible()
    assert page.evaluate("[window.__asked, Notification.permission]") == [0, "default"]
    alerts.click()
    page.wait_for_function("() => window.__asked === 1")
    # Headless, the browser's question stays unanswered (or is refused): alerts stay off.
    expect(alerts).to_have_attribute("aria-pressed", "false")
    expect(alerts).to_have_text("Alert me on my turn")
    assert page.evaluate("Notification.permission") != "granted"
    assert page.evaluate("window.__notes") == []


def test_my_games_lists_the_table_waiting_on_me_first(context: BrowserContext, server: str) -> None:
    mine = _table(server, options={"first_leader": 0}, clock=TURN_BASED)
    theirs = _table(server, options={"first_leader": 1}, clock=TURN_BASED)
    seats = {}
    for table in (mine, theirs):
        token = _sit(server, table, 0, "Ann")
        _sit(server, table, 1, "Bo")
        seats[table] = {"seat": 0, "token": token, "name": "Ann", "saved": 1}
    page = _open_seat(context, server, seats, "/")
    items = page.locator("#my-tables li.table-item")
    expect(items).to_have_count(2)
    expect(items.nth(0)).to_have_attribute("data-table", mine)
    expect(items.nth(0)).to_have_class("table-item my-turn")
    expect(items.nth(0).get_by_test_id("my-turn")).to_have_text("Your turn")
    expect(items.nth(1)).to_have_attribute("data-table", theirs)
    expect(items.nth(1)).to_contain_text("Bo's turn")
    expect(items.nth(1).get_by_test_id("my-turn")).to_have_count(0)
    expect(page).to_have_title("(1) Odin")
    page.locator("#my-tables").screenshot(path=str(SHOTS / "turns-my-games.png"))
    page.screenshot(path=str(SHOTS / "turns-lobby-your-turn.png"))
    assert _serious(page) == []


def test_the_final_screen_and_the_replay_show_the_statistics_and_chart(
    context: BrowserContext, server: str
) -> None:
    table = _table(server, bots={"1": "random"}, options={"first_leader": 0, "target": 8})
    token = _sit(server, table, 0, "Ann")
    page = _open_seat(
        context, server, {table: {"seat": 0, "token": token, "name": "Ann"}}, f"/t/{table}"
    )
    _play_until(
        page, "() => Boolean(window.odinTable.state && window.odinTable.state.outcome)", {}, True
    )
    record = page.evaluate(f"fetch('/api/tables/{table}/record').then((r) => r.json())")
    figures = record["statistics"]
    panel = page.get_by_test_id("statistics")
    expect(panel).to_be_visible()
    expect(panel.get_by_test_id("stats-hands")).to_have_text(str(figures["hands"]))
    expect(panel.get_by_test_id("stats-rounds")).to_have_text(str(figures["rounds"]))
    expect(panel.get_by_test_id("stats-passes")).to_have_text(str(figures["passes"]))
    expect(panel.get_by_test_id("stats-cards-played")).to_have_text(str(figures["cards_played"]))
    best = figures["highest_set"]
    for card in best["cards"]:
        expect(
            panel.get_by_test_id("stats-highest").locator(f'[data-card="{card}"]')
        ).to_have_count(1)
    seats = panel.get_by_test_id("stats-seats")
    expect(seats.locator("thead th")).to_have_count(3)
    order = sorted(range(2), key=lambda s: figures["seats"][s]["scores"][-1])
    rounds_won = seats.locator("tbody tr").nth(0).locator("td")
    expect(rounds_won).to_have_text([str(figures["seats"][s]["rounds_won"]) for s in order])
    chart = panel.get_by_test_id("points-chart")
    expect(chart.locator("g.series")).to_have_count(2)
    for seat in range(2):
        points = chart.locator(f'g.series[data-seat="{seat}"] polyline').get_attribute("points")
        assert points is not None and len(points.split()) == figures["hands"] + 1
    expect(chart.locator("line.target")).to_have_count(1)
    # The final screen scrolls inside the felt: one picture of the figures, one of the chart.
    panel.evaluate("(el) => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(SHOTS / "turns-statistics-final.png"))
    chart.evaluate("(el) => el.scrollIntoView({block: 'end'})")
    page.screenshot(path=str(SHOTS / "turns-statistics-chart.png"))
    assert _serious(page) == []
    # The replay page shows the same figures from the same record.
    page.goto(f"{server}/t/{table}/replay")
    replay_panel = page.get_by_test_id("statistics")
    expect(replay_panel.get_by_test_id("stats-rounds")).to_have_text(str(figures["rounds"]))
    expect(replay_panel.get_by_test_id("points-chart").locator("g.series")).to_have_count(2)
    page.get_by_test_id("last").click()
    expect(replay_panel).to_be_visible()
    replay_panel.evaluate("(el) => el.scrollIntoView({block: 'end'})")
    page.screenshot(path=str(SHOTS / "turns-statistics-replay.png"))
    assert _serious_in(page, "[data-testid=statistics]") == []

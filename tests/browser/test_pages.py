"""The lobby form, the languages, the client-side set rules and the replay page."""

from __future__ import annotations

import json
import random
import secrets
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from odin_cards.odin.rules import Game, Options
from odin_cards.odin.rules.cards import CARD_TEXT, cards_of, parse_card
from odin_cards.odin.rules.sets import set_problem, set_value
from odin_cards.odin.rules.view import public_events
from odin_cards.server.core.people.accounts import NAME_MAX

pytestmark = pytest.mark.browser


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return json.load(answer)


def test_the_form_sends_every_rule_option(browser: Browser, server: str, artifacts: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(server + "/")
        page.locator('[data-group="players"][data-value="2"]').click()
        page.locator("#seat-1").select_option("random")
        page.locator('[data-group="target"][data-value="custom"]').click()
        page.locator("#custom-target").fill("12")
        page.locator("details.rules summary").click()
        page.locator('[data-group="next_leader"][data-value="winner"]').click()
        page.locator("#first-leader").select_option("1")
        page.locator("#four-colours").check()
        page.locator("#goat").check()
        widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1]
        page.locator("#create").click()
        invite = page.get_by_test_id("invite").input_value()
        page.screenshot(path=str(artifacts / "home-phone.png"), full_page=True)
        table = _get(f"{server}/api/tables/{invite.rsplit('/', 1)[1]}")["table"]
        assert table["players"] == 2
        assert [s["bot"] for s in table["seats"]] == [None, "random"]
        assert table["options"] == {
            "target": 12,
            "one_hand": False,
            "next_leader": "winner",
            "first_leader": 1,
            "colours": 4,
            "goat": True,
            "removal": "red-or-black",  # the lobby's 4-colour tables follow the new rule
        }
    finally:
        context.close()


def test_language_from_the_browser_then_from_the_menu(browser: Browser, server: str) -> None:
    context = browser.new_context(locale="de-DE")
    try:
        page = context.new_page()
        page.goto(server + "/")
        expect(page.locator("#create")).to_have_text("Tisch eröffnen")
        assert page.evaluate("document.documentElement.lang") == "de"
        with page.expect_navigation():
            page.locator("#language").select_option("sv")
        expect(page.locator("#create")).to_have_text("Skapa bordet")
        page.reload()
        expect(page.locator("#create")).to_have_text("Skapa bordet")
        assert page.locator("#language").input_value() == "sv"
    finally:
        context.close()


PHONE: ViewportSize = {"width": 390, "height": 844}
PASSWORD = "a long enough password"


def longest_name() -> str:
    """A new account name as wide as names get: the most characters allowed, each of them
    a wide letter (W or M)."""
    return "".join(secrets.choice("WM") for _ in range(NAME_MAX))


def header_problems(page: Page) -> list[str]:
    """What is wrong with the page header's layout: parts (the brand, the header's links,
    the account bar's parts, the language menu) that overlap each other, stick out of the
    screen or out of their slot (a squeezed slot lets its links slide under the brand),
    and a page wider than the screen."""
    found: list[str] = page.evaluate(
        """() => {
          const header = document.querySelector("header.top");
          const parts = [...header.querySelectorAll(
            ".brand, .header-extra > *, .account-bar > *, .help-link, .lang-menu select")]
            .filter((e) => e.getClientRects().length > 0)
            .map((e) => [e.dataset.testid || e.className || e.tagName, e.getBoundingClientRect()]);
          const wrong = [];
          const outside = (a, b) => a.left < b.left - 0.5 || a.right > b.right + 0.5;
          for (const [name, box] of parts)
            if (outside(box, {left: 0, right: innerWidth})) wrong.push(`${name} sticks out`);
          for (const slot of header.querySelectorAll(".header-extra, .account-bar"))
            for (const part of slot.children)
              if (part.getClientRects().length && outside(part.getBoundingClientRect(),
                  slot.getBoundingClientRect())) wrong.push(`${part.className} leaves its slot`);
          const over = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
            && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
          parts.forEach(([one, a], i) => parts.slice(i + 1).forEach(([two, b]) => {
            if (over(a, b)) wrong.push(`${one} overlaps ${two}`);
          }));
          const wide = document.documentElement.scrollWidth;
          if (wide > innerWidth) wrong.push(`the page is ${wide} px wide`);
          return wrong;
        }"""
    )
    return found


def _header_ready(page: Page, path: str, signed_in: bool) -> None:
    expect(page.locator("#language")).to_be_visible()
    bar = "account-name" if signed_in else "account-login-link"
    expect(page.get_by_test_id(bar)).to_be_visible()
    if path != "/leaderboard":  # the home page and the profile link the leaderboard
        expect(page.locator("header.top .leaderboard-link")).to_be_visible()


def test_the_header_fits_a_phone_in_every_language(browser: Browser, server: str) -> None:
    """At 390 px, as a guest and signed in with the longest name, in every language: no
    part of the header overlaps another and no page is wider than the screen."""
    name = longest_name()
    _post(f"{server}/api/account/signup", {"name": name, "password": PASSWORD})
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        page.goto(server + "/")
        for signed_in in (False, True):
            if signed_in:
                status = page.evaluate(
                    """async (body) => (await fetch("/api/account/login", {method: "POST",
                         headers: {"Content-Type": "application/json"},
                         body: JSON.stringify(body)})).status""",
                    {"name": name, "password": PASSWORD},
                )
                assert status == 200
            for lang in ("en", "de", "fr", "sv", "ca"):
                page.evaluate("(lang) => localStorage.setItem('odin.lang', lang)", lang)
                for path in ("/", "/leaderboard", f"/u/{name}"):
                    page.goto(server + path)
                    _header_ready(page, path, signed_in)
                    where = f"{path} in {lang}, {'signed in' if signed_in else 'a guest'}"
                    assert header_problems(page) == [], where
    finally:
        context.close()


def test_client_set_rules_agree_with_the_engine(browser: Browser, server: str) -> None:
    """Values and set checks computed in the browser equal the engine's, card for card."""
    rng = random.Random(4)
    selections = [rng.sample(CARD_TEXT, rng.randint(1, 5)) for _ in range(400)]
    selections += [["X0"], ["X0", "B3", "B6"], ["X0", "B5", "R5"], ["B5", "R5", "K5"]]
    page = browser.new_page()
    try:
        page.goto(server + "/")
        answers = page.evaluate(
            """async (selections) => {
                const cards = await import("/games/odin/cards.js");
                return selections.map((s) => [cards.setValue(s), cards.setProblem(s) === null]);
            }""",
            selections,
        )
    finally:
        page.close()
    for selection, (value, is_set) in zip(selections, answers, strict=True):
        mask = sum(1 << parse_card(card) for card in selection)
        assert value == set_value(mask), selection
        assert is_set == (set_problem(mask) is None), selection


def test_replay_of_a_running_game_waits_for_the_end(browser: Browser, server: str) -> None:
    table = _post(f"{server}/api/tables", {"players": 2, "bots": {"0": "random"}, "options": {}})
    table_id = table["table"]["id"]
    page = browser.new_page()
    try:
        page.goto(f"{server}/t/{table_id}/replay")
        expect(page.get_by_test_id("replay-message")).to_contain_text("once the game is over")
        expect(page.get_by_role("link", name="Watch it live")).to_have_attribute(
            "href", f"/t/{table_id}/watch"
        )
    finally:
        page.close()


def test_a_token_the_server_does_not_know_falls_back_to_watching(
    browser: Browser, server: str
) -> None:
    table = _post(f"{server}/api/tables", {"players": 2, "options": {}})["table"]
    page = browser.new_page()
    try:
        page.goto(server + "/")
        page.evaluate(
            """(id) => localStorage.setItem("odin.seats", JSON.stringify(
                {[id]: {seat: 0, token: "not-a-real-token", name: "Eve"}}))""",
            table["id"],
        )
        page.goto(f"{server}/t/{table['id']}")
        expect(page.locator("#toast.error")).to_contain_text("no longer recognised")
        expect(page.locator('button[data-seat="0"]')).to_be_visible()  # free to join again
        assert page.evaluate("window.odinTable.seat") is None
        assert page.evaluate("localStorage.getItem('odin.seats')") == "{}"
    finally:
        page.close()


def _engine_snapshots(record: dict[str, Any]) -> list[dict[str, Any]]:
    """What the engine says after each record event. After a hand-ending play the engine
    has already dealt the next hand, so only the scores compare (``hands`` is None)."""
    deals = [e["deal"] for e in record["events"] if "deal" in e]
    game = Game.new(
        record["players"], Options.from_dict(record["options"]), record["seed"], deals=deals
    )
    snapshots: list[dict[str, Any]] = []
    for event in record["events"]:
        hand_before = game.hand_number
        if "deal" not in event:
            game.apply(event["action"], seat=event["seat"])
        view = game.view(None)
        ended = game.hand_number != hand_before
        snapshots.append(
            {
                "scores": list(view.scores),
                "hands": None
                if ended
                else [[CARD_TEXT[c] for c in cards_of(game.hand(s))] for s in range(game.players)],
                "table": list(view.table),
                "toMove": view.to_move,
                "decision": view.decision,
            }
        )
    return snapshots


def test_replay_positions_agree_with_the_engine(browser: Browser, server: str) -> None:
    """Every position the replay page shows, rebuilt in the browser from a record,
    equals the engine's: all hands, the table, whose turn, the scores."""
    rng = random.Random(11)
    game = Game.new(4, Options(target=12, goat=True), seed=5)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    record = game.record().to_dict()
    assert game.hand_number > 1  # several hands, so deals and hand ends are covered
    page = browser.new_page()
    try:
        page.goto(server + "/")
        steps = page.evaluate(
            """async (record) => {
                const { buildSteps } = await import("/games/odin/replay-steps.js");
                const { sortCards } = await import("/games/odin/cards.js");
                return buildSteps(record).map((s) => ({
                    scores: s.scores, hands: s.hands.map((h) => sortCards(h)),
                    table: sortCards(s.table), toMove: s.toMove, decision: s.decision,
                    handEnd: s.points !== null }));
            }""",
            record,
        )
    finally:
        page.close()
    expected = _engine_snapshots(record)
    assert len(steps) == len(expected) == len(record["events"])
    for number, (step, engine) in enumerate(zip(steps, expected, strict=True)):
        assert step["scores"] == engine["scores"], number
        if engine["hands"] is None:
            assert step["handEnd"], number
            continue
        assert step["hands"] == engine["hands"], number
        assert step["table"] == engine["table"], number
        assert (step["toMove"], step["decision"]) == (engine["toMove"], engine["decision"]), number


def test_hand_summaries_from_public_events_agree_with_the_engine(
    browser: Browser, server: str
) -> None:
    """The table page counts the cards left at each hand end from public events alone."""
    rng = random.Random(2)
    game = Game.new(5, Options(target=15), seed=9)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    events = list(public_events(game.history))
    ends = [e for e in events if e["type"] == "hand_end"]
    page = browser.new_page()
    try:
        page.goto(server + "/")
        summaries = page.evaluate(
            """async ([events, players]) => {
                const { handSummaries } = await import("/games/odin/history.js");
                return handSummaries(events, players);
            }""",
            [events, game.players],
        )
    finally:
        page.close()
    assert len(summaries) == len(ends) == game.hand_number
    totals = [0] * game.players
    for summary, end in zip(summaries, ends, strict=True):
        totals = [a + b for a, b in zip(totals, end["points"], strict=True)]
        assert summary["cardsLeft"] == end["points"]  # no Goat: one point per card
        assert summary["cards"] == end["cards"]  # shown at the hand's end
        assert [len(cards) for cards in summary["cards"]] == summary["cardsLeft"]
        assert summary["ender"] == end["seat"] and summary["cardsLeft"][end["seat"]] == 0
        assert summary["totals"] == totals
    assert totals == list(game.scores)


def test_scores_count_up_or_down_from_the_target(browser: Browser, server: str) -> None:
    table = _post(
        f"{server}/api/tables", {"players": 2, "bots": {"1": "random"}, "options": {"target": 10}}
    )["table"]
    seat = _post(f"{server}/api/tables/{table['id']}/seats/0", {"name": "Ann"})
    page = browser.new_page()
    try:
        page.goto(server + "/")
        page.evaluate(
            """([id, token]) => localStorage.setItem("odin.seats", JSON.stringify(
                {[id]: {seat: 0, token, name: "Ann"}}))""",
            [table["id"], seat["token"]],
        )
        page.goto(f"{server}/t/{table['id']}")
        mine = page.locator('.player[data-seat="0"] .player-score')
        expect(mine).to_have_text("0 pts")
        page.get_by_test_id("score-countdown").click()
        expect(mine).to_have_text("10 left")
        page.reload()
        expect(mine).to_have_text("10 left")
        page.get_by_test_id("score-points").click()
        expect(mine).to_have_text("0 pts")
    finally:
        page.close()

"""Two people and a bot play a one-hand game of Odin through the browser UI.

One person uses a desktop-sized window, the other a phone-sized touch screen; both only
click what a person would click (cards, Play, Pass, the card to take). A spectator
watches without any hand; the replay page steps through the finished game.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 860}


def _context(browser: Browser, phone: bool = False, locale: str = "en-GB") -> BrowserContext:
    if phone:
        context = browser.new_context(
            viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale=locale
        )
    else:
        context = browser.new_context(viewport=DESKTOP, locale=locale)
    context.set_default_timeout(15_000)
    return context


def _watch_errors(page: Page, errors: list[str]) -> None:
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    page.on(
        "console",
        lambda msg: errors.append(f"{page.url}: {msg.text}") if msg.type == "error" else None,
    )


def _state(page: Page) -> dict[str, Any] | None:
    state: dict[str, Any] | None = page.evaluate(
        """() => window.odinTable && window.odinTable.state ? {
            seat: window.odinTable.seat, version: window.odinTable.version,
            to_move: window.odinTable.state.to_move, decision: window.odinTable.state.decision,
            legal: window.odinTable.state.legal, outcome: window.odinTable.state.outcome,
            busy: window.odinTable.connection.busy} : null"""
    )
    return state


def _take_turn(page: Page, state: dict[str, Any], tap: bool, shot: Path | None = None) -> bool:
    """A simple policy through the UI: take the first card offered, else play the
    first legal play (clicking its cards, then Play), else pass. With ``shot``, a play's
    selection is photographed before Play is pressed; returns whether it was."""
    legal: list[str] = state["legal"]
    takes = [a for a in legal if a.startswith("take ")]
    plays = [a for a in legal if a.startswith("play ")]

    def press(locator: Any) -> None:
        if tap:
            locator.tap()
        else:
            locator.click()

    if takes:
        card = takes[0].split()[1]
        press(page.locator(f'[data-testid="table-area"] button[data-card="{card}"]'))
        return False
    if plays:
        for card in plays[0].split()[1:]:
            button = page.locator(f'[data-testid="hand"] button[data-card="{card}"]')
            if tap:
                button.tap()
            else:
                # The desktop player uses the keyboard: focus stays on the card it toggled.
                button.focus()
                page.keyboard.press("Space")
                assert page.evaluate("document.activeElement.dataset.card") == card
            expect(button).to_have_attribute("aria-pressed", "true")
        play = page.get_by_test_id("play")
        expect(play).to_be_enabled()
        expect(page.locator("#selection")).to_have_class(re.compile(r"\bok\b"))
        if shot is not None:
            page.screenshot(path=str(shot))
        press(play)
        return shot is not None
    press(page.get_by_test_id("pass"))
    return False


def _no_horizontal_overflow(page: Page) -> None:
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"page is {widths[0]}px wide in a {widths[1]}px window"


def _in_viewport(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not displayed"
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, (selector, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 0.5, (selector, box)


def test_two_people_and_a_bot_play_a_hand(
    browser: Browser, server: str, artifacts: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    errors: list[str] = []
    ann_context = _context(browser)
    bob_context = _context(browser, phone=True)
    watcher_context = _context(browser)
    try:
        ann = ann_context.new_page()
        bob = bob_context.new_page()
        _watch_errors(ann, errors)
        _watch_errors(bob, errors)

        # Ann creates a one-hand table for three: two people and a random bot in seat 2.
        ann.goto(server + "/")
        ann.locator('[data-group="players"][data-value="3"]').click()
        ann.locator("#seat-2").select_option("random")
        ann.locator('[data-group="target"][data-value="one"]').click()
        ann.locator("#create").click()
        invite = ann.get_by_test_id("invite").input_value()
        watch = ann.get_by_test_id("watch").input_value()
        assert re.fullmatch(re.escape(server) + r"/t/[^/]+", invite), invite
        assert watch == invite + "/watch"
        ann.locator("#go-to-table").click()
        ann.locator("#name").fill("Ann")
        ann.locator('button[data-seat="0"]').click()
        expect(ann.get_by_test_id("waiting")).to_contain_text("2 of 3")

        # Bob finds the table in the lobby's open tables, then follows the invite link.
        bob.goto(server + "/")
        table_id = invite.rsplit("/", 1)[1]
        expect(bob.locator(f'#open-tables [data-table="{table_id}"]')).to_be_visible()
        bob.goto(invite)
        bob.locator("#name").fill("Bob")
        bob.locator('button[data-seat="1"]').tap()

        for page in (ann, bob):
            expect(page.get_by_test_id("game")).to_be_visible()
            expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(9)

        # A spectator sees the players and the table, but no hand.
        watcher = watcher_context.new_page()
        _watch_errors(watcher, errors)
        watcher.goto(watch)
        expect(watcher.get_by_test_id("game")).to_be_visible()
        expect(watcher.locator(".player")).to_have_count(3)
        expect(watcher.get_by_test_id("hand")).to_have_count(0)
        assert watcher.evaluate("window.odinTable.state.hand") is None

        # Ann's private seat link opens her seat on a second device (here: a third
        # browser), which then shares the seat with her first one.
        token = ann.evaluate("window.odinTable.token")
        second = watcher_context.new_page()
        _watch_errors(second, errors)
        second.goto(f"{invite}#seat={token}")
        expect(second.get_by_test_id("hand").locator("button.card")).to_have_count(9)
        assert second.evaluate("window.odinTable.seat") == 0
        assert second.evaluate("location.hash") == ""
        second.close()

        # The phone layout: the hand and the buttons fit the screen, nothing scrolls sideways.
        _no_horizontal_overflow(bob)
        for selector in ('[data-testid="play"]', '[data-testid="pass"]'):
            _in_viewport(bob, selector)
        for card in bob.get_by_test_id("hand").locator("button.card").all():
            card_box = card.bounding_box()
            assert card_box is not None and card_box["x"] + card_box["width"] <= PHONE["width"]
            assert card_box["width"] >= 44 and card_box["height"] >= 44  # touch targets

        # A dropped connection comes back by itself and resumes at the same position.
        seen = bob.evaluate("window.odinTable.version")
        welcomes = bob.evaluate("window.odinTable.connection.welcomes")
        bob.evaluate("window.odinTable.connection.socket.close()")
        bob.wait_for_function("n => window.odinTable.connection.welcomes > n", arg=welcomes)
        expect(bob.locator(".conn.conn-open")).to_be_visible()
        assert bob.evaluate("window.odinTable.version") >= seen
        expect(bob.get_by_test_id("hand").locator("button.card")).to_have_count(9)

        # An illegal action sent anyway (a card Ann does not hold) is explained and
        # changes nothing.
        held = set(ann.evaluate("window.odinTable.state.hand"))
        foreign = next(f"{c}{n}" for c in "BRPGKO" for n in range(1, 10) if f"{c}{n}" not in held)
        ann_moves = ann.evaluate("window.odinTable.state.to_move === window.odinTable.seat")
        ann.evaluate(f"window.odinTable.connection.act('play {foreign}', window.odinTable.version)")
        expect(ann.locator("#toast.error")).to_contain_text(
            f"not allowed: you do not hold {foreign}" if ann_moves else "not your turn"
        )
        expect(ann.get_by_test_id("hand").locator("button.card")).to_have_count(9)

        # Play the hand to its end through the UI.
        pages = {0: ann, 1: bob}
        shots = {"desktop": artifacts / "table-desktop.png", "phone": artifacts / "table-phone.png"}
        paths = dict(shots)
        taken: set[str] = set()
        turns = 0
        dropped: str | None = None
        dropped_at = -1
        deadline = time.monotonic() + 120
        while True:
            assert time.monotonic() < deadline, "the hand did not end in time"
            states = {seat: _state(page) for seat, page in pages.items()}
            if any(s is not None and s["outcome"] for s in states.values()):
                break
            mover = next(
                (
                    seat
                    for seat, s in states.items()
                    if s and s["to_move"] == seat and s["legal"] and not s["busy"]
                ),
                None,
            )
            if mover is None:
                time.sleep(0.05)  # the bot is moving; poll again
                continue
            page = pages[mover]
            mine = states[mover]
            assert mine is not None
            version = mine["version"]
            plays = [a for a in mine["legal"] if a.startswith("play ")]
            if mover == 0 and dropped is None and plays:
                # The connection drops right after an action leaves: the page reconnects,
                # sends it again with the same id, and the server applies it once.
                dropped, dropped_at = plays[-1], version
                ann.evaluate(
                    """(action) => {
                        window.odinTable.connection.act(action, window.odinTable.version);
                        window.odinTable.connection.socket.close();
                    }""",
                    dropped,
                )
                ann.wait_for_function("v => window.odinTable.version > v", arg=version)
                turns += 1
                continue
            shot = None
            if turns >= 2 and shots and mover in (0, 1):
                shot = shots.get("desktop" if mover == 0 else "phone")
            if _take_turn(page, mine, tap=page is bob, shot=shot):
                taken.add("desktop" if mover == 0 else "phone")
                shots = {k: v for k, v in shots.items() if k not in taken}
            page.wait_for_function("v => window.odinTable.version > v", arg=version)
            turns += 1

        for page in (ann, bob, watcher):
            final = page.get_by_test_id("final")
            expect(final).to_be_visible()
            expect(final).to_contain_text("Final standings")
            expect(page.get_by_test_id("hand-summary")).to_contain_text("Cards left")
        outcome = ann.evaluate("window.odinTable.state.outcome")
        events = ann.evaluate("window.odinTable.events")
        assert dropped is not None
        assert events[dropped_at]["seat"] == 0 and events[dropped_at]["text"] == dropped
        # Not applied twice: no second copy of that play before Ann could hold the cards
        # again (by taking one of them back from a beaten set).
        cards = set(dropped.split()[1:])
        for event in events[dropped_at + 1 :]:
            if event.get("seat") == 0 and event["type"] == "take" and event["card"] in cards:
                break
            assert not (event.get("seat") == 0 and event.get("text") == dropped), event
        names = ["Ann", "Bob", "Random bot"]
        for winner in outcome["winners"]:
            expect(ann.locator(".final .won", has_text=names[winner])).to_have_count(1)
        final_shot = artifacts / "final-desktop.png"
        ann.screenshot(path=str(final_shot), full_page=True)
        _no_horizontal_overflow(bob)
        expect(ann.get_by_test_id("rematch-accept")).to_be_visible()
        expect(watcher.get_by_test_id("rematch-accept")).to_have_count(0)
        assert turns > 0

        # The replay page steps through the finished game, every hand shown.
        replay = watcher_context.new_page()
        _watch_errors(replay, errors)
        replay.goto(f"{server}/t/{table_id}/replay")
        expect(replay.get_by_test_id("step")).to_contain_text("1 /")
        expect(replay.locator(".rp-player").first.locator(".card")).to_have_count(9)
        replay.get_by_test_id("next").click()
        expect(replay.get_by_test_id("step")).to_contain_text("2 /")
        replay.get_by_test_id("last").click()
        expect(replay.get_by_test_id("final")).to_be_visible()
        scores = [
            int(re.sub(r"\D", "", text))
            for text in replay.locator(".rp-player .player-score").all_inner_texts()
        ]
        assert scores == outcome["scores"]
        replay_shot = artifacts / "replay-desktop.png"
        replay.screenshot(path=str(replay_shot), full_page=True)

        # A rematch: both accept; each is offered to join the next game; same seats.
        bob.get_by_test_id("rematch-accept").tap()
        expect(ann.get_by_test_id("rematch-1")).to_have_attribute("data-answer", "accept")
        ann.get_by_test_id("rematch-accept").click()
        bob.get_by_test_id("rematch-go").tap()
        bob.wait_for_url(re.compile(r"/t/(?!" + re.escape(table_id) + r")[^/]+$"))
        expect(bob.get_by_test_id("hand").locator("button.card")).to_have_count(9)
        expect(ann.get_by_test_id("rematch-go")).to_have_text("Join the next game")
        ann.get_by_test_id("rematch-go").click()
        ann.wait_for_url(bob.url)
        expect(ann.get_by_test_id("hand").locator("button.card")).to_have_count(9)
        assert (
            ann.evaluate("window.odinTable.seat") == 0
            and bob.evaluate("window.odinTable.seat") == 1
        )

        # The lobby lists both of Ann's tables: the new one running, the old one finished.
        next_id = ann.url.rsplit("/", 1)[1]
        ann.goto(server + "/")
        expect(ann.locator(f'#my-tables [data-table="{next_id}"]')).to_contain_text("playing")
        finished = ann.locator(f'#my-tables [data-table="{table_id}"]')
        expect(finished).to_contain_text("finished")
        expect(finished.get_by_role("link", name="Replay")).to_have_attribute(
            "href", f"/t/{table_id}/replay"
        )

        saved = [paths[k] for k in sorted(taken)] + [final_shot, replay_shot]
        with capsys.disabled():
            print("\nscreenshots:", *saved)
        assert not errors, errors
    finally:
        for context in (ann_context, bob_context, watcher_context):
            context.close()

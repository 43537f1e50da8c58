"""The table page's pure state modules, run in Chromium apart from the page: the shell's
model folded from server messages (static/js/table-model.js), and Odin's board state
(odin/web/table-state.js): hand summaries, seats around the table, the selection's
verdict, the score views, the move messages and the keyboard's card order."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def page(browser: Browser, server: str) -> Iterator[Page]:
    page = browser.new_page()
    page.goto(server + "/static/favicon.svg")
    try:
        yield page
    finally:
        page.close()


SHELL = "/static/js/table-model.js"
ODIN = "/games/odin/table-state.js"


def call(page: Page, name: str, *args: Any, module: str = ODIN) -> Any:
    """Call one exported function of a state module (Odin's, or the shell's model) with
    JSON arguments."""
    return page.evaluate(
        """async ([module, name, args]) => {
            const m = await import(module);
            const out = m[name](...args);
            return out instanceof Set ? [...out].sort() : out;
        }""",
        [module, name, list(args)],
    )


def _state(**over: Any) -> dict[str, Any]:
    state: dict[str, Any] = {
        "players": 3,
        "to_move": 0,
        "decision": "follow",
        "outcome": None,
        "hand": ["B3", "B7", "R7", "G2"],
        "table": ["K5"],
        "table_value": 5,
        "table_player": 2,
        "hand_leader": 2,
        "hand_sizes": [4, 9, 8],
        "scores": [0, 3, 12],
        "known": [[], ["R1"], []],
        "options": {"target": 15, "one_hand": False},
        "legal": ["pass", "play B7", "play R7", "play B3 B7"],
    }
    state.update(over)
    return state


DEAL = {"index": 0, "type": "deal", "hand": 1, "leader": 2, "hand_sizes": [9, 9, 9]}


def test_updates_append_events_and_a_gap_asks_for_a_resync(page: Page) -> None:
    model = call(page, "emptyModel", module=SHELL)
    first = call(
        page,
        "applyUpdate",
        model,
        {"version": 1, "events": [DEAL], "state": _state()},
        module=SHELL,
    )
    assert not first["gap"] and first["model"]["version"] == 1
    assert first["model"]["events"] == [DEAL]
    play = {"index": 1, "type": "play", "seat": 2, "cards": ["K5"], "text": "play K5", "value": 5}
    second = call(
        page,
        "applyUpdate",
        first["model"],
        {"version": 2, "events": [DEAL, play], "state": _state()},
        module=SHELL,
    )
    assert [e["index"] for e in second["model"]["events"]] == [0, 1]  # a repeat is ignored
    gap = {"index": 5, "type": "pass", "seat": 0, "text": "pass"}
    third = call(
        page,
        "applyUpdate",
        second["model"],
        {"version": 6, "events": [gap], "state": _state()},
        module=SHELL,
    )
    assert third["gap"] and third["model"]["version"] is None
    assert len(third["model"]["events"]) == 2
    resync = call(
        page,
        "applyUpdate",
        second["model"],
        {"version": 1, "events": [DEAL], "state": _state(), "resync": True},
        module=SHELL,
    )
    assert resync["model"]["events"] == [DEAL]


def test_events_without_an_index_take_their_place_from_the_version(page: Page) -> None:
    """A game's events need no `index`: an update's events end at its version."""
    first = call(
        page,
        "applyUpdate",
        call(page, "emptyModel", module=SHELL),
        {"version": 2, "events": [{"kind": "deal"}, {"kind": "take", "seat": 0}], "state": {}},
        module=SHELL,
    )
    take = {"kind": "take", "seat": 1, "count": 2}
    second = call(
        page,
        "applyUpdate",
        first["model"],
        {"version": 3, "events": [take], "state": {}},
        module=SHELL,
    )
    assert not second["gap"] and second["model"]["events"][-1] == take
    assert len(second["model"]["events"]) == 3
    again = call(
        page,
        "applyUpdate",
        second["model"],
        {"version": 3, "events": [take], "state": {}},
        module=SHELL,
    )
    assert len(again["model"]["events"]) == 3  # a repeat is ignored
    missed = call(
        page,
        "applyUpdate",
        second["model"],
        {"version": 5, "events": [take], "state": {}},
        module=SHELL,
    )
    assert missed["gap"]


def test_the_game_is_over_by_its_outcome_or_else_by_its_table(page: Page) -> None:
    finished = {"status": "finished"}
    assert call(page, "gameOver", {"outcome": {"winners": [0]}}, None, module=SHELL)
    assert not call(page, "gameOver", {"outcome": None}, finished, module=SHELL)  # shown later
    assert call(page, "gameOver", {"winner": 1}, finished, module=SHELL)  # a State without one
    assert not call(page, "gameOver", {"winner": None}, {"status": "playing"}, module=SHELL)
    over = call(page, "turnMessage", {"to_move": None}, 0, True, module=SHELL)
    assert over["key"] == "game_over"
    assert call(page, "turnMessage", {"to_move": 0, "outcome": None}, 0, module=SHELL) == {
        "key": "turn_you",
        "params": {},
    }


def test_the_standings_put_the_winners_first_whichever_way_scores_count(page: Page) -> None:
    low = {"scores": [9, 2, 5], "winners": [1]}  # penalty points: the least wins
    assert call(page, "standingsOrder", low, 3, module=SHELL) == [1, 2, 0]
    high = {"scores": [9, 2, 5], "winners": [0]}  # glory: the most wins
    assert call(page, "standingsOrder", high, 3, module=SHELL) == [0, 2, 1]
    tie = {"scores": [4, 4, 1], "winners": [1]}  # a tie broken otherwise
    assert call(page, "standingsOrder", tie, 3, module=SHELL)[0] == 1


def test_a_hand_end_in_an_update_opens_its_summary_but_not_at_load(page: Page) -> None:
    shown = [["B1", "R4", "K9"], [], ["P2", "O5"]]
    end = {"index": 1, "type": "hand_end", "seat": 1, "points": [3, 0, 2], "cards": shown}
    deal2 = {**DEAL, "index": 2, "hand": 2}
    none = {"summarySeen": 0, "summaryOpen": None}
    loaded = call(page, "summaryUpdate", none, [DEAL, end, deal2], 3, True)  # the first State
    assert loaded["summary"] is None and loaded["summarySeen"] == 1
    start = call(page, "summaryUpdate", none, [DEAL], 3, True)
    after = call(page, "summaryUpdate", start, [DEAL, end, deal2], 3, False)
    assert after["summary"]["points"] == [3, 0, 2] and after["summary"]["ender"] == 1
    assert after["summary"]["cards"] == shown  # every seat's cards left, shown at the end
    assert after["summaryOpen"] == after["summary"]


def test_the_selection_keeps_only_held_cards(page: Page) -> None:
    assert call(page, "keepSelection", ["B7", "R1", "B3"], ["B3", "B7"]) == ["B7", "B3"]
    assert call(page, "keepSelection", ["B7"], None) == []
    assert call(page, "toggleSelection", ["B7"], "B3") == ["B7", "B3"]
    assert call(page, "toggleSelection", ["B7", "B3"], "B7") == ["B3"]


def test_turn_messages(page: Page) -> None:
    assert call(page, "turnMessage", _state(), 0) == {
        "key": "turn_you_follow",
        "params": {"value": 5},
    }
    assert call(page, "turnMessage", _state(decision="lead"), 0)["key"] == "turn_you_lead"
    other = call(page, "turnMessage", _state(to_move=1, decision="take"), 0)
    assert other["key"] == "turn_other_take" and other["seat"] == 1
    assert call(page, "turnMessage", _state(outcome={"winners": [0]}), 0)["key"] == "game_over"


def test_seats_sit_around_the_table_from_my_left(page: Page) -> None:
    assert call(page, "seatOrder", 4, 2) == [3, 0, 1, 2]
    assert call(page, "seatOrder", 3, None) == [0, 1, 2]
    assert call(page, "seatPlaces", 2, 1) == [
        {"seat": 0, "place": "top"},
        {"seat": 1, "place": "bottom"},
    ]
    places = call(page, "seatPlaces", 6, 0)
    assert [p["place"] for p in places] == ["left", "top", "top", "top", "right", "bottom"]
    assert [p["seat"] for p in places] == [1, 2, 3, 4, 5, 0]
    watching = call(page, "seatPlaces", 3, None)
    assert [p["place"] for p in watching] == ["left", "top", "right"]


def test_seat_status(page: Page) -> None:
    events = [DEAL, {"index": 1, "type": "play", "seat": 2, "text": "play K5", "value": 5}]
    events.append({"index": 2, "type": "pass", "seat": 1, "text": "pass"})
    status = call(page, "seatStatus", _state(), events, 1)
    assert status == {
        "toMove": False,
        "passed": True,
        "leader": False,
        "handSize": 9,
        "points": 3,
        "known": ["R1"],
    }
    assert call(page, "seatStatus", _state(), events, 0)["toMove"]
    assert call(page, "seatStatus", _state(), events, 2)["leader"]


def test_usable_and_takeable_cards(page: Page) -> None:
    assert call(page, "usableCards", ["pass", "play B7", "play B3 B7"]) == ["B3", "B7"]
    assert call(page, "takeableCards", ["take K5", "take R5"]) == ["K5", "R5"]
    assert call(page, "takeableCards", ["pass"]) == []


def test_the_selection_verdict_follows_the_legal_actions(page: Page) -> None:
    beats = call(page, "selectionVerdict", _state(), 0, ["B7"])
    assert beats["canPlay"] and beats["canPass"] and beats["verdict"] is True
    assert beats["key"] == "sel_beats" and beats["params"] == {"value": 7, "table": 5}
    mixed = call(page, "selectionVerdict", _state(), 0, ["B3", "R7"])
    assert not mixed["canPlay"] and mixed["verdict"] is False and mixed["key"] == "sel_not_a_set"
    assert call(page, "selectionVerdict", _state(), 0, [])["key"] == "select_hint_click"
    assert call(page, "selectionVerdict", _state(), 0, [], True)["key"] == "select_hint_tap"
    stuck = call(page, "selectionVerdict", _state(legal=["pass"]), 0, [])
    assert stuck["key"] == "cannot_beat" and stuck["canPass"] and not stuck["canClear"]
    waiting = call(page, "selectionVerdict", _state(to_move=1), 0, ["B7"])
    assert not waiting["canPlay"] and not waiting["canPass"] and waiting["canClear"]
    assert waiting["verdict"] is None
    take = call(page, "selectionVerdict", _state(decision="take", legal=["take K5"]), 0, [])
    assert take["key"] == "choose_take"


def test_scores_count_down_to_zero_and_the_bar_shrinks(page: Page) -> None:
    options = {"target": 15, "one_hand": False}
    assert call(page, "scoreShown", 3, options, "points") == {
        "key": "points_short",
        "n": 3,
        "fill": 0.2,
    }
    assert call(page, "scoreShown", 3, options, "countdown") == {
        "key": "left_short",
        "n": 12,
        "fill": 0.8,
    }
    # Past the target: 0 left and an empty bar, never "-1 left".
    assert call(page, "scoreShown", 16, options, "countdown") == {
        "key": "left_short",
        "n": 0,
        "fill": 0,
    }
    assert call(page, "scoreShown", 16, options, "points")["fill"] == 1
    one = call(page, "scoreShown", 4, {"target": 15, "one_hand": True}, "countdown")
    assert one == {"key": "points_short", "n": 4, "fill": None}


def test_events_told_in_words(page: Page) -> None:
    play = {"index": 3, "type": "play", "seat": 1, "text": "play B3 B7", "value": 73}
    assert call(page, "eventMessage", play) == {
        "key": "say_play",
        "params": {"cards": "B3 B7", "value": 73},
        "seat": 1,
    }
    take = {"index": 4, "type": "take", "seat": 1, "card": "K5", "text": "take K5"}
    assert call(page, "eventMessage", take)["key"] == "say_take"
    assert call(page, "eventMessage", {"index": 5, "type": "game_end", "winners": [0]}) is None


def test_arrow_keys_move_between_cards(page: Page) -> None:
    assert call(page, "nextCardIndex", 9, 0, "ArrowRight") == 1
    assert call(page, "nextCardIndex", 9, 8, "ArrowRight") == 0
    assert call(page, "nextCardIndex", 9, 0, "ArrowLeft") == 8
    assert call(page, "nextCardIndex", 9, 4, "Home") == 0
    assert call(page, "nextCardIndex", 9, 4, "End") == 8
    assert call(page, "nextCardIndex", 9, -1, "ArrowRight") == 0
    assert call(page, "nextCardIndex", 0, 0, "ArrowRight") == -1


def test_pass_for_the_rest_of_the_round_lasts_one_round(page: Page) -> None:
    events = [DEAL, {"index": 1, "type": "play", "seat": 2, "text": "play K5", "value": 5}]
    assert call(page, "roundKey", events) == 0
    prefs = {"autoPass": False, "autoTake": False}
    auto = call(page, "automaticAction", _state(), 0, events, prefs, 0)
    assert auto == {"action": "pass", "key": "pass_round_done", "params": {}}
    later = [*events, {"index": 2, "type": "round", "leader": 2}]
    assert call(page, "roundKey", later) == 2
    assert call(page, "automaticAction", _state(), 0, later, prefs, 0) is None
    assert call(page, "automaticAction", _state(to_move=1), 0, events, prefs, 0) is None
    assert call(page, "automaticAction", _state(decision="lead"), 0, events, prefs, 0) is None


def test_auto_pass_only_when_nothing_beats_the_table(page: Page) -> None:
    on = {"autoPass": True, "autoTake": False}
    stuck = _state(legal=["pass"], table_value=98)
    assert call(page, "automaticAction", stuck, 0, [DEAL], on, None) == {
        "action": "pass",
        "key": "auto_pass_done",
        "params": {"value": 98},
    }
    assert call(page, "automaticAction", _state(), 0, [DEAL], on, None) is None  # B7 beats
    off = {"autoPass": False, "autoTake": False}
    assert call(page, "automaticAction", stuck, 0, [DEAL], off, None) is None


def test_auto_take_only_when_one_card_can_be_taken(page: Page) -> None:
    on = {"autoPass": False, "autoTake": True}
    one = _state(decision="take", legal=["take K5"])
    assert call(page, "automaticAction", one, 0, [DEAL], on, None) == {
        "action": "take K5",
        "key": "auto_take_done",
        "params": {"card": "K5"},
    }
    two = _state(decision="take", legal=["take K5", "take R5"])
    assert call(page, "automaticAction", two, 0, [DEAL], on, None) is None
    off = {"autoPass": False, "autoTake": False}
    assert call(page, "automaticAction", one, 0, [DEAL], off, None) is None


def test_no_new_action_until_my_last_one_is_shown(page: Page) -> None:
    assert not call(page, "myUpdatePending", 7, None, module=SHELL)
    assert call(page, "myUpdatePending", 7, 8, module=SHELL)  # acknowledged, its update queued
    assert not call(page, "myUpdatePending", 8, 8, module=SHELL)
    assert not call(page, "myUpdatePending", 12, 8, module=SHELL)

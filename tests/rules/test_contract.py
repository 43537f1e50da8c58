"""Both games through the game contract only: what the server, arena and records rely on.

The assignments below are the structural conformance check of Odin and of In the Name
of Odin (``mypy`` must accept them; :func:`test_mypy_accepts_odin_as_the_contract` runs
it on this file). The other tests drive a game using nothing but the contract's members.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from odin_cards.contract import ActionError, GameRules, GameState, Record, SetupError
from odin_cards.games import keys, rules_of
from odin_cards.name_of_odin.rules import NAME_OF_ODIN
from odin_cards.name_of_odin.rules import Game as NameOfOdinGame
from odin_cards.odin.rules import ODIN, Game, GameRecord, Options, OptionsError

RULES: GameRules = ODIN
STATE: GameState = Game.new(3, Options(), seed=1)
RECORD: Record = STATE.record()
NOO_RULES: GameRules = NAME_OF_ODIN
NOO_STATE: GameState = NAME_OF_ODIN.new_game(3, {}, seed=1)
NOO_GAME: NameOfOdinGame = NAME_OF_ODIN.new_game(2, {}, seed=1)
NOO_RECORD: Record = NOO_GAME.record()


def play_out(rules: GameRules, players: int, setup: dict[str, Any], seed: int) -> GameState:
    """A whole game of random legal actions, through the contract alone."""
    state = rules.new_game(players, rules.check_setup(players, setup), seed)
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.current_player
        assert seat is not None and state.decision is not None
        legal = state.legal_actions()
        assert legal, "a game that is not over has a legal action"
        count = state.action_count
        action = legal[rng.randrange(len(legal))]
        assert state.parse(action.text).id == action.id
        events = state.apply(action.text, seat)
        assert events and all(isinstance(e.kind, str) for e in events)
        assert state.action_count == count + 1
    assert state.current_player is None and state.decision is None
    assert state.legal_actions() == []
    return state


@pytest.mark.parametrize(
    ("game", "players", "setup"),
    [
        ("odin", 2, {"colours": 4, "goat": True}),
        ("odin", 4, {}),
        ("odin", 6, {"target": 10, "next_leader": "winner"}),
        ("name-of-odin", 2, {}),
        ("name-of-odin", 5, {"first_player": 4}),
    ],
)
def test_a_whole_game_and_its_record_through_the_contract(
    game: str, players: int, setup: dict[str, Any]
) -> None:
    rules = rules_of(game)
    state = play_out(rules, players, setup, seed=players)
    outcome = state.outcome
    assert outcome is not None and outcome.winners
    assert len(outcome.scores) == players == state.players
    data = json.loads(json.dumps(state.record().to_dict()))
    assert data["game"] == rules.key and data["format"] == rules.record_format
    replayed = rules.load_record(data).replay()
    assert replayed.public_events() == state.public_events()
    assert replayed.public_length == state.public_length == len(state.public_events())
    assert replayed.action_count == state.action_count
    assert replayed.outcome == outcome
    assert replayed.view(0) == state.view(0)
    if game == "odin":
        assert replayed == state  # Odin's own equality: the whole state


def test_replaying_the_logged_actions_rebuilds_the_game() -> None:
    """What the server stores per table: setup, seed and the actions by number."""
    state = ODIN.new_game(4, {"goat": True}, seed="table-7")
    log: list[tuple[int, int, str]] = []
    rng = random.Random(3)
    while not state.is_over and state.action_count < 150:
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        log.append((state.action_count, seat, action.text))
        state.apply(action, seat)
    assert [number for number, _, _ in log] == list(range(len(log)))
    again = ODIN.new_game(4, ODIN.check_setup(4, {"goat": True}), seed="table-7")
    for _, seat, text in log:
        again.apply(text, seat)
    assert again.public_events() == state.public_events()
    assert again.view(0) == state.view(0)


def test_action_count_counts_actions_not_history_entries() -> None:
    state = ODIN.new_game(2, {"first_leader": 0, "one_hand": True}, seed=1)
    assert (state.action_count, state.public_length) == (0, 1)  # the deal
    state.apply(state.legal_actions()[0])
    follow = next(a for a in state.legal_actions() if a.text.startswith("play"))
    state.apply(follow)
    state.apply(state.legal_actions()[0])  # the take, with a discard when 2+ cards
    assert state.action_count == 3
    assert state.public_length >= 4
    assert state.public_events(state.public_length) == []
    tail = state.public_events(1)
    assert [e["index"] for e in tail] == list(range(1, state.public_length))


def test_refused_actions_are_contract_errors_and_change_nothing() -> None:
    state = ODIN.new_game(3, {}, seed=5)
    seat = state.current_player
    assert seat is not None
    before = (state.action_count, state.public_events(), state.view(seat))
    for bad in ("jump", "play B0", "pass", "take B1", "play B1 R2"):
        with pytest.raises(ActionError):
            state.apply(bad, seat)
    with pytest.raises(ActionError):
        state.apply(state.legal_actions()[0], (seat + 1) % 3)
    with pytest.raises(ActionError):
        state.parse("play")
    assert (state.action_count, state.public_events(), state.view(seat)) == before


@pytest.mark.parametrize(
    "setup",
    [
        {"colours": 4.0},
        {"colours": True},
        {"target": 15.0},
        {"target": True},
        {"first_leader": True},
        {"first_leader": 1.0},
        {"goat": 1},
        {"one_hand": "yes"},
        {"next_leader": ["rotate"]},
        {"jokers": 2},
        {5: 1},
    ],
)
def test_check_setup_is_strict(setup: dict[Any, Any]) -> None:
    with pytest.raises(SetupError):
        ODIN.check_setup(2, setup)


@pytest.mark.parametrize("players", [1, 7, True, 2.0, "2", None])
def test_check_setup_refuses_player_counts(players: Any) -> None:
    with pytest.raises(SetupError):
        ODIN.check_setup(players, {})


def test_check_setup_fills_in_every_default_and_is_json_safe() -> None:
    setup = ODIN.check_setup(2, {"colours": 4})
    assert setup == {**Options(colours=4).to_dict()}
    assert json.loads(json.dumps(setup)) == setup
    assert ODIN.check_setup(2, setup) == setup
    assert ODIN.check_setup(5, {}) == Options().to_dict()
    with pytest.raises(SetupError):
        ODIN.check_setup(5, {"colours": 4})  # four colours are for two players
    with pytest.raises(SetupError):
        ODIN.check_setup(2, "target=10")  # type: ignore[arg-type]


def test_setup_errors_are_odin_errors_too() -> None:
    with pytest.raises(OptionsError):
        ODIN.new_game(2, {"target": 0}, seed=1)
    with pytest.raises(SetupError):
        ODIN.new_game(2, {}, seed=1.5)  # type: ignore[arg-type]


def test_injected_chance_deals_the_first_hands() -> None:
    deal = [
        ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"],
        ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"],
    ]
    state = ODIN.new_game(2, {"first_leader": 0}, seed=1, chance=[deal])
    assert state.view(0).hand == tuple(deal[0])
    with pytest.raises(SetupError):
        ODIN.new_game(2, {}, seed=1, chance=[[deal[0], deal[0]]])


def test_the_registry() -> None:
    assert keys() == ("odin", "name-of-odin") and rules_of("odin") is ODIN
    assert rules_of("name-of-odin") is NAME_OF_ODIN
    assert (NAME_OF_ODIN.record_format, NAME_OF_ODIN.min_players, NAME_OF_ODIN.max_players) == (
        "name-of-odin-record/1",
        2,
        5,
    )
    assert (ODIN.key, ODIN.rules_version, ODIN.record_format) == (
        "odin",
        2,
        "odin-cards-record/3",
    )
    assert (ODIN.min_players, ODIN.max_players) == (2, 6)
    for key in ("chess", "", "x" * 5000, 5, None):
        with pytest.raises(SetupError, match="unknown game"):
            rules_of(key)  # type: ignore[arg-type]


def test_a_record_of_another_game_is_refused() -> None:
    data = Game.new(2, seed=1).record().to_dict()
    data["game"] = "chess"
    with pytest.raises(ValueError, match="not a record of Odin"):
        ODIN.load_record(data)
    assert isinstance(ODIN.load_record(Game.new(2, seed=1).record().to_dict()), GameRecord)


def test_mypy_accepts_odin_as_the_contract() -> None:
    from mypy import api

    root = Path(__file__).resolve().parents[2]
    out, err, status = api.run(
        ["--strict", "--no-error-summary", "--config-file", str(root / "pyproject.toml"), __file__]
    )
    assert status == 0, out + err


def test_name_of_odin_refuses_through_the_contract_and_changes_nothing() -> None:
    state = NAME_OF_ODIN.new_game(3, {"first_player": 1}, seed="t")
    assert (state.current_player, state.decision) == (1, "turn")
    before = (state.action_count, state.public_events(), state.view(1))
    for bad in ("jump", "raid", "pass", "take 0", "build forge-great WC WC WC", "match WH"):
        with pytest.raises(ActionError):
            state.apply(bad, 1)
    with pytest.raises(ActionError):
        state.apply("end", 0)
    assert (state.action_count, state.public_events(), state.view(1)) == before


@pytest.mark.parametrize(
    "setup",
    [
        {"first_player": True},
        {"first_player": 3},
        {"first_player": 1.0},
        {"cards": "mine"},
        {"x": 1},
    ],
)
def test_name_of_odin_check_setup_is_strict(setup: dict[str, Any]) -> None:
    with pytest.raises(SetupError):
        NAME_OF_ODIN.check_setup(3, setup)
    with pytest.raises(SetupError):
        NAME_OF_ODIN.check_setup(6, {})
    assert NAME_OF_ODIN.check_setup(3, {}) == {"cards": "starter", "first_player": None}

"""Records, notation, views and set-up through the engine's public API."""

from __future__ import annotations

import json
import random
import re

import pytest

from odin_cards.contract import ActionError, SetupError
from odin_cards.name_of_odin.rules import NAME_OF_ODIN, Game, RecordError, parse
from odin_cards.name_of_odin.rules.errors import SeatError


def some_game(players: int = 3, seed: int = 5, steps: int = 120) -> Game:
    game = NAME_OF_ODIN.new_game(players, {}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_a_running_game_replays_from_its_record() -> None:
    game = some_game()
    data = json.loads(game.record().to_json())
    assert data["format"] == "name-of-odin-record/1" and data["outcome"] is None
    again = NAME_OF_ODIN.load_record(data).replay()
    assert again.view(None) == game.view(None) and again.view(1) == game.view(1)


def test_records_that_are_not_refused_clearly() -> None:
    data = some_game().record().to_dict()
    changes: list[tuple[dict[str, object], str]] = [
        ({"format": "odin-cards-record/3"}, "not a record of In the Name of Odin"),
        ({"game": "odin"}, "game 'odin'"),
        ({"actions": [[0, "jump"]]}, "action 0 ('jump') does not replay"),
        ({"actions": [["0", "end"]]}, "action 0 is [seat, text]"),
        ({"players": 9}, "does not replay"),
        ({"outcome": {"scores": [1, 2, 3], "winners": [0]}}, "stored outcome"),
    ]
    for change, message in changes:
        with pytest.raises(RecordError, match=re.escape(message)):
            NAME_OF_ODIN.load_record({**data, **change}).replay()
    with pytest.raises(RecordError, match="broken record: no 'seed'"):
        NAME_OF_ODIN.load_record({k: v for k, v in data.items() if k != "seed"})


def test_notation_is_canonical() -> None:
    assert parse("  BUILD  Forge-Anvil sc wc +c ").text == "build forge-anvil WC SC +C"
    assert parse("raid iona knarr w t t").text == "raid iona knarr W T T"
    for bad in (
        "",
        "jump",
        "recruit",
        "recruit XX",
        "recruit WH WH WH WH",
        "build forge +H WC",
        "raid iona",
        "take x",
        "release Q",
        "swap WH",
        "end now",
        "x" * 300,
    ):
        with pytest.raises(ActionError):
            parse(bad)


def test_views_show_only_the_own_hand_and_are_json() -> None:
    game = some_game(4, seed=9, steps=40)
    for seat in range(4):
        view = game.view(seat)
        assert json.loads(json.dumps(view)) == view
        assert view["hand"] == game.villages[seat].hand
        text = json.dumps(view)
        assert 'action_deck": [' not in text  # a count, never the cards
        assert all("hand" not in village for village in view["villages"])
    spectator = game.view(None)
    assert spectator["hand"] is None and spectator["legal"] == []
    for bad in (4, -1, True, "0"):
        with pytest.raises(SeatError):
            game.view(bad)  # type: ignore[arg-type]


def test_hostile_actions_and_seats_are_refused() -> None:
    game = NAME_OF_ODIN.new_game(2, {"first_player": 1}, seed=2)
    for bad in (-1, game.space.size, True, None, b"end", ["end"]):
        with pytest.raises(ActionError):
            game.apply(bad)  # type: ignore[arg-type]
    for seat in (True, "1", 1.0, 7):
        with pytest.raises(ActionError):
            game.apply("end", seat)  # type: ignore[arg-type]
    assert game.action_count == 0


def test_the_seat_to_move_sees_its_legal_actions() -> None:
    game = NAME_OF_ODIN.new_game(2, {"first_player": 1}, seed=2)
    assert game.view(1)["legal"] == [a.text for a in game.legal_actions()]
    assert game.view(0)["legal"] == []


def test_setup_and_chance() -> None:
    for seed in (1.5, True, None, "s" * 201, 2**300):
        with pytest.raises(SetupError):
            NAME_OF_ODIN.new_game(2, {}, seed=seed)  # type: ignore[arg-type]
    for bad in ({"raid_deck": ["iona"]}, {"dice": 3}, {"first_player": 2}, {"first_player": "0"}):
        with pytest.raises(SetupError):
            NAME_OF_ODIN.new_game(2, {}, seed=1, chance=[bad])
    order = [r.id for r in NAME_OF_ODIN.card_set(NAME_OF_ODIN.check_setup(2, {})).raids]
    game = NAME_OF_ODIN.new_game(
        2, {}, seed=1, chance=[{"raid_deck": order, "markers": ["S", "W", "T"]}]
    )
    assert game.ocean == order[:5] and game.raid_deck == order[5:8]
    assert game.markers == {1: "S", 2: "W"} and game.spare_markers == ["T"]
    data = json.loads(json.dumps(game.record().to_dict()))
    assert NAME_OF_ODIN.load_record(data).replay().ocean == order[:5]


def test_the_same_seed_gives_the_same_game() -> None:
    one, two = some_game(seed=11), some_game(seed=11)
    assert one.public_events() == two.public_events()
    assert one.view(0) == two.view(0)

"""The card-set format: the starter set, round trips, and errors that name their place."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from odin_cards.contract import SetupError
from odin_cards.name_of_odin.rules import (
    NAME_OF_ODIN,
    CardsError,
    load_cards,
    parse_cards,
    starter_cards,
)
from odin_cards.name_of_odin.rules.cards import EFFECTS, FORMAT


def test_the_starter_set_has_the_rulebook_counts_and_says_it_is_not_the_published_cards() -> None:
    cards = starter_cards()
    assert (len(cards.buildings), len(cards.heroes), len(cards.ships), len(cards.raids)) == (
        20,
        17,
        12,
        16,
    )
    assert sum(cards.actions.values()) == 90
    assert "NOT the published cards" in cards.note
    kinds = [b.kind for b in cards.buildings]
    assert all(kinds.count(kind) == 4 for kind in set(kinds))
    abilities = [c.ability for c in cards.buildings] + [c.ability for c in cards.heroes]
    abilities += [c.ability for c in cards.ships]
    assert None not in abilities  # "jedes Gebäude ... eine einzigartige Fähigkeit", heroes, ships
    used = {a.effect for a in abilities if a is not None}
    assert used == set(EFFECTS)  # the starter set shows every effect of the catalogue


def test_a_card_set_round_trips_through_toml_and_json_files(tmp_path: Path) -> None:
    data = starter_cards().to_dict()
    json_file = tmp_path / "mine.json"
    json_file.write_text(json.dumps(data))
    assert load_cards(json_file) == starter_cards()
    toml_file = tmp_path / "mine.toml"
    source = Path(__file__).parents[2] / "src/odin_cards/name_of_odin/rules/starter.toml"
    toml_file.write_text(source.read_text())
    assert load_cards(toml_file).to_dict() == data


def broken(change: str) -> dict[str, Any]:
    data = starter_cards().to_dict()
    if change == "viking":
        data["hero"][0]["viking"] = "red"
    elif change == "effect":
        data["ship"][1]["ability"] = {"effect": "raid-glory", "amount": 1}
    elif change == "duplicate":
        data["raid"][1]["id"] = data["raid"][0]["id"]
    elif change == "range":
        data["ship"][2]["range"] = 0
    elif change == "unknown":
        data["building"][3]["colour"] = "red"
    elif change == "format":
        data["format"] = "cards/9"
    elif change == "kind":
        data["building"][0]["kind"] = "castle"
    elif change == "players":
        data["board"]["raids_by_players"] = {"2": 8}
    elif change == "glory":
        data["raid"][0]["glory"] = True
    elif change == "hostile effect":
        data["hero"][0]["ability"] = {"effect": ["raid-glory"]}
    elif change == "int keys":
        data["board"]["raids_by_players"] = {2: 8, 3: 10, 4: 12, 5: 14}
    elif change == "not a table":
        data["ship"][0] = "knarr"
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            "viking",
            "mine.toml: hero 'ulf': field 'viking': expected one of warrior, trader, sailor",
        ),
        ("effect", "ship 'snekkja': field 'ability': field 'effect': expected one of extra-range"),
        ("duplicate", "raid #2: field 'id': expected an id no other card has"),
        ("range", "ship 'byrding': field 'range': expected a whole number 1..9, got 0"),
        ("unknown", "building 'forge-weapon': field 'colour': expected only the fields"),
        ("format", f"field 'format': expected {FORMAT!r}"),
        ("kind", "building 'forge-anvil': field 'kind': expected one of forge"),
        ("players", "raids_by_players': expected the keys"),
        ("glory", "raid 'lindisfarne': field 'glory': expected a whole number 0..20, got True"),
        ("hostile effect", "hero 'ulf': field 'ability': field 'effect': expected one of"),
        ("int keys", "raids_by_players': expected the keys"),
        ("not a table", "ship #1: expected a table, got 'knarr'"),
    ],
)
def test_errors_name_the_file_the_card_and_the_field(change: str, message: str) -> None:
    with pytest.raises(CardsError) as error:
        parse_cards(broken(change), "mine.toml")
    assert message in str(error.value)


def test_unreadable_files_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(CardsError, match="cannot be read"):
        load_cards(tmp_path / "none.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("format = ")
    with pytest.raises(CardsError, match=r"bad\.toml: not TOML"):
        load_cards(bad)
    big = tmp_path / "big.json"
    big.write_text(" " * 1_000_001)
    with pytest.raises(CardsError, match="larger than"):
        load_cards(big)


def test_a_game_with_its_own_cards_stores_them_in_the_setup() -> None:
    data = starter_cards().to_dict()
    data["name"] = "my copy"
    data["raid"][0]["glory"] = 9
    setup = NAME_OF_ODIN.check_setup(2, {"cards": data})
    assert setup["cards"]["name"] == "my copy"
    game = NAME_OF_ODIN.new_game(2, setup, seed=3)
    assert game.cards.raid("lindisfarne").glory == 9 and game.view(0)["cards"] == "my copy"
    with pytest.raises(SetupError, match="set-up 'cards': hero 'ulf'"):
        NAME_OF_ODIN.check_setup(2, {"cards": broken("viking")})


def leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a card-set dict."""
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += leaves(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += leaves(value, (*path, index))
    return found


def test_any_mangled_card_set_is_a_card_set_or_a_cards_error() -> None:
    """Public means hostile: random damage anywhere gives a clear error, never a crash."""
    rng = random.Random(15)
    odd: list[Any] = [None, True, 0, -1, 10**30, 2.5, "", "x" * 100, [], {}, ["warrior"], {"a": 1}]
    for _ in range(400):
        data = starter_cards().to_dict()
        path = rng.choice(leaves(data)[1:])
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        if rng.random() < 0.2 and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = rng.choice(odd)
        try:
            parse_cards(data, "mangled.json")
        except CardsError as error:
            assert str(error).startswith("mangled.json: ")

"""A game's state is a value: one field list drives its copy and its equality, and chance
comes from a seeded stream held as a plain value, never from a live generator."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import fields
from typing import Any

from odin_cards.name_of_odin.rules import NAME_OF_ODIN, Game
from odin_cards.name_of_odin.rules.state import State


def played(players: int = 3, seed: int = 4, steps: int = 400) -> Game:
    """A game some way in: villages with ships and buildings, a reshuffle or two."""
    game = NAME_OF_ODIN.new_game(players, {}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def mutable_parts(value: object, found: dict[int, object]) -> dict[int, object]:
    """Every container and mutable dataclass reachable from ``value`` (by id)."""
    if isinstance(value, list | dict | set):
        found[id(value)] = value
        items = value.values() if isinstance(value, dict) else value
        for item in items:
            mutable_parts(item, found)
    elif hasattr(value, "__dataclass_fields__") and not value.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        found[id(value)] = value
        for f in fields(value):  # type: ignore[arg-type]
            mutable_parts(getattr(value, f.name), found)
    return found


def every_part(value: object, found: list[object]) -> list[object]:
    """Everything reachable from ``value`` through containers and dataclasses."""
    found.append(value)
    if isinstance(value, list | tuple | set | frozenset):
        for item in value:
            every_part(item, found)
    elif isinstance(value, dict):
        for key, item in value.items():
            every_part(key, found)
            every_part(item, found)
    elif hasattr(value, "__dataclass_fields__"):
        for f in fields(value):  # type: ignore[arg-type]
            every_part(getattr(value, f.name), found)
    return found


def test_a_copy_is_equal_and_shares_nothing_mutable_but_what_is_set_once() -> None:
    game = played()
    twin = game.clone()
    assert twin == game and twin is not game and type(twin) is Game
    set_once = [f.name for f in fields(State) if f.metadata.get("set_once")]
    assert set_once == ["setup", "chance"]
    assert twin.setup is game.setup
    for f in fields(State):
        if f.name not in set_once:
            mine = mutable_parts(getattr(game, f.name), {})
            theirs = mutable_parts(getattr(twin, f.name), {})
            assert set(mine) & set(theirs) == set(), f"the copy shares a part of {f.name}"


def test_a_game_pickles_and_deep_copies_to_an_equal_game() -> None:
    game = played()
    for again in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert again == game and type(again) is Game
        assert again.legal_action_ids() == game.legal_action_ids()


def test_a_copy_plays_on_alone() -> None:
    game = played(steps=300)
    before = game.clone()
    other = game.clone()
    rng = random.Random(1)
    for _ in range(200):
        if other.is_over:
            break
        other.apply(rng.choice(other.legal_actions()))
    assert game == before and other != game
    assert [game.view(seat) for seat in range(3)] == [before.view(seat) for seat in range(3)]


def test_equality_compares_every_field_but_the_derived_id_space() -> None:
    game = played(steps=100)
    compared = [f.name for f in fields(State) if f.compare]
    assert [f.name for f in fields(State) if not f.compare] == ["space"]
    for name in compared:
        other = game.clone()
        value: Any = getattr(other, name)
        changed: Any = (value, "changed")  # of another type than any field holds
        setattr(other, name, changed)
        assert other != game, f"== ignores the field {name}"


def test_the_same_seed_gives_equal_games_and_a_replay_equals_its_game() -> None:
    one, two = played(seed=11), played(seed=11)
    assert one == two
    again = NAME_OF_ODIN.load_record(one.record().to_dict()).replay()
    assert again == one and type(again) is Game
    assert played(seed=12) != one


def test_the_state_holds_no_generator_only_a_stream_value() -> None:
    game = played()
    assert not any(isinstance(part, random.Random) for part in every_part(game, []))
    assert isinstance(game.stream, tuple)
    assert game.stream == game.clone().stream


def test_drawing_moves_the_stream_on_and_a_copy_draws_the_same() -> None:
    """A reshuffle draws from the stream; a copy made before it reshuffles identically."""
    game = played(players=2, seed=1, steps=0)
    rng = random.Random(3)
    while not any(e.kind == "reshuffle" for e in game.history):
        other = game.clone()
        action = rng.choice(game.legal_actions())
        game.apply(action)
        other.apply(action)
        assert other == game
    assert game.stream != NAME_OF_ODIN.new_game(2, {}, 1).stream

"""Odin's state is a value: its one field list drives :meth:`State.clone` and ``==``."""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

import pytest

from odin_cards.odin.rules import Game, Options
from odin_cards.odin.rules.state import State


def played(steps: int = 40) -> Game:
    game = Game.new(4, Options(), seed=3)
    rng = random.Random(3)
    for _ in range(steps):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


@pytest.mark.parametrize("history", [True, False])
def test_a_clone_copies_every_field_and_shares_no_list(history: bool) -> None:
    game = played()
    copy = game.clone(history)
    assert type(copy) is Game
    for f in fields(State):
        mine, theirs = getattr(game, f.name), getattr(copy, f.name)
        if f.name == "history" and not history:
            assert theirs == []
            continue
        assert theirs == mine, f.name
        if isinstance(mine, list):
            assert theirs is not mine, f"the clone shares {f.name}"
    assert (copy == game) is history


def test_equality_compares_every_field_but_where_the_deals_came_from() -> None:
    game = played()
    for f in fields(State):
        other = game.clone()
        value: Any = getattr(other, f.name)
        setattr(other, f.name, (value, "changed"))
        assert (other == game) is (f.name == "deals"), f.name

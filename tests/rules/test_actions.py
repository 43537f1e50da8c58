"""The integer action id space: stable, complete, documented in docs/actions.md."""

from __future__ import annotations

import pickle
import random

import pytest

from odin_cards.odin.rules import (
    ALL_ACTIONS,
    FIRST_PLAY_ID,
    NUM_ACTIONS,
    Game,
    MalformedActionError,
    Options,
    action_from_id,
    parse_action,
)
from odin_cards.odin.rules.actions import PLAY_ACTIONS


def test_id_layout() -> None:
    assert NUM_ACTIONS == 6702
    assert parse_action("pass").id == 0
    assert parse_action("take B1").id == 1
    assert parse_action("take O9").id == 54
    assert parse_action("take X0").id == 55
    assert FIRST_PLAY_ID == 56
    assert ALL_ACTIONS[FIRST_PLAY_ID].text == "play X0"  # the single worth 0
    assert ALL_ACTIONS[-1].text == "play X0 R1 R2 R3 R4 R5 R6 R7 R8 R9"  # worth 9876543210


def test_ids_follow_size_then_value_then_text() -> None:
    keys = [(a.size, a.value, a.text) for a in PLAY_ACTIONS]
    assert keys == sorted(keys)
    assert all(ALL_ACTIONS[i].id == i for i in range(NUM_ACTIONS))


def test_known_ids_are_stable() -> None:
    # Fixed points of the published encoding: changing them breaks trained agents.
    assert parse_action("play B1").id == 57
    assert parse_action("play K5 O5").id == 268
    assert [a.text for a in ALL_ACTIONS[56:60]] == ["play X0", "play B1", "play G1", "play K1"]


def test_every_id_round_trips_through_text_and_pickle() -> None:
    for action in ALL_ACTIONS:
        assert parse_action(action.text) is action
        assert pickle.loads(pickle.dumps(action)) is action


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 10**9])
def test_unknown_ids_are_malformed(bad: int) -> None:
    with pytest.raises(MalformedActionError):
        action_from_id(bad)


def test_legal_mask_matches_legal_actions() -> None:
    rng = random.Random(3)
    game = Game.new(3, Options(goat=True), seed=9)
    for _ in range(300):
        if game.is_over:
            break
        mask = game.legal_mask()
        ids = game.legal_action_ids()
        assert [i for i, flag in enumerate(mask) if flag] == ids
        game.apply(ids[rng.randrange(len(ids))])

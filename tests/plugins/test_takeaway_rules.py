"""Take-away, the tests' own game, keeps the game contract: what the platform relies on."""

from __future__ import annotations

import random

import pytest

from odin_cards.contract import ActionError, GameRules, GameState, Record, SetupError

from .takeaway.rules import TAKE_AWAY, Game

RULES: GameRules = TAKE_AWAY
STATE: GameState = TAKE_AWAY.new_game(2, {}, seed=1)
RECORD: Record = STATE.record()


def play_out(seed: int) -> Game:
    game = TAKE_AWAY.new_game(2, {"pile": 20}, seed)
    dice = random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[dice.randrange(len(legal))].text, game.current_player)
    return game


def test_whole_games_end_with_one_winner_and_replay_from_their_record() -> None:
    for seed in range(30):
        game = play_out(seed)
        outcome = game.outcome
        assert outcome is not None and sum(outcome.scores) == 1
        assert outcome.winners == (game.public_events()[-1]["seat"],)
        again = TAKE_AWAY.load_record(game.record().to_dict()).replay()
        assert again.public_events() == game.public_events()


def test_a_seat_sees_its_own_hand_only_and_the_deck_never() -> None:
    game = TAKE_AWAY.new_game(2, {}, seed="hidden", chance=[2, 3, 4, 4, 2, 2])
    assert game.view(0)["hand"] == [2, 3] and game.view(1)["hand"] == [4, 4]
    assert game.view(None)["hand"] is None
    game.apply("take 3", 0)
    assert game.view(0)["hand"] == [2, 2]  # the 3 went; a 2 was drawn
    assert all("number" not in event for event in game.public_events())
    assert "2" not in str(game.view(1)["hand"])


def test_refusals_change_nothing() -> None:
    game = TAKE_AWAY.new_game(2, {"pile": 5}, seed=3, chance=[4, 4, 2, 2])
    before = game.clone()
    for text, seat in (("take 2", 0), ("take 1", 1), ("give 1", 0), ("take 9", 0)):
        with pytest.raises(ActionError):
            game.apply(text, seat)
    assert game == before


@pytest.mark.parametrize("setup", [{"pile": 4}, {"pile": True}, {"size": 5}, {"pile": 51}])
def test_the_set_up_is_checked(setup: dict[str, object]) -> None:
    with pytest.raises(SetupError):
        TAKE_AWAY.check_setup(2, setup)
    with pytest.raises(SetupError):
        TAKE_AWAY.check_setup(3, {})

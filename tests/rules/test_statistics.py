"""A finished game's statistics agree with its outcome, its moves and the cards (#9).

Properties over random games: the last totals are the final scores, points per hand add
up to them, cards are conserved (dealt + taken - played = left), every round has one
winner, the highest set is the highest play; and the record carries the figures, checks
them on replay, and leaves them out while the game runs.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odin_cards.odin.rules import Game, GameRecord, HandEnd, Options, Play, RecordError, RoundEnd
from odin_cards.odin.rules.cards import HAND_SIZE
from odin_cards.odin.rules.statistics import game_statistics


def played(players: int, options: Options, seed: int, moves: int | None = None) -> Game:
    """A game of random legal moves (to its end, or ``moves`` actions)."""
    game = Game.new(players, options, seed)
    chooser = random.Random(seed)
    while not game.is_over and (moves is None or game.action_count < moves):
        game.apply(chooser.choice(game.legal_actions()))
    return game


options = st.builds(
    Options,
    target=st.integers(1, 12),
    one_hand=st.booleans(),
    goat=st.booleans(),
)
games = st.builds(played, st.integers(2, 6), options, st.integers(0, 10**6))


@settings(max_examples=40, deadline=None)
@given(games)
def test_totals_after_each_hand_are_the_scores(game: Game) -> None:
    figures = game_statistics(game.history, game.players)
    assert game.outcome is not None
    assert figures.hands == game.outcome.hands_played
    for seat, mine in enumerate(figures.seats):
        assert len(mine.points) == len(mine.scores) == figures.hands
        assert sum(mine.points) == mine.scores[-1] == game.outcome.scores[seat]
        assert list(mine.scores) == sorted(mine.scores)


@settings(max_examples=40, deadline=None)
@given(games)
def test_totals_of_the_table_are_the_sums_of_the_seats(game: Game) -> None:
    figures = game_statistics(game.history, game.players)
    seats = figures.seats
    assert figures.passes == sum(s.passes for s in seats)
    assert figures.cards_played == sum(s.cards_played for s in seats)
    assert figures.rounds == sum(s.rounds_won for s in seats)
    rounds = sum(isinstance(e, RoundEnd | HandEnd) for e in game.history)
    assert figures.rounds == rounds
    assert sum(s.hands_ended for s in seats) == figures.hands


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(1, 12), st.integers(0, 10**6))
def test_cards_are_conserved_without_the_goat(players: int, target: int, seed: int) -> None:
    """Every hand deals 9 cards a seat; what is left scores 1 point a card."""
    game = played(players, Options(target=target), seed)
    figures = game_statistics(game.history, players)
    for mine in figures.seats:
        left = HAND_SIZE * figures.hands + mine.cards_taken - mine.cards_played
        assert left == sum(mine.points)


@settings(max_examples=40, deadline=None)
@given(games)
def test_the_highest_set_is_the_highest_play(game: Game) -> None:
    figures = game_statistics(game.history, game.players)
    plays = [e for e in game.history if isinstance(e, Play)]
    best = figures.highest_set
    assert best is not None
    assert best.value == max(p.action.value for p in plays)
    first = next(p for p in plays if p.action.value == best.value)
    assert (best.seat, best.cards, best.size) == (first.seat, first.action.cards, len(best.cards))
    for seat, mine in enumerate(figures.seats):
        own = [p.action.value for p in plays if p.seat == seat]
        if mine.highest_set is None:
            assert not own
        else:
            assert mine.highest_set.value == max(own) <= best.value
            assert mine.highest_set.seat == seat


def test_a_hand_by_hand_example() -> None:
    """Two players, one hand dealt by hand: the leader plays all of one colour and wins."""
    blue = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"]
    red = ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"]
    options = Options(one_hand=True, first_leader=0)
    game = Game.new(2, options, 1, deals=[[blue, red]])
    game.apply("play " + " ".join(blue))
    figures = game_statistics(game.history, 2).to_dict()
    assert figures == {
        "hands": 1,
        "rounds": 1,
        "passes": 0,
        "cards_played": 9,
        "highest_set": {
            "seat": 0,
            "hand": 0,
            "cards": blue,
            "value": 987654321,
            "size": 9,
        },
        "seats": [
            {
                "rounds_won": 1,
                "hands_ended": 1,
                "passes": 0,
                "cards_played": 9,
                "cards_taken": 0,
                "highest_set": figures["highest_set"],
                "points": [0],
                "scores": [0],
            },
            {
                "rounds_won": 0,
                "hands_ended": 0,
                "passes": 0,
                "cards_played": 0,
                "cards_taken": 0,
                "highest_set": None,
                "points": [9],
                "scores": [9],
            },
        ],
    }


def test_the_record_of_a_finished_game_carries_them_and_replays_with_them() -> None:
    game = played(3, Options(target=10), 7)
    data = game.record().to_dict()
    assert data["statistics"] == game_statistics(game.history, 3).to_dict()
    again = GameRecord.from_dict(data)
    assert again.statistics == data["statistics"]
    assert again.replay() == game


def test_a_running_game_s_record_has_none() -> None:
    game = played(4, Options(), 3, moves=20)
    assert not game.is_over
    assert "statistics" not in game.record().to_dict()


def test_a_record_without_them_still_loads_and_its_replay_computes_them() -> None:
    game = played(2, Options(target=10), 11)
    data = game.record().to_dict()
    del data["statistics"]
    replayed = GameRecord.from_dict(data).replay()
    assert replayed.record().to_dict()["statistics"] == game.record().to_dict()["statistics"]


@pytest.mark.parametrize(
    "statistics",
    [{"hands": 0}, []],
    ids=["edited", "not-an-object"],
)
def test_a_record_whose_statistics_were_edited_does_not_load_or_replay(
    statistics: object,
) -> None:
    data = played(2, Options(target=10), 5).record().to_dict()
    data["statistics"] = statistics
    with pytest.raises(RecordError, match="statistics"):
        GameRecord.from_dict(data).replay()

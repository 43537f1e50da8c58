"""Every level plays only legal moves, in every configuration, over thousands of games."""

from __future__ import annotations

import random

import pytest

from odin_cards.odin.bots import LEVELS, Bot, Budget, ask, make_bot
from odin_cards.odin.rules import Game, Options

from .positions import CONFIGS

THINKING = {"network"}
"""Levels without a time budget that still take milliseconds a move (the network's
lookahead): checked with the search levels, on an iteration budget."""
FAST = [key for key, level in LEVELS.items() if level.budget == Budget() and key not in THINKING]
"""Levels that need no thinking time (random, heuristic): played over many games."""
SEARCH = [key for key in LEVELS if key not in FAST]


def play(game: Game, keys: list[str], budget: Budget | None, rng: random.Random) -> int:
    """Play ``game`` to the end, seat ``s`` played by ``keys[s]``; return decisions checked.

    ``ask`` refuses an illegal choice and ``apply`` validates again. Whenever a legal
    play empties the hand (a finishing lead or going out), the heuristic must take it.
    """
    bots = [make_bot(k) for k in keys]
    decisions = 0
    while not game.is_over:
        seat = game.to_move
        legal = game.legal_actions()
        action = ask(bots[seat], game, budget or LEVELS[keys[seat]].budget, rng)
        assert action in legal
        if keys[seat] == "heuristic" and any(a.mask == game.hands[seat] for a in legal):
            assert action.mask == game.hands[seat], "the heuristic missed going out"
        game.apply(action)
        decisions += 1
    return decisions


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_fast_levels_play_legally(players: int, options: Options) -> None:
    rng = random.Random(players)
    games = 150
    for number in range(games):
        keys = [FAST[rng.randrange(len(FAST))] for _ in range(players)]
        one_hand = Options(**{**options.to_dict(), "one_hand": number % 2 == 0})
        game = Game.new(players, one_hand, seed=f"legal:{number}")
        play(game, keys, None, rng)
        assert game.outcome is not None


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_search_levels_play_legally(players: int, options: Options) -> None:
    """A small iteration budget keeps this fast; the moves are checked all the same."""
    rng = random.Random(players)
    for number, key in enumerate(SEARCH):
        keys = [key, "heuristic", *["random"] * (players - 2)]
        one_hand = Options(**{**options.to_dict(), "one_hand": True})
        game = Game.new(players, one_hand, seed=f"legal-search:{number}")
        assert play(game, keys, Budget(iterations=8), rng) > 0


def test_levels_are_registered_for_a_lobby() -> None:
    assert list(LEVELS)[:7] == [
        "random",
        "heuristic",
        "network",
        "search-v1",
        "search",
        "search-net",
        "expert",
    ]
    for key, level in LEVELS.items():
        assert key == level.key == key.lower()
        assert level.name and level.description.endswith(".")
        bot = make_bot(key)
        assert isinstance(bot, Bot)
        game = Game.new(3, Options(), seed=f"registered:{key}")
        assert ask(bot, game, Budget(iterations=4), random.Random(1)) in game.legal_actions()
    with pytest.raises(KeyError, match="levels: random"):
        make_bot("grandmaster")

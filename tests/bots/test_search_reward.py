"""The search's reward against the best other seat (``Settings.leader``)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from odin_cards.bots import Budget, SearchBot, ask
from odin_cards.bots.search import CURRENT, hand_rewards, leader_rewards, margin_rewards
from odin_cards.rules import Game, Options
from odin_cards.rules.game import OVER


def test_the_leader_reward_is_the_margin_against_the_best_other_seat() -> None:
    # Seat 0 went out; seat 1 scored 2, the best of the others for seat 0.
    assert leader_rewards((0, 2, 7, 9)) == pytest.approx([0.2, -0.2, -0.7, -0.9])
    # The mean reward pays seat 0 for the 7 and 9 of seats that did not matter, and
    # seat 1, who lost, as if it had gained.
    assert hand_rewards((0, 2, 7, 9)) == pytest.approx([0.6, 1 / 3, -1 / 3, -0.6])
    # Tied best: the margin is zero for both, and the same for the others.
    assert leader_rewards((3, 3, 5)) == pytest.approx([0.0, 0.0, -0.2])


def test_heads_up_the_leader_reward_is_the_mean_reward() -> None:
    for points in [(0, 5), (4, 0), (3, 3)]:
        assert leader_rewards(points) == pytest.approx(hand_rewards(points))


def test_margin_rewards_blend_the_two() -> None:
    points = (0, 2, 7, 9)
    assert margin_rewards(points) == hand_rewards(points)
    assert margin_rewards(points, 1.0) == leader_rewards(points)
    half = margin_rewards(points, 0.5)
    expected = [
        (m + b) / 2 for m, b in zip(hand_rewards(points), leader_rewards(points), strict=True)
    ]
    assert half == pytest.approx(expected)


def test_the_search_with_the_leader_reward_plays_legally_and_reproducibly() -> None:
    bot = SearchBot(seconds=None, iterations=15, settings=replace(CURRENT, leader=1.0))
    game = Game.new(4, Options(one_hand=True), seed=3)
    moves: list[str] = []
    while game.phase != OVER:
        action = ask(bot, game, Budget(iterations=15), random.Random(len(moves)))
        moves.append(action.text)
        game.apply(action)
    again = Game.new(4, Options(one_hand=True), seed=3)
    for index, text in enumerate(moves):
        action = ask(bot, again, Budget(iterations=15), random.Random(index))
        assert action.text == text
        again.apply(action)

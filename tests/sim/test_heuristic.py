"""The compiled heuristic against the bots' own (:func:`odin_cards.odin.bots.policy.choose`).

The search plays its rollouts with the compiled copy when numba is installed, so the two
must agree move for move: same action at every decision, in every variant, for every
version of the heuristic's judgement, ties included (the compiled one visits the legal
moves in the engine's order).
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from odin_cards.odin.bots.compiled import prepare
from odin_cards.odin.bots.policy import FIRST, STYLE, Style, style_vector
from odin_cards.odin.bots.search import CURRENT, rollout, rollout_move, search
from odin_cards.odin.rules import Game, HandEnd, Options
from odin_cards.odin.rules.cards import deck_mask
from odin_cards.odin.sim import HAVE_NUMBA, Batch, SimError
from odin_cards.odin.sim import kernels as k
from odin_cards.odin.sim.rollout import HeuristicPlayouts
from odin_cards.odin.sim.tables import TABLES

from .lockstep import VARIANTS

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="numba is not installed (research extra)")

IDS = [f"{players}p-{index}" for index, (players, _) in enumerate(VARIANTS)]

ODD = Style(
    control=1.3,
    pair_low=True,
    set_weight=0.8,
    card_weight=0.3,
    danger_card_weight=2.5,
    safe_finish_bonus=4.0,
    finish_bonus=0.2,
    deny_bonus=3.0,
    strength_weight=0.12,
    play_threshold=0.35,
    lead_low=-0.04,
)
"""Weights far from the shipped ones, so that other branches decide."""


def _deck(game: Game) -> int:
    return deck_mask((c for c in range(6) if c not in game.removed), game.options.goat)


@pytest.mark.parametrize(("players", "options"), VARIANTS, ids=IDS)
@pytest.mark.parametrize("style", [FIRST, STYLE, ODD], ids=["first", "current", "odd"])
def test_every_decision_is_the_heuristics(players: int, options: Options, style: Style) -> None:
    vector = style_vector(style)
    chosen = np.zeros(1, np.int64)
    decisions = 0
    for seed in range(6):
        game = Game.new(players=players, seed=seed, options=options)
        deck = _deck(game)
        while not game.is_over:
            expected = rollout_move(game, deck, game.legal_actions(), style)
            state = Batch.from_games([game], deals="given").state
            k.heuristic_actions(state, TABLES, vector, chosen)
            assert chosen[0] == expected.id, (seed, game.phase, expected.text)
            game.apply_unchecked(expected)
            decisions += 1
    assert decisions > 100


def _positions(players: int, options: Options, count: int) -> list[Game]:
    """Positions part-way through hands, each a random number of random moves in."""
    rng = random.Random(players)
    positions = []
    for seed in range(count):
        game = Game.new(players=players, seed=seed, options=options)
        for _ in range(rng.randrange(40)):
            legal = game.legal_actions()
            after = game.clone()
            after.apply_unchecked(legal[rng.randrange(len(legal))])
            if after.is_over or after.hand_number != game.hand_number:
                break
            game = after
        positions.append(game)
    return positions


@pytest.mark.parametrize(("players", "options"), VARIANTS[:6], ids=IDS[:6])
def test_play_outs_score_what_the_engine_rollouts_score(players: int, options: Options) -> None:
    for position in _positions(players, options, 30):
        playouts = HeuristicPlayouts(position, style_vector(STYLE))
        expected = rollout(position.clone(history=False), _deck(position), position.hand_number)
        assert playouts.points(position) == expected
        legal = position.legal_actions()
        assert playouts.action(position) == rollout_move(position, _deck(position), legal, STYLE)


def test_a_play_out_leaves_the_position_alone() -> None:
    [position] = _positions(4, Options(), 1)
    before = position.clone()
    HeuristicPlayouts(position, style_vector(STYLE)).points(position)
    assert position == before


def test_a_style_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(SimError, match="figures"):
        HeuristicPlayouts(Game.new(players=2, seed=1), np.zeros(3))


@pytest.mark.parametrize("players", [2, 4])
def test_the_search_builds_the_same_tree_with_compiled_play_outs(players: int) -> None:
    """Same iterations, same seed: the same visits and rewards at every root move."""
    assert prepare(wait=True)
    engine = replace(CURRENT, compiled=False)
    game = Game.new(players=players, seed=11, options=Options(one_hand=True))
    rng = random.Random(3)
    compared = 0
    while not game.is_over:
        legal = game.legal_actions()
        if len(legal) > 1:
            view = game.view(game.to_move)
            fast = search(view, random.Random(compared), None, 120, CURRENT)
            slow = search(view, random.Random(compared), None, 120, engine)
            assert {a: (n.visits, n.total) for a, n in fast.children.items()} == {
                a: (n.visits, n.total) for a, n in slow.children.items()
            }
            compared += 1
        game.apply_unchecked(legal[rng.randrange(len(legal))])
    assert compared >= 5
    assert any(isinstance(e, HandEnd) for e in game.history)

"""Positions rebuilt from one seat's view: sampled hands agree with everything it knows."""

from __future__ import annotations

import random

import pytest

from odin_cards.rules import Game, Options
from odin_cards.rules.cards import GOAT
from odin_cards.rules.position import sample_hands, unseen_mask

FIELDS = (
    "players",
    "scores",
    "known",
    "phase",
    "to_move",
    "table",
    "table_player",
    "beaten",
    "passes",
    "discards",
    "hand_number",
    "hand_leader",
    "removed",
    "options",
)


def random_positions(players: int, options: Options, count: int) -> list[Game]:
    rng = random.Random(players)
    positions = []
    for seed in range(count):
        game = Game.new(players, options, seed=seed)
        for _ in range(rng.randrange(300)):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if not game.is_over:
            positions.append(game)
    return positions


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, Options(colours=4, goat=True)), (4, Options()), (6, Options(goat=True))],
)
def test_sampled_positions_agree_with_the_view(players: int, options: Options) -> None:
    rng = random.Random(7)
    for game in random_positions(players, options, 120):
        seat = game.to_move
        view = game.view(seat)
        hands = sample_hands(view, rng)
        assert hands[seat] == game.hands[seat]
        assert [h.bit_count() for h in hands] == [h.bit_count() for h in game.hands]
        union = 0
        for other, hand in enumerate(hands):
            assert union & hand == 0, "a card dealt twice"
            union |= hand
            assert hand & game.known[other] == game.known[other]
            if other != seat:
                assert hand & ~game.known[other] & ~unseen_mask(view) == 0
        if options.goat:
            goat_out = game.discards | (game.table.mask if game.table else 0)
            goat_out |= game.beaten.mask if game.beaten else 0
            assert bool(union >> GOAT & 1) != bool(goat_out >> GOAT & 1)
        rebuilt = Game.from_view(view, hands, seed=1)
        for name in FIELDS:
            assert getattr(rebuilt, name) == getattr(game, name), name
        assert {a.id for a in rebuilt.legal_actions()} == {a.id for a in game.legal_actions()}

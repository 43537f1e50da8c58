"""Positions for bot tests: games played part-way by random play, seeded."""

from __future__ import annotations

import random
from collections.abc import Iterator

from odin_cards.odin.rules import Game, Options

CONFIGS: tuple[tuple[int, Options], ...] = (
    (2, Options()),
    (2, Options(colours=4)),
    (2, Options(goat=True, colours=4)),
    (3, Options(goat=True)),
    (4, Options()),
    (5, Options(goat=True, next_leader="winner")),
    (6, Options()),
    (6, Options(goat=True)),
)
"""Player counts and options every bot must handle: the Goat, 4 colours, 2 to 6 seats."""


def positions(count: int, seed: int = 0) -> Iterator[Game]:
    """``count`` positions with a decision of at least two legal actions, mid-hand.

    Each comes from a fresh seeded game played by random moves for a random number
    of steps, across :data:`CONFIGS`.
    """
    rng = random.Random(seed)
    made = 0
    attempt = 0
    while made < count:
        players, options = CONFIGS[attempt % len(CONFIGS)]
        game = Game.new(players, options, seed=f"positions:{seed}:{attempt}")
        attempt += 1
        for _ in range(rng.randrange(60)):
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            if game.is_over:
                break
        if game.is_over or len(game.legal_actions()) < 2:
            continue
        made += 1
        yield game

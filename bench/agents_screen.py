"""Arena agents for issue #13's heads-up screens at equal cost (a fixed iteration budget).

Each is today's search (:data:`odin_cards.bots.search.CURRENT`) at ``ITER`` iterations a move
(default 300) with one thing changed; ``Current`` is the search unchanged. Neither change
alters an iteration's cost, so equal iterations are equal think time, and the runs are
reproducible::

    ITER=300 .venv/bin/odin arena bench/agents_screen.py:Uniform \\
        bench/agents_screen.py:Current --one-hand --games 400 -j 2

``Determinized`` is the one agent that is not a setting: determinized UCT ("perfect
information Monte Carlo"), ``TREES`` separate trees (default 10) each searching one deal
drawn from the opponent model's pool, their root statistics summed.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from odin_cards.bots import search as s
from odin_cards.bots.base import Budget
from odin_cards.bots.heuristic import view_choice
from odin_cards.bots.inference import MODEL, weighted_deals
from odin_cards.bots.knowledge import Knowledge
from odin_cards.rules import Action, Game, View
from odin_cards.rules.cards import deck_mask
from odin_cards.rules.position import HandSampler

ITER = int(os.environ.get("ITER", "300"))
TREES = int(os.environ.get("TREES", "10"))


def _agent(**changes: Any) -> type[s.SearchBot]:
    settings = replace(s.CURRENT, **changes)

    class Agent(s.SearchBot):
        def __init__(self) -> None:
            super().__init__(seconds=None, iterations=ITER, settings=settings)

    return Agent


Current = _agent()
Uniform = _agent(model=None)
"""No opponent model: uniform deals."""
GameReward = _agent(game_reward=True)
"""The game-aware reward (heads-up one hand: mostly win or lose)."""
Explore015 = _agent(exploration=0.15)
Explore06 = _agent(exploration=0.6)
Widen05 = _agent(widening=0.5)
Widen2 = _agent(widening=2.0)
Opponents025 = _agent(opponents=0.25)
Opponents05 = _agent(opponents=0.5)
Opponents1 = _agent(opponents=1.0)
"""The other seat plays the heuristic's move from its sampled hand in the tree (all of the
time for ``Opponents1``): the tree branches on the searching seat's moves only."""


class Determinized(s.SearchBot):
    """Determinized UCT: ``TREES`` trees of ``ITER / TREES`` iterations, one deal each."""

    def __init__(self) -> None:
        super().__init__(seconds=None, iterations=ITER)

    def choose(
        self, view: View, legal: Sequence[Action], budget: Budget, rng: random.Random
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        hand = Knowledge.of(view).hand
        for action in legal:
            if action.mask == hand:
                return action
        settings = self.settings
        sampler = HandSampler.of(view)
        base = Game.from_view(view, sampler.draw(rng))
        deck = deck_mask((c for c in range(6) if c not in base.removed), base.options.goat)
        pool, cumulative = weighted_deals(view, rng, s.POOL, MODEL, sampler)
        playouts = s.Playouts(base, deck, base.hand_number, settings)
        summed = s._Node(-1)
        for _ in range(TREES):
            hands = rng.choices(pool, cum_weights=cumulative)[0]
            root = s._Node(-1)
            for _ in range(max(1, ITER // TREES)):
                game = base.with_hands(hands, history=False)
                s._iterate(root, game, deck, base.hand_number, rng, settings, None, playouts)
            for action_id, child in root.children.items():
                total = summed.children.setdefault(action_id, s._Node(child.mover))
                total.visits += child.visits
                total.total += child.total
        return s.best_child(summed, legal, view_choice(view, legal, settings.style))
Buckets2 = _agent(buckets=2)
Buckets3 = _agent(buckets=3)
"""The other seat's statistics kept apart by how good its sampled hand is (two or three
classes): a coarse multiple-observer tree, the other seat choosing as its hand allows."""

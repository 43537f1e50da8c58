"""Arena agents for issue #13's measurements: today's search levels as they were before a
change, seated beside the levels as they are (``odin arena search bench/agents_search.py:Engine``).

Each is a :class:`~odin_cards.odin.bots.search.SearchBot` at the levels' 0.5 s unless
``SECONDS_A_MOVE`` says otherwise, or at a fixed ``ITERATIONS`` a move when that is set; the
level names of ``odin arena`` are the levels as they are now.

:class:`PolicyModel` is a third opponent model for measurements: the learned policy (distilled
from the search) reading the other seats' moves. ``bench/opponent_model.py --model policy``
measures how well it reads them, :class:`PolicyDeals` how the search plays with it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace

from odin_cards.odin.bots.inference import ReplayModel, Weigher, dealt, hand_actions, hand_steps
from odin_cards.odin.bots.learned import Decision, PolicyNet, shipped_policy
from odin_cards.odin.bots.search import CURRENT, SearchBot
from odin_cards.odin.rules import Game, View
from odin_cards.odin.rules.actions import ALL_ACTIONS
from odin_cards.odin.rules.cards import COLOURS, deck_mask

SECONDS = float(os.environ.get("SECONDS_A_MOVE", "0.5"))
ITERATIONS = int(os.environ["ITERATIONS"]) if os.environ.get("ITERATIONS") else None


class Engine(SearchBot):
    """The level ``search`` with its rollouts played by the engine (Python), as before the
    compiled play-outs: the same search, fewer iterations in the same time."""

    def __init__(self) -> None:
        super().__init__(seconds=SECONDS, settings=replace(CURRENT, compiled=False))


class Replay(SearchBot):
    """The level ``search`` weighing its deals with the replay model
    (:class:`odin_cards.odin.bots.inference.ReplayModel`, miss 0.5), not the rules of thumb."""

    def __init__(self) -> None:
        model = ReplayModel(miss=0.5)
        super().__init__(seconds=SECONDS, settings=replace(CURRENT, model=model))


@dataclass(frozen=True)
class PolicyModel:
    """Each other seat chose as the learned policy would from its hand in the sampled deal.

    The hand is replayed from the deal with the engine; every choice of another seat
    among two or more legal moves counts the policy's probability of it, mixed with
    ``floor`` of a uniform choice (a move the policy rules out does not rule the deal out).
    Slow (a replay and a network evaluation a choice, for every deal): for measurements.
    """

    floor: float = 0.05
    net: PolicyNet | None = None

    def weigher(self, view: View) -> Weigher:
        net = self.net if self.net is not None else shipped_policy()
        observer = view.seat
        steps = hand_steps(view)
        actions, seats = hand_actions(view)
        start = replace(  # the hand as dealt, before its first lead
            view,
            known=((),) * view.players,
            table=(),
            table_player=None,
            table_value=None,
            beaten=(),
            discards=(),
            to_move=view.hand_leader,
            decision="lead",
            passes=0,
            history=(),
            outcome=None,
        )
        colours = (i for i, colour in enumerate(COLOURS) if colour in view.colours)
        deck = deck_mask(colours, view.options.goat)

        def weigh(deals: Sequence[Sequence[int]]) -> list[float]:
            weights = []
            for deal in deals:
                hands = dealt(deal, steps)
                sizes = tuple(hand.bit_count() for hand in hands)
                game = Game.from_view(replace(start, hand_sizes=sizes), hands)
                total = 0.0
                for action_id, seat in zip(actions, seats, strict=True):
                    if seat != observer:
                        legal = game.legal_actions()
                        if len(legal) > 1:
                            probabilities = net.probabilities(Decision.of_game(game, deck), legal)
                            chosen = [a.id for a in legal].index(action_id)
                            p = float(probabilities[chosen])
                            total += math.log((1 - self.floor) * p + self.floor / len(legal))
                    game.apply_unchecked(ALL_ACTIONS[action_id])
                weights.append(total)
            return weights

        return weigh


class PolicyDeals(SearchBot):
    """The level ``search`` weighing its deals with :class:`PolicyModel` instead of the
    rules of thumb."""

    def __init__(self) -> None:
        super().__init__(
            seconds=None if ITERATIONS else SECONDS,
            iterations=ITERATIONS,
            settings=replace(CURRENT, model=PolicyModel()),
        )

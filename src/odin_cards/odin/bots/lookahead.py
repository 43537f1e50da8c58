"""The level ``network``: one move ahead, judged by the value network over sampled deals.

For each legal move the bot plays it in each of a few deals of the hidden cards (drawn
by the opponent model, :func:`.inference.weighted_deals`) and asks the value network
(:mod:`.network`) what its seat gains by the hand's end from the position that follows,
a hand that the move ends being scored exactly. The move with the best mean is played,
the heuristic's move among equals. Every position of every move goes through the network
as one batch: a decision takes milliseconds, with no tree and no rollouts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from odin_cards.odin.bots.base import Bot, Budget
from odin_cards.odin.bots.heuristic import view_choice
from odin_cards.odin.bots.inference import MODEL, weighted_deals
from odin_cards.odin.bots.knowledge import Knowledge
from odin_cards.odin.bots.learned import Decision, PolicyNet, shipped_policy
from odin_cards.odin.bots.network import FEATURES, SEATED, ValueNet, shipped, write_features
from odin_cards.odin.bots.policy import STYLE
from odin_cards.odin.bots.search import hand_rewards, rollout_move
from odin_cards.odin.rules import Action, Game, HandEnd, View
from odin_cards.odin.rules.cards import deck_mask
from odin_cards.odin.rules.game import OVER
from odin_cards.odin.rules.position import HandSampler

AFTER = 0
"""Heuristic moves played after each move before the network judges the position."""
DEALS = 24
"""Deals each move is judged in (drawn from a pool of :data:`POOL` weighted ones)."""
POOL = 64


class NetworkBot(Bot):
    """One-move lookahead with the value network; see the module docstring.

    ``Budget(iterations=N)`` sets the number of deals (default :data:`DEALS`).
    """

    level = "network"

    def __init__(
        self,
        net: ValueNet | None = None,
        deals: int = DEALS,
        after: int = AFTER,
        policy_weight: float = 0.0,
        policy: PolicyNet | None = None,
    ) -> None:
        self._net = net
        self.deals = deals
        self.after = after
        self.policy_weight = policy_weight
        """With ``policy_weight`` > 0 each move's mean gets that times the log of the
        learned policy's probability (:mod:`.learned`) added: a prior from the search."""
        self._policy = policy

    @property
    def net(self) -> ValueNet:
        return self._net if self._net is not None else shipped()

    def choose(
        self, view: View, legal: Sequence[Action], budget: Budget, rng: random.Random
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        if view.seat is None or view.to_move != view.seat:
            raise ValueError("a bot decides only for its own seat, on its turn")
        seat = view.seat
        hand = Knowledge.of(view).hand
        for action in legal:
            if action.mask == hand:
                return action  # a finishing lead or going out: nothing scores less
        count = budget.iterations if budget.iterations is not None else self.deals
        sampler = HandSampler.of(view)
        pool, cumulative = weighted_deals(view, rng, max(POOL, count), MODEL, sampler)
        deals = rng.choices(pool, cum_weights=cumulative, k=count)
        base = Game.from_view(view, deals[0])
        deck = deck_mask((c for c in range(6) if c not in base.removed), base.options.goat)
        totals = [0.0] * len(legal)
        rows = np.zeros((count * len(legal), FEATURES))
        owners: list[tuple[int, int]] = []
        for deal in deals:
            game = base.with_hands(deal, history=False)
            for index, action in enumerate(legal):
                after = game.clone(history=False)
                after.apply_unchecked(action)
                for _ in range(self.after):
                    if after.phase == OVER or after.hand_number != game.hand_number:
                        break
                    after.apply_unchecked(rollout_move(after, deck, after.legal_actions(), STYLE))
                if after.phase == OVER or after.hand_number != game.hand_number:
                    ended = next(e for e in reversed(after.history) if isinstance(e, HandEnd))
                    totals[index] += hand_rewards(ended.points)[seat]
                else:
                    write_features(after, rows[len(owners)])
                    owners.append((index, (seat - after.to_move) % after.players))
        if owners:
            x = rows[: len(owners)]
            out = self.net.forward(x, x[:, SEATED])
            for row, (index, slot) in enumerate(owners):
                totals[index] += float(out[row, slot])
        if self.policy_weight > 0:
            net = self._policy if self._policy is not None else shipped_policy()
            logp = np.log(net.probabilities(Decision.of_view(view), legal))
            weight = self.policy_weight
            totals = [t / count + weight * float(p) for t, p in zip(totals, logp, strict=True)]
        prefer = view_choice(view, legal)
        best = max(range(len(legal)), key=lambda i: (round(totals[i], 9), legal[i] == prefer))
        return legal[best]


__all__ = ["DEALS", "NetworkBot"]

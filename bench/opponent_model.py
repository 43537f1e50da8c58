"""How much probability the search's opponent model gives the true hands, against uniform.

Usage (from the repository root)::

    .venv/bin/python bench/opponent_model.py --players 2 --games 150
    .venv/bin/python bench/opponent_model.py --players 4 --games 60
    .venv/bin/python bench/opponent_model.py --players 2 --games 40 --model replay --miss 0.5
    .venv/bin/python bench/opponent_model.py --players 2 --games 40 --level search-v1
    .venv/bin/python bench/opponent_model.py --players 2 --games 40 --level search-v1 --model policy

One-hand games are played by a bot level (default: the heuristic) on seeds that the
model's figures were not chosen on (``holdout:N``); at every third decision the seat
to move's view is taken, and :func:`odin_cards.odin.bots.inference.true_deal_gain` gives
the log-probability (natural log) the model gives the true deal over what the
uniform sampler gives it. The mean over positions is printed with a 95% interval
(positions of one game are correlated: the interval is a rough guide), and as a
factor: e^gain times the uniform probability. ``--model replay`` measures the replay
model (:class:`odin_cards.odin.bots.inference.ReplayModel`) instead of the rules of thumb;
``--model policy`` the learned policy (:class:`PolicyModel`, with ``--miss`` its floor).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace

from odin_cards.odin.bots import LEVELS, Budget, ask, make_bot
from odin_cards.odin.bots.compiled import prepare_replay
from odin_cards.odin.bots.inference import (
    MODEL,
    DealModel,
    ReplayModel,
    Weigher,
    dealt,
    hand_actions,
    hand_steps,
    true_deal_gain,
)
from odin_cards.odin.bots.learned import Decision, PolicyNet, shipped_policy
from odin_cards.odin.rules import Game, Options, View
from odin_cards.odin.rules.actions import ALL_ACTIONS
from odin_cards.odin.rules.cards import COLOURS, deck_mask


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--level", default="heuristic", choices=list(LEVELS))
    parser.add_argument("--iterations", type=int, default=200, help="for search levels")
    parser.add_argument("--samples", type=int, default=100, help="uniform deals per position")
    parser.add_argument(
        "--model",
        choices=["rules", "replay", "policy"],
        default="rules",
        help="the hand-written rules of thumb (OpponentModel), the heuristic's replay, or the"
        " learned policy",
    )
    parser.add_argument(
        "--miss", type=float, default=0.5, help="the replay model's miss; the policy's floor"
    )
    args = parser.parse_args()
    budget = LEVELS[args.level].budget
    if budget != Budget():
        budget = Budget(iterations=args.iterations)
    rng = random.Random(3)
    model: DealModel = MODEL
    if args.model == "replay":
        model = ReplayModel(miss=args.miss)
    elif args.model == "policy":
        model = PolicyModel(floor=args.miss)
    if args.model == "replay" and not prepare_replay():
        parser.error("the replay model needs the compiled kernels (numba)")
    gains = []
    for index in range(args.games):
        game = Game.new(args.players, Options(one_hand=True), seed=f"holdout:{index}")
        bots = [make_bot(args.level) for _ in range(args.players)]
        step = 0
        while not game.is_over:
            seat = game.to_move
            if step % 3 == 0:
                view = game.view(seat)
                gains.append(true_deal_gain(view, game.hands, rng, args.samples, model))
            game.apply(ask(bots[seat], game, budget, random.Random(step)))
            step += 1
    mean = statistics.mean(gains)
    half = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains))
    print(
        f"{args.players} players, {args.level}, {args.model} model"
        f"{f' (miss {args.miss})' if args.model != 'rules' else ''}, {args.games} games,"
        f" {len(gains)} positions:"
        f" mean gain {mean:.3f} nats ({mean - half:.3f} to {mean + half:.3f}),"
        f" the true deal {math.exp(mean):.2f} times as likely as under the uniform sampler"
    )


if __name__ == "__main__":
    main()

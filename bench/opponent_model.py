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
``--model policy`` the learned policy (``PolicyModel`` in ``bench/agents_search.py``, with
``--miss`` its floor).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from agents_search import PolicyModel

from odin_cards.odin.bots import LEVELS, Budget, ask, make_bot
from odin_cards.odin.bots.compiled import prepare
from odin_cards.odin.bots.inference import MODEL, DealModel, ReplayModel, true_deal_gain
from odin_cards.odin.rules import Game, Options


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
    if args.model == "replay" and not prepare():
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

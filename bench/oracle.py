"""How much would knowing every hand help? A search that sees all hands, one against three.

Usage (from the repository root)::

    .venv/bin/python bench/oracle.py --deals 50 --iterations 300
    .venv/bin/python bench/oracle.py --deals 15 --iterations 3000
    .venv/bin/python bench/oracle.py --deals 50 --iterations 300 --opponents heuristic

The *oracle* is the level ``search`` (its settings, rollouts and opponent model) shown a
view in which every other seat's hand is known, so that every deal it samples is the
true one: perfect information, which no bot ever gets. It plays one-hand games of
``--players`` seats against the others, each the level ``--opponents`` at a fixed
``--opponent-iterations`` (for a search level), every deal in every seat rotation. Its
win share (Wilson 95%) and points per hand against the others' mean are printed.

A measurement for issue #13's one-against-three target: how far above the fair share
the best-informed version of this search gets against searching opponents.
"""

from __future__ import annotations

import argparse
import dataclasses
import random

from odin_cards.odin.bots import LEVELS, Budget, ask, make_bot
from odin_cards.odin.bots.search import SearchBot
from odin_cards.odin.rules import Game, HandEnd, Options, View
from odin_cards.odin.rules.cards import mask_text
from odin_cards.tools.arena.stats import wilson_interval


def oracle_view(game: Game) -> View:
    """The seat to move's view, with every other hand shown as known cards."""
    view = game.view(game.to_move)
    known = tuple(tuple(mask_text(game.hand(s)).split()) for s in range(game.players))
    return dataclasses.replace(view, known=known)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--iterations", type=int, default=300, help="the oracle's, a move")
    parser.add_argument("--opponents", default="search-v1", choices=list(LEVELS))
    parser.add_argument("--opponent-iterations", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    oracle = SearchBot(seconds=None, iterations=args.iterations)
    oracle.prepare()
    opponent = make_bot(args.opponents)
    budget = LEVELS[args.opponents].budget
    if budget != Budget():
        budget = Budget(iterations=args.opponent_iterations)
    wins = margin = 0.0
    games = 0
    for deal in range(args.deals):
        for seat in range(args.players):
            game = Game.new(args.players, Options(one_hand=True), f"oracle:{args.seed}:{deal}")
            rng = random.Random(f"oracle:{args.seed}:{deal}:{seat}")
            while not game.is_over:
                if game.to_move == seat:
                    legal = tuple(game.legal_actions())
                    view = oracle_view(game)
                    action = oracle.choose(view, legal, Budget(), rng)
                else:
                    action = ask(opponent, game, budget, rng)
                game.apply(action)
            points = next(e.points for e in reversed(game.history) if isinstance(e, HandEnd))
            best = min(points)
            winners = [s for s, p in enumerate(points) if p == best]
            wins += 1 / len(winners) if seat in winners else 0.0
            margin += points[seat] - (sum(points) - points[seat]) / (args.players - 1)
            games += 1
        low, high = wilson_interval(wins, games)
        print(
            f"{games} games: oracle win share {wins / games:.3f} ({low:.3f}-{high:.3f}),"
            f" fair {1 / args.players:.3f}; points a hand against the others' mean"
            f" {margin / games:+.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()

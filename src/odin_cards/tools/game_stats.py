"""The game's size, per number of players: ``python -m odin_cards.tools.game_stats``.

For ``docs/research.md``: how long a game is (player actions, hands), how many legal
actions a decision offers (the branching factor), and how many histories and information
states one hand has. Measured, not derived, except where said:

- **length and branching**: ``--games`` whole games (target 15) of the heuristic level in
  every seat (``--policy random`` for random play), on seeds 0, 1, ...; every decision
  counts, the forced ones (a single legal action) too, and their share is printed.
- **histories of one hand**: Knuth's estimator (1975): along a random playout the product
  of the legal actions met is an unbiased estimate of the number of playouts; the mean over
  ``--probes`` random one-hand games (random play), times the number of deals (the
  multinomial of 9 cards to each seat, times the seat that leads), is printed as log10.
  Its spread is large: the figure is an order of magnitude.
- **information states**: a seat's first decision already has one information state per
  hand it may hold, C(54, 9) = 4.4 x 10^9 with six colours (exact); every information
  state is a set of histories, so the histories bound them above. Both are printed.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from odin_cards.games import rules_of
from odin_cards.odin.bots import Budget, ask, make_bot
from odin_cards.odin.rules import Game
from odin_cards.odin.rules.cards import HAND_SIZE


@dataclass(frozen=True, slots=True)
class Lengths:
    players: int
    games: int
    actions: list[int]
    hands: list[int]
    decisions: int
    legal: int
    forced: int


def new_game(players: int, seed: int, one_hand: bool = False) -> Game:
    game = rules_of("odin").new_game(players, {"target": 15, "one_hand": one_hand}, seed)
    assert isinstance(game, Game)
    return game


def lengths(players: int, games: int, policy: str) -> Lengths:
    """Whole games with ``policy`` (a level) in every seat: actions, hands, legal actions."""
    bot = make_bot(policy)
    actions, hands = [], []
    decisions = legal_total = forced = 0
    for seed in range(games):
        game = new_game(players, seed)
        rng = random.Random(seed)
        count = 0
        while not game.is_over:
            legal = len(game.legal_action_ids())
            decisions += 1
            legal_total += legal
            forced += legal == 1
            game.apply(ask(bot, game, Budget(), rng).id)
            count += 1
        actions.append(count)
        hands.append(game.hand_number)
    return Lengths(players, games, actions, hands, decisions, legal_total, forced)


def log10_histories(players: int, probes: int) -> float:
    """Knuth's estimate of the player-action histories of one dealt hand, log10."""
    estimates = []
    for seed in range(probes):
        game = new_game(players, 10_000 + seed, one_hand=True)
        rng = random.Random(seed)
        log_product = 0.0
        while not game.is_over:
            legal = game.legal_action_ids()
            log_product += math.log10(len(legal))
            game.apply(rng.choice(legal))
        estimates.append(log_product)
    top = max(estimates)  # the mean of 10^x, computed without overflow
    return top + math.log10(sum(10 ** (e - top) for e in estimates) / len(estimates))


def log10_deals(players: int, cards: int = 54) -> float:
    """The deals of one hand (each seat's 9 cards, the rest out) and the leading seat."""
    rest = cards - HAND_SIZE * players
    ways = math.lgamma(cards + 1) - players * math.lgamma(HAND_SIZE + 1) - math.lgamma(rest + 1)
    return ways / math.log(10) + math.log10(players)


def report(counts: Sequence[int], games: int, probes: int, policy: str) -> list[str]:
    first = math.log10(math.comb(54, HAND_SIZE))
    lines = [
        f"policy {policy}, {games} games a count (target 15), {probes} one-hand probes",
        "| players | actions a game: mean (max) | hands a game: mean (max) |"
        " actions a hand | legal actions a decision | forced decisions |"
        " log10 histories of a hand | log10 information states at a seat's first decision |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for players in counts:
        found = lengths(players, games, policy)
        histories = log10_histories(players, probes) + log10_deals(players)
        lines.append(
            f"| {players} | {statistics.mean(found.actions):.0f} ({max(found.actions)})"
            f" | {statistics.mean(found.hands):.1f} ({max(found.hands)})"
            f" | {sum(found.actions) / sum(found.hands):.1f}"
            f" | {found.legal / found.decisions:.2f}"
            f" | {found.forced / found.decisions:.0%}"
            f" | {histories:.0f} | {first:.1f} |"
        )
        print(lines[-1], file=sys.stderr, flush=True)
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m odin_cards.tools.game_stats")
    parser.add_argument("--players", default="2,3,4,5,6", help="comma-separated counts")
    parser.add_argument("--games", type=int, default=100, help="whole games a count")
    parser.add_argument("--probes", type=int, default=200, help="one-hand random probes")
    parser.add_argument("--policy", default="heuristic", help="the level playing every seat")
    args = parser.parse_args(argv)
    counts = [int(p) for p in args.players.split(",")]
    if not all(2 <= p <= 6 for p in counts) or args.games < 1 or args.probes < 1:
        parser.error("players 2 to 6, at least one game and one probe")
    print("\n".join(report(counts, args.games, args.probes, args.policy)))


if __name__ == "__main__":
    main()

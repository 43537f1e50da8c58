"""Strength of bot levels against each other: win share with a 95% interval, decision times.

Usage (from the repository root)::

    .venv/bin/python bench/strength.py heuristic random --deals 100
    .venv/bin/python bench/strength.py search heuristic --deals 75 --one-hand
    .venv/bin/python bench/strength.py search heuristic heuristic heuristic --deals 25 --one-hand

Each deal (a seeded game) is played once per seat rotation, so every bot plays every
seat of every deal and the luck of the cards cancels. One bot per seat, in the
order given; the first bot's figures are the ones of interest. A shared victory
counts as a fraction. Decision times are per decision with at least two legal
actions (trivial ones return at once), on one core; ``--jobs`` runs games in
parallel processes (leave it at 1 when timing matters).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from odin_cards.odin.bots import LEVELS, Budget, ask, make_bot
from odin_cards.odin.rules import Game, Options


@dataclass
class Tally:
    wins: float = 0.0
    games: int = 0
    points: int = 0
    hands: int = 0
    times: list[float] = field(default_factory=list)


def play(
    keys: list[str], deal: int, rotation: int, options: Options, budget: Budget | None
) -> dict[str, Tally]:
    """One game of deal ``deal`` with the bots rotated ``rotation`` seats."""
    players = len(keys)
    seat_keys = [keys[(seat - rotation) % players] for seat in range(players)]
    bots = [make_bot(k) for k in seat_keys]
    budgets = [budget or LEVELS[k].budget for k in seat_keys]
    rngs = [random.Random(f"strength:{deal}:{rotation}:{seat}") for seat in range(players)]
    game = Game.new(players, options, seed=f"strength:{deal}")
    tallies: dict[str, Tally] = {k: Tally() for k in keys}
    while not game.is_over:
        seat = game.to_move
        trivial = len(game.legal_actions()) == 1
        start = time.perf_counter()
        action = ask(bots[seat], game, budgets[seat], rngs[seat])
        elapsed = time.perf_counter() - start
        if not trivial:
            tallies[seat_keys[seat]].times.append(elapsed)
        game.apply(action)
    outcome = game.outcome
    assert outcome is not None
    for seat, key in enumerate(seat_keys):
        tally = tallies[key]
        tally.games += 1
        tally.hands += outcome.hands_played
        tally.points += outcome.scores[seat]
        if seat in outcome.winners:
            tally.wins += 1 / len(outcome.winners)
    return tallies


def _play(args: tuple[list[str], int, int, Options, Budget | None]) -> dict[str, Tally]:
    return play(*args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("bots", nargs="+", help=f"levels: {', '.join(LEVELS)}")
    parser.add_argument("--deals", type=int, default=50, help="seeded deals (games per rotation)")
    parser.add_argument("--one-hand", action="store_true", help="each game is a single hand")
    parser.add_argument("--target", type=int, default=15)
    parser.add_argument("--seconds", type=float, help="override every bot's time budget")
    parser.add_argument("--iterations", type=int, help="override every bot's iterations")
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    options = Options(target=args.target, one_hand=args.one_hand)
    budget = None
    if args.seconds is not None or args.iterations is not None:
        budget = Budget(args.seconds, args.iterations)
    players = len(args.bots)
    jobs = [
        (args.bots, deal, rotation, options, budget)
        for deal in range(args.first_deal, args.first_deal + args.deals)
        for rotation in range(players)
    ]
    total: dict[str, Tally] = {k: Tally() for k in args.bots}
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for done, result in enumerate(pool.map(_play, jobs, chunksize=1), 1):
            for key, tally in result.items():
                t = total[key]
                t.wins += tally.wins
                t.games += tally.games
                t.points += tally.points
                t.hands += tally.hands
                t.times.extend(tally.times)
            if done % max(1, len(jobs) // 10) == 0:
                print(
                    f"  {done}/{len(jobs)} games, {time.perf_counter() - start:.0f} s", flush=True
                )
    print(
        f"{players} players, {args.deals} deals x {players} rotations = {len(jobs)} games,"
        f" {'one hand' if args.one_hand else f'target {args.target}'},"
        f" budget {budget or 'level default'}"
    )
    for key, t in total.items():
        share = t.wins / t.games
        # Normal interval on the per-seat-game win share (shared victories count as fractions).
        half = 1.96 * math.sqrt(max(share * (1 - share), 1e-9) / t.games)
        times = sorted(t.times)
        p50 = statistics.median(times) * 1e3 if times else 0.0
        p95 = times[int(0.95 * (len(times) - 1))] * 1e3 if times else 0.0
        slowest = times[-1] * 1e3 if times else 0.0
        print(
            f"{key:>10}: win share {share:.3f} ± {half:.3f} ({t.games} seat-games),"
            f" points/hand {t.points / t.hands:.2f}, decisions {len(times)}:"
            f" p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {slowest:.1f} ms"
        )


if __name__ == "__main__":
    main()

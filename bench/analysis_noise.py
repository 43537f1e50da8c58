"""Analysis benchmark (issue #13): the CPU a game's analysis takes, and how steady it is.

Plays one 4-player game to 15 points (seats 0, 2 and 3 the ``heuristic`` bot, seat 1 the
``random`` bot; fixed seeds), then analyses it twice (analysis seeds 0 and 1) at each budget
and prints, per budget: the CPU seconds of each analysis, how many choices got the same
preferred move and the same class in both runs, the moves judged a mistake or worse (and a
blunder) in both runs against in either, the mean difference of a move's loss, and each
seat's mean loss per choice. ``docs/analysis.md`` (Measurements) shows its figures.

    nice -n 19 .venv/bin/python bench/analysis_noise.py                  # 100 and 400 iterations
    nice -n 19 .venv/bin/python bench/analysis_noise.py --iterations 100 2000
"""

from __future__ import annotations

import argparse
import random
import time

from odin_cards.odin.analysis import Analysis, analyse_game
from odin_cards.odin.bots import Budget, ask, make_bot
from odin_cards.odin.rules import Game, GameRecord, Options

SEATS = ("heuristic", "random", "heuristic", "heuristic")


def the_game() -> GameRecord:
    """The game analysed: the same every run."""
    game = Game.new(len(SEATS), Options(), 21)
    bots = [make_bot(level) for level in SEATS]
    dice = random.Random(4)
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.apply(ask(bots[seat], game, Budget(), dice))
    return game.record()


def compare(first: Analysis, second: Analysis) -> str:
    """How far two analyses of one game agree, choice by choice."""
    pairs = [
        (a, b) for a, b in zip(first.moves, second.moves, strict=True) if a.verdict != "forced"
    ]
    bad = ("mistake", "blunder")
    same_best = sum(a.best == b.best for a, b in pairs)
    same_class = sum(a.verdict == b.verdict for a, b in pairs)
    bad_both = sum(a.verdict in bad and b.verdict in bad for a, b in pairs)
    bad_either = sum(a.verdict in bad or b.verdict in bad for a, b in pairs)
    blunder_both = sum(a.verdict == b.verdict == "blunder" for a, b in pairs)
    blunder_either = sum("blunder" in (a.verdict, b.verdict) for a, b in pairs)
    spread = sum(abs(a.loss - b.loss) for a, b in pairs) / len(pairs)
    return (
        f"  same preferred move {same_best}/{len(pairs)}, same class {same_class}/{len(pairs)},"
        f" mistake or worse in both {bad_both}/{bad_either}, blunder in both"
        f" {blunder_both}/{blunder_either}, mean loss difference {spread:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, nargs="+", default=[100, 400])
    args = parser.parse_args()
    record = the_game()
    actions = sum(1 for e in record.events if "action" in e)
    print(f"game: {len(SEATS)} players, {actions} actions; seats {', '.join(SEATS)}")
    for iterations in args.iterations:
        runs = []
        for seed in (0, 1):
            started = time.process_time()
            runs.append(analyse_game(record, iterations, seed))
            print(
                f"{iterations} iterations, seed {seed}: {time.process_time() - started:.1f} s CPU"
            )
        print(compare(runs[0], runs[1]))
        for seat in range(len(SEATS)):
            losses = ", ".join(f"{run.summary[seat].mean_loss:.2f}" for run in runs)
            print(f"  seat {seat} ({SEATS[seat]}): mean loss a choice {losses}")


if __name__ == "__main__":
    main()

"""The vector environment's speed, and what its legal-action lists save over a dense mask.

Prints, for 2, 4 and 6 players, :class:`~odin_cards.odin.env.vector.OdinVectorEnv` steps a
second for 256 games (one step is one learner decision a game, the opponents' moves
included), actions from ``sample_legal()`` (a policy's own cost is not in it), with
heuristic opponents, random opponents, self-play, and heuristic opponents with the dense
mask asked for; then the cost of one call, for 256 four-player games, of
``Batch.legal_ids()`` against ``Batch.legal_mask()`` and ``np.nonzero`` of it (what a
policy needed before to list the legal ids), and of ``sample_legal()`` + ``step()``.
Needs the ``research`` extra (numba, gymnasium). One core; wall clock.

    .venv/bin/python bench/vector_env.py            # 2 s a figure
    .venv/bin/python bench/vector_env.py --seconds 5
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from odin_cards.odin.env.vector import OdinVectorEnv
from odin_cards.odin.sim import Batch

GAMES = 256


def steps_per_second(env: OdinVectorEnv, seconds: float) -> float:
    """Environment steps (one a game) a second, stepping with ``env.sample_legal()``."""
    env.reset(seed=1)
    env.step(env.sample_legal())  # the kernels load (or compile) outside the measure
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.step(env.sample_legal())
        steps += GAMES
    return steps / (time.perf_counter() - start)


def microseconds(call: Callable[[], Any], repeats: int = 300) -> float:
    call()
    start = time.perf_counter()
    for _ in range(repeats):
        call()
    return (time.perf_counter() - start) / repeats * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per figure")
    args = parser.parse_args()
    print("players  heuristic  random  self-play  heuristic+mask   (env steps/s, 256 games)")
    for players in (2, 4, 6):
        figures = [
            steps_per_second(OdinVectorEnv(GAMES, players, opponents=kind), args.seconds)
            for kind in ("heuristic", "random", "self")
        ]
        masked = OdinVectorEnv(GAMES, players, opponents="heuristic", action_mask=True)
        figures.append(steps_per_second(masked, args.seconds))
        print(f"{players:7d}  " + "  ".join(f"{f:9,.0f}" for f in figures), flush=True)
    batch = Batch.new(GAMES, 4, seed=3)
    batch.random_play(20)

    def step() -> None:
        batch.step(batch.sample_legal())
        batch.reset(batch.over)

    print(
        f"256 games, 4 players, one call: legal_ids {microseconds(batch.legal_ids):,.0f} µs;"
        f" legal_mask {microseconds(batch.legal_mask):,.0f} µs;"
        f" np.nonzero(legal_mask()) {microseconds(lambda: np.nonzero(batch.legal_mask())):,.0f} µs;"
        f" sample_legal + step {microseconds(step):,.0f} µs"
    )


if __name__ == "__main__":
    main()

"""Speed of the JAX environment: random play in ``jit(vmap)`` batches, compilation apart.

For each player count and batch size, :func:`odin_cards.odin.jax.bench.measure` compiles
uniform random play (legal mask, a uniform choice, ``step``, a new game where one
ended; 32 sweeps a call in a ``lax.scan``) and then runs it for ``--seconds``. It runs on
the device JAX picks, so the same script measures the CPU or, where JAX sees one (a
CUDA or TPU build of jaxlib), an accelerator: the device is printed with the figures.
Set ``JAX_PLATFORMS=cpu`` to measure the CPU on a machine with an accelerator.

    .venv/bin/python bench/jax_env.py        # 2, 4, 6 players; 1,024 and 4,096 games
    .venv/bin/python bench/jax_env.py --players 4 --games 65536 --json jax.json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

import jax

from odin_cards.odin.jax.bench import STEPS_PER_CALL, measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--games", type=int, nargs="+", default=[1024, 4096])
    parser.add_argument("--seconds", type=float, default=5.0, help="budget of each figure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures here as JSON")
    args = parser.parse_args()
    devices = jax.devices()
    print(f"jax {jax.__version__}, backend {jax.default_backend()}: {devices}")
    print(f"{'players':>7} {'games':>7} {'compile s':>9} {'actions/s':>12} {'per CPU s':>12}")
    results = []
    for players in args.players:
        for games in args.games:
            r = measure(players, games, args.seconds, args.seed)
            results.append(dataclasses.asdict(r))
            print(
                f"{players:>7} {games:>7,} {r.compile_seconds:>9.1f}"
                f" {r.actions_per_second:>12,.0f} {r.actions_per_cpu_second:>12,.0f}",
                flush=True,
            )
    if args.json is not None:
        data = {
            "format": "odin-cards-jax-bench/1",
            "jax": jax.__version__,
            "devices": [str(d) for d in devices],
            "steps_per_call": STEPS_PER_CALL,
            "seconds_per_figure": args.seconds,
            "results": results,
        }
        args.json.write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main()

"""``python -m odin_cards.odin.learning generate|train|generate-policy|train-policy ...``.

``generate`` / ``train`` make the value network's data and fit it; ``generate-policy`` /
``train-policy`` the policy's. The shipped weights (``odin_cards/odin/bots/data/network.npz``,
``policy.npz``) come from the commands in docs/bots.md ("The value network", "The learned
policy").
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from odin_cards.odin.learning.data import generate, load_shards, shard_path
from odin_cards.odin.learning.policy_data import ITERATIONS
from odin_cards.odin.learning.policy_data import generate as generate_policy
from odin_cards.odin.learning.policy_data import shard_path as policy_path


def _make_policy(folder: Path, seed: int, decisions: int, iterations: int) -> str:
    path = policy_path(folder, seed, decisions)
    if not path.exists():
        generate_policy(seed, decisions, iterations).save(path)
    return path.name


def _make(folder: Path, seed: int, positions: int) -> str:
    path = shard_path(folder, seed, positions)
    if not path.exists():
        generate(seed, positions).save(path)
    return path.name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m odin_cards.odin.learning")
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="labelled positions, one file per shard seed")
    gen.add_argument("--out", type=Path, required=True)
    gen.add_argument("--shards", type=int, default=8)
    gen.add_argument("--first", type=int, default=0, help="first shard seed")
    gen.add_argument("--positions", type=int, default=50_000, help="positions per shard")
    gen.add_argument("-j", "--jobs", type=int, default=1)
    pgen = sub.add_parser("generate-policy", help="the search's decisions, one file per shard")
    pgen.add_argument("--out", type=Path, required=True)
    pgen.add_argument("--shards", type=int, default=8)
    pgen.add_argument("--first", type=int, default=0, help="first shard seed")
    pgen.add_argument("--decisions", type=int, default=250, help="decisions per shard")
    pgen.add_argument("--iterations", type=int, default=ITERATIONS, help="search iterations")
    fit = sub.add_parser("train", help="fit the network to the shards; write the .npz")
    fit.add_argument("--data", type=Path, required=True)
    fit.add_argument("--shards", type=int, default=8)
    fit.add_argument("--first", type=int, default=0)
    fit.add_argument("--positions", type=int, default=50_000)
    fit.add_argument("--out", type=Path, required=True)
    fit.add_argument("--seed", type=int, default=0)
    fit.add_argument("--epochs", type=int, default=8)
    fit.add_argument("--hidden", type=str, default="256,128")
    fit.add_argument("--batch", type=int, default=512)
    fit.add_argument("--rate", type=float, default=1e-3)
    pfit = sub.add_parser("train-policy", help="fit the policy network; write the .npz")
    pfit.add_argument("--data", type=Path, required=True)
    pfit.add_argument("--shards", type=int, default=8)
    pfit.add_argument("--first", type=int, default=0)
    pfit.add_argument("--decisions", type=int, default=250)
    pfit.add_argument("--out", type=Path, required=True)
    pfit.add_argument("--seed", type=int, default=0)
    pfit.add_argument("--epochs", type=int, default=20)
    pfit.add_argument("--sizes", type=str, default="128,64,64", help="trunk, move, joint")
    pfit.add_argument("--batch", type=int, default=128)
    pfit.add_argument("--rate", type=float, default=2e-3)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.command == "generate-policy":
        args.out.mkdir(parents=True, exist_ok=True)
        for seed in range(args.first, args.first + args.shards):
            print(_make_policy(args.out, seed, args.decisions, args.iterations), flush=True)
    elif args.command == "generate":
        args.out.mkdir(parents=True, exist_ok=True)
        seeds = range(args.first, args.first + args.shards)
        if args.jobs == 1:
            for seed in seeds:
                print(_make(args.out, seed, args.positions), flush=True)
        else:
            with ProcessPoolExecutor(args.jobs) as pool:
                futures = [pool.submit(_make, args.out, s, args.positions) for s in seeds]
                for future in futures:
                    print(future.result(), flush=True)
    elif args.command == "train-policy":
        from odin_cards.odin.learning.policy_data import load_shards as load_policy
        from odin_cards.odin.learning.policy_train import featurize, train_policy

        shards = range(args.first, args.first + args.shards)
        features = featurize(load_policy(args.data, shards, args.decisions))
        a, b, c = (int(v) for v in args.sizes.split(","))
        print(f"{len(features.positions)} decisions, {len(features.moves)} moves", flush=True)
        policy_fit = train_policy(
            features, args.seed, (a, b, c), args.epochs, args.batch, args.rate, log=True
        )
        policy_fit.net.save(args.out)
        f = policy_fit
        print(
            f"train {f.train_loss:.4f}, held out {f.valid_loss:.4f} (targets' entropy "
            f"{f.valid_entropy:.4f}); top move = search's {f.valid_agree:.3f} "
            f"(heuristic {f.heuristic_agree:.3f}) -> {args.out}"
        )
    else:
        from odin_cards.odin.learning.train import baseline_loss, train

        data = load_shards(args.data, range(args.first, args.first + args.shards), args.positions)
        hidden = tuple(int(h) for h in args.hidden.split(","))
        print(f"{len(data.x)} positions; predicting 0 costs {baseline_loss(data):.5f}")
        result = train(data, args.seed, hidden, args.epochs, args.batch, args.rate, log=True)
        result.net.save(args.out)
        print(f"train {result.train_loss:.5f}, held out {result.valid_loss:.5f} -> {args.out}")
    print(f"{time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

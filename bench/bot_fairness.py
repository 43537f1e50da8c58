"""Bot fairness benchmark: another table's bot while 20 six-seat expert-bot tables play.

Runs the server's bot runner alone (no HTTP, no database): ``--tables`` tables whose every
seat is an ``--level`` bot play without end (a finished game is followed by a new one), and
one other table of ``--other`` bots plays beside them. Each table asks for its next move as
soon as the last one is played, and waits the server's ``--delay`` (jittered by a third)
at the same time, as ``odin serve`` does. After a ``--warmup`` it measures, for
``--duration`` seconds, how long each move asked in that time takes to come back from the
runner.

It runs twice with the same load and prints both:

- **before**: a first-come-first-served process pool in which every move thinks its
  level's full budget (what ``odin serve`` did up to 0.1);
- **after**: :class:`odin_cards.server.adapters.bot_runner.ProcessBotRunner` (round robin, a
  quick lane for levels that play at once, search think time shrunk under load).

    .venv/bin/python bench/bot_fairness.py                    # other table: heuristic bots
    .venv/bin/python bench/bot_fairness.py --other expert     # other table: expert bots
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import secrets
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Protocol

from odin_cards.games import plugin_of
from odin_cards.odin.rules import Options, parse_action
from odin_cards.server.adapters.bot_runner import ProcessBotRunner, turn_of
from odin_cards.server.core.ports import BotRequest
from odin_cards.workers.bot_worker import Turn, choose, replay, watch_parent

ODIN_LEVELS = plugin_of("odin").level_keys


class Runner(Protocol):
    async def move(self, request: BotRequest) -> str: ...

    def close(self) -> None: ...


class FirstComeFirstServed:
    """The bot pool before fair sharing: one queue, every move at its level's full budget."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.executor = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=watch_parent,
            initargs=(os.getpid(),),
        )

    async def started(self) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            *(loop.run_in_executor(self.executor, time.sleep, 0.2) for _ in range(self.workers))
        )

    async def move(self, request: BotRequest) -> str:
        level = plugin_of(request.game).level(request.level)
        seconds = level.seconds if level is not None else None
        loop = asyncio.get_running_loop()
        move = await loop.run_in_executor(
            self.executor, choose, turn_of(request), seconds, secrets.randbits(64)
        )
        action: str = move.action
        return action

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


async def table(
    runner: Runner,
    table_id: str,
    players: int,
    level: str,
    delay: float,
    latencies: Latencies | None,
    measuring: asyncio.Event,
) -> None:
    """A table of bots only that plays game after game; records its moves' latencies."""
    rng = random.Random(table_id)
    setup = Options().to_dict()
    while True:
        seed = rng.randrange(2**62)
        actions: list[str] = []
        game = replay(Turn(table_id, level, "odin", players, setup, seed, ()))
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            request = BotRequest(
                table_id, seat, level, "odin", players, setup, seed, tuple(actions)
            )
            pause = rng.uniform(delay * 2 / 3, delay * 4 / 3) if delay > 0 else 0.0
            answer = timed(runner, request, latencies, measuring)
            action, _ = await asyncio.gather(answer, asyncio.sleep(pause))
            game.apply(parse_action(action))
            actions.append(action)


class Latencies:
    """Latencies of the moves asked while measuring, and the asks still unanswered."""

    def __init__(self) -> None:
        self.answered: list[float] = []
        self.unanswered: dict[int, float] = {}

    def summary(self) -> str:
        """p50/p95/max; a move still unanswered at the end counts with its wait so far."""
        now = time.perf_counter()
        values = sorted(self.answered + [now - asked for asked in self.unanswered.values()])
        if not values:
            return "no move asked"
        late = f" ({len(self.unanswered)} unanswered at the end)" if self.unanswered else ""
        return (
            f"{len(values):4d} moves  p50 {percentile(values, 0.5):5.2f} s"
            f"  p95 {percentile(values, 0.95):5.2f} s  max {values[-1]:5.2f} s{late}"
        )


async def timed(
    runner: Runner, request: BotRequest, latencies: Latencies | None, measuring: asyncio.Event
) -> str:
    """The runner's move; its latency is recorded if it was asked while measuring."""
    started = time.perf_counter()
    if latencies is None or not measuring.is_set():
        return await runner.move(request)
    key = id(request)
    latencies.unanswered[key] = started
    action = await runner.move(request)
    del latencies.unanswered[key]
    latencies.answered.append(time.perf_counter() - started)
    return action


def percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def run(name: str, runner: Runner, args: argparse.Namespace) -> None:
    started = getattr(runner, "started", None)
    if started is not None:
        await started()
    measuring = asyncio.Event()
    busy = Latencies()
    other = Latencies()
    tasks = [
        asyncio.create_task(
            table(runner, f"busy{n}", args.players, args.level, args.delay, busy, measuring)
        )
        for n in range(args.tables)
    ]
    tasks.append(
        asyncio.create_task(
            table(runner, "other", args.other_players, args.other, args.delay, other, measuring)
        )
    )
    try:
        await asyncio.sleep(args.warmup)
        measuring.set()
        await asyncio.sleep(args.duration)
        lines = [
            f"{name}:",
            f"  the other table ({args.other}): {other.summary()}",
            f"  the {args.tables} {args.level} tables: {busy.summary()}",
        ]
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        runner.close()
    print("\n".join(lines), flush=True)


async def main(args: argparse.Namespace) -> None:
    print(
        f"{args.tables} tables of {args.players} {args.level} bots and one table of"
        f" {args.other_players} {args.other} bots; {args.workers} search workers,"
        f" bot delay {args.delay} s, {args.duration:.0f} s measured after {args.warmup:.0f} s;"
        f" latency = request to move, the delay running alongside"
    )
    await run(
        "before (first come, first served, full budgets)", FirstComeFirstServed(args.workers), args
    )
    after = ProcessBotRunner(args.workers, target_latency=args.target)
    await run(f"after (ProcessBotRunner, target {args.target} s)", after, args)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--level", default="expert", choices=sorted(ODIN_LEVELS))
    parser.add_argument("--other", default="heuristic", choices=sorted(ODIN_LEVELS))
    parser.add_argument("--other-players", type=int, default=4)
    parser.add_argument(
        "--workers",
        type=int,
        default=max(1, min(4, (os.cpu_count() or 2) - 1)),
        help="search processes (default: as odin serve, CPUs - 1, 1 to 4)",
    )
    parser.add_argument("--delay", type=float, default=0.9)
    parser.add_argument("--target", type=float, default=2.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--duration", type=float, default=60.0)
    asyncio.run(main(parser.parse_args()))

"""Bot seats: bots think in worker processes so that no table and no connection waits.

A worker rebuilds the game from the table's definition and log (cheap: the engine replays
thousands of actions a millisecond) and asks the bot through :func:`odin_cards.bots.ask`,
which shows the bot only its seat's view. Bots are looked up by level key in
:data:`odin_cards.bots.LEVELS`, so new levels appear in the lobby without server changes.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import secrets
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..bots import LEVELS, RandomBot, ask, make_bot
from ..rules import Game, Options, parse_action

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Move:
    """A bot's choice, and the bot's error if it failed and a random move stood in."""

    action: str
    error: str | None = None


def choose(
    level: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    actions: list[str],
    rng_seed: int,
) -> Move:
    """Worker side: the move of the bot of ``level`` for the seat to move after ``actions``."""
    game = Game.new(players, Options.from_dict(options), seed)
    for text in actions:
        game.apply_unchecked(parse_action(text))
    rng = random.Random(rng_seed)
    try:
        return Move(ask(make_bot(level), game, LEVELS[level].budget, rng).text)
    except Exception as error:  # a broken bot must not stall a table of people
        fallback = ask(RandomBot(), game, LEVELS["random"].budget, rng)
        return Move(fallback.text, f"{type(error).__name__}: {error}")


def _watch_parent(parent: int) -> None:
    """Worker start-up: exit when the server is gone, even if it was killed with SIGKILL."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch-server", daemon=True).start()


class BotPool:
    """Where bots think: a process pool (``workers`` > 0) or one thread of this process."""

    def __init__(self, workers: int) -> None:
        self.executor: Executor
        if workers > 0:
            self.executor = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_watch_parent,
                initargs=(os.getpid(),),
            )
        else:
            self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot")

    async def move(
        self, level: str, players: int, options: Options, seed: int, actions: list[str]
    ) -> str:
        loop = asyncio.get_running_loop()
        move = await loop.run_in_executor(
            self.executor,
            choose,
            level,
            players,
            options.to_dict(),
            seed,
            actions,
            secrets.randbits(64),
        )
        if move.error is not None:
            log.error("the %s bot failed (%s); a random move stood in", level, move.error)
        return move.action

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)

"""What a bot worker process runs: rebuild a table's game and ask its bot for a move.

The server's workers are spawned processes; they import this module, the game registry
and the games they are asked about, and nothing of the server (its package brings the web
framework and the database along: seconds of start-up and tens of MiB per worker). A
worker rebuilds the game from the table's definition and log through the game contract
(cheap: the engine replays thousands of actions a millisecond) and asks the game's bots
(its plugin's ``bots``), which show a bot only its seat's view.

A worker's memory is capped (:func:`start`: ``RLIMIT_DATA``, the server's ``bot_memory``),
and the worker of the levels that answer at once (random, heuristic, network: the quick
lane) never loads the compiled kernels: numba alone, with a machine's first compilation,
grows a process to about 1.1 GiB, which that worker never needs (about 190 MiB without).
"""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time
from dataclasses import dataclass
from typing import Any

from odin_cards.contract import GameState
from odin_cards.games import plugin_of, plugins, rules_of


@dataclass(frozen=True, slots=True)
class Turn:
    """A bot's turn at a table, as a worker gets it (the server's ``BotRequest``)."""

    table_id: str
    level: str
    game: str
    players: int
    setup: dict[str, Any]
    seed: int
    actions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Move:
    """A bot's choice, and the name of the bot's error if it failed and a random move stood in."""

    action: str
    error: str | None = None


def replay(turn: Turn) -> GameState:
    """The table's game after every logged action (the seat to move is the bot's)."""
    game = rules_of(turn.game).new_game(turn.players, turn.setup, turn.seed)
    for text in turn.actions:
        game.apply(text)
    return game


def stand_in(game: GameState, rng: random.Random) -> str:
    """A random legal move of any game: what a table gets when its bot cannot answer."""
    legal = list(game.legal_actions())
    return str(legal[rng.randrange(len(legal))].text)


def choose(turn: Turn, seconds: float | None, rng_seed: int) -> Move:
    """The move of the turn's bot, thinking at most ``seconds`` (``None``: a level that
    answers at once); a bot that raises (an unknown level too) is answered by a random legal
    move, with the error's name (never its text: it may name cards)."""
    game = replay(turn)
    rng = random.Random(rng_seed)
    try:
        return Move(plugin_of(turn.game).load_bots()(game, turn.level, seconds, rng))
    except MemoryError:  # over the worker's cap: the server replaces the worker
        raise
    except Exception as error:  # a broken bot must not stall a table of people
        return Move(stand_in(game, rng), type(error).__name__)


def warm(compiled: bool = True) -> int:
    """A new worker's first call: load each game's bots (so that no move's deadline pays
    for the import) and run its warm-up (``GamePlugin.warm``: e.g. Odin starts compiling its
    play-outs in the background, and moves are answered meanwhile), unless the worker runs
    without the compiled kernels (``compiled=False``: the quick lane's levels need none);
    answers the worker's process id."""
    for plugin in plugins().values():
        with contextlib.suppress(Exception):  # a game whose bots fail gets stand-ins later
            plugin.load_bots()
        start = plugin.load_warm() if compiled else None
        if start is not None:
            start()
    return os.getpid()


NO_COMPILED = "ODIN_SIM_NO_NUMBA"
"""The environment variable that hides numba from the simulator (it then runs the pure
engine: the same moves, only slower), read when :mod:`odin_cards.odin.sim` is imported."""


def start(parent: int, compiled: bool, memory: int) -> None:
    """A worker process's start-up, before it imports any game: exit when the server is
    gone (:func:`watch_parent`); with ``compiled`` false never load the compiled kernels;
    with ``memory`` (bytes, 0: no cap) cap the process's data (``RLIMIT_DATA``: heap and
    private mappings), so that an allocation past it raises ``MemoryError`` (the server
    then replaces the worker and a random move stands in)."""
    watch_parent(parent)
    if not compiled:
        os.environ[NO_COMPILED] = "1"
    if memory > 0:
        cap_memory(memory)


def cap_memory(memory: int) -> None:
    """Cap this process's data at ``memory`` bytes (no cap where the platform has none)."""
    try:
        import resource
    except ImportError:  # not a POSIX system
        return
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        memory = min(memory, hard)
    with contextlib.suppress(OSError, ValueError):
        resource.setrlimit(resource.RLIMIT_DATA, (memory, hard))


def watch_parent(parent: int) -> None:
    """Worker start-up: exit when the server is gone, even if it was killed with SIGKILL."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch-server", daemon=True).start()

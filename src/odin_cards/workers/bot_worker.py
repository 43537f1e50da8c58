"""What a bot worker process runs: rebuild a table's game and ask its bot for a move.

The server's workers are spawned processes; they import this module, the game registry
and the games they are asked about, and nothing of the server (its package brings the web
framework and the database along: seconds of start-up and tens of MiB per worker). A
worker rebuilds the game from the table's definition and log through the game contract
(cheap: the engine replays thousands of actions a millisecond) and asks the game's bots
(its plugin's ``bots``), which show a bot only its seat's view.
"""

from __future__ import annotations

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
    except Exception as error:  # a broken bot must not stall a table of people
        return Move(stand_in(game, rng), type(error).__name__)


def warm() -> int:
    """A new worker's first call: each game's warm-up (``GamePlugin.warm``: e.g. Odin starts
    compiling its play-outs in the background, and moves are answered meanwhile); answers
    the worker's process id."""
    for plugin in plugins().values():
        start = plugin.load_warm()
        if start is not None:
            start()
    return os.getpid()


def watch_parent(parent: int) -> None:
    """Worker start-up: exit when the server is gone, even if it was killed with SIGKILL."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch-server", daemon=True).start()

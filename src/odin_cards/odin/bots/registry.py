"""Bots by game: which levels a game offers, and how a level chooses a move.

The server, its bot workers and the lobby ask this registry, never a game's bots directly,
so a game joins the server by adding one :class:`GameBots` to :data:`GAMES_BOTS`. A level's
``choose`` gets the whole game state (a worker rebuilds it from the log) and must show its
bot only the seat to move's view, as :func:`odin_cards.odin.bots.ask` does for Odin and
:func:`odin_cards.name_of_odin.bots.ask` for In the Name of Odin (``"name-of-odin"``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from odin_cards.odin.bots import LEVELS, make_bot
from odin_cards.odin.bots.base import Budget, ask
from odin_cards.odin.rules import Game


@dataclass(frozen=True, slots=True)
class BotLevel:
    """A bot level as a lobby shows it, and the time it may think a move."""

    key: str
    name: str
    description: str
    budget: Budget


Choose = Callable[[Any, str, Budget, random.Random], str]
"""A game's chooser: (the game state, level key, budget, dice) -> the action's text, for
the seat to move. It may only look at that seat's view."""


@dataclass(frozen=True, slots=True)
class GameBots:
    """One game's bot levels (weakest first) and its chooser."""

    levels: Mapping[str, BotLevel]
    choose: Choose


def _odin_choose(state: Any, level: str, budget: Budget, rng: random.Random) -> str:
    assert isinstance(state, Game)
    return ask(make_bot(level), state, budget, rng).text


def _odin() -> GameBots:
    levels = {
        key: BotLevel(key, level.name, level.description, level.budget)
        for key, level in LEVELS.items()
    }
    return GameBots(levels, _odin_choose)


def _name_of_odin_choose(state: Any, level: str, budget: Budget, rng: random.Random) -> str:
    from odin_cards.name_of_odin import bots

    seat = state.current_player
    if seat is None:
        raise ValueError("the game is over: nobody is to move")
    return bots.ask(bots.make_bot(level), state.view(seat), rng)


def _name_of_odin() -> GameBots:
    from odin_cards.name_of_odin.plugin import LEVELS as NOO_LEVELS

    levels = {
        level.key: BotLevel(level.key, level.name, level.description, Budget())
        for level in NOO_LEVELS
    }
    return GameBots(levels, _name_of_odin_choose)


GAMES_BOTS: dict[str, GameBots] = {"odin": _odin(), "name-of-odin": _name_of_odin()}
"""Bots per game key of :data:`odin_cards.games.GAMES`."""


def bot_levels(game: str) -> tuple[str, ...]:
    """The level keys a game offers, weakest first (none for a game without bots)."""
    bots = GAMES_BOTS.get(game)
    return tuple(bots.levels) if bots is not None else ()


def level_of(game: str, level: str) -> BotLevel | None:
    """The level ``level`` of ``game``, or ``None`` if it has no such level."""
    bots = GAMES_BOTS.get(game)
    return bots.levels.get(level) if bots is not None else None


def choose_move(game: str, level: str, state: Any, budget: Budget, rng: random.Random) -> str:
    """The move of ``game``'s ``level`` bot for the seat to move in ``state``.

    Raises ``KeyError`` for an unknown game or level; whatever the bot raises passes on.
    """
    bots = GAMES_BOTS.get(game)
    if bots is None or level not in bots.levels:
        raise KeyError(f"no bot level {level!r} for the game {game!r}")
    return bots.choose(state, level, budget, rng)


def random_move(state: Any, rng: random.Random) -> str:
    """A uniformly random legal move of any game (what stands in for a failed bot)."""
    legal = list(state.legal_actions())
    return str(legal[rng.randrange(len(legal))].text)


__all__ = [
    "GAMES_BOTS",
    "BotLevel",
    "Choose",
    "GameBots",
    "bot_levels",
    "choose_move",
    "level_of",
    "random_move",
]

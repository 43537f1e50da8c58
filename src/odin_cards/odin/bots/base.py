"""The one interface every bot implements, and the only way a bot is asked to move.

A bot gets what a human in its seat gets (the seat's :class:`View` and its legal
actions), a :class:`Budget` and a seeded random generator, and returns one of the
legal actions. It never sees the :class:`Game`, so it cannot look at hidden cards.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

from odin_cards.odin.rules import Action, Game, View


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a bot may think: wall-clock seconds and/or search iterations (None: no limit)."""

    seconds: float | None = None
    iterations: int | None = None


class Bot(ABC):
    """A player that chooses actions from its seat's view."""

    level: str = "bot"

    @abstractmethod
    def choose(
        self, view: View, legal: Sequence[Action], budget: Budget, rng: random.Random
    ) -> Action:
        """Return one action of ``legal`` for the seat of ``view``."""

    def prepare(self) -> None:
        """Load what the bot needs before its first decision, outside any think time
        (the arena calls it before a game). Most bots need nothing."""
        return None


def ask(bot: Bot, game: Game, budget: Budget, rng: random.Random) -> Action:
    """Ask ``bot`` to move for the seat to move in ``game``, showing it only that seat's view.

    Raises ``ValueError`` if the bot returns an action that is not legal: a bot bug must
    not be repaired silently.
    """
    seat = game.current_player
    if seat is None:
        raise ValueError("the game is over: nobody is to move")
    legal = game.legal_actions()
    action = bot.choose(game.view(seat), tuple(legal), budget, rng)
    if action not in legal:
        raise ValueError(f"{bot.level} bot chose {action}, which is not legal here")
    return action


class RandomBot(Bot):
    """Level 1: a uniformly random legal action."""

    level = "random"

    def choose(
        self, view: View, legal: Sequence[Action], budget: Budget, rng: random.Random
    ) -> Action:
        return legal[rng.randrange(len(legal))]

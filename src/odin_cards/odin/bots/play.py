"""Odin's bots as the platform asks them: the server's :data:`~odin_cards.plugin.Choose`,
the measured games' :data:`~odin_cards.plugin.Players` and a bot worker's warm-up."""

from __future__ import annotations

import random
from collections.abc import Mapping

from odin_cards.contract import GameState
from odin_cards.odin.bots import LEVELS, Bot, Budget, ask, make_bot
from odin_cards.odin.rules import Action, Game

BUDGETS = ("seconds", "iterations")
"""What an Odin bot's budget may say (the search reads both; the other levels neither)."""


def choose(state: GameState, level: str, seconds: float | None, rng: random.Random) -> str:
    """The move of ``level`` for the seat to move, which is all the bot is shown
    (:func:`odin_cards.odin.bots.ask`); ``KeyError`` for an unknown level."""
    return ask(make_bot(level), odin_game(state), Budget(seconds=seconds), rng).text


def odin_game(state: GameState) -> Game:
    if not isinstance(state, Game):
        raise TypeError(f"an Odin bot cannot play {type(state).__name__}")
    return state


def budget_of(level: str, budget: Mapping[str, float]) -> Budget:
    """The budget written for ``level`` (it replaces the level's whole budget), or the
    level's own when none is; ``ValueError`` for what an Odin bot cannot take."""
    if level not in LEVELS:
        raise KeyError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
    if not budget:
        return LEVELS[level].budget
    for name in budget:
        if name not in BUDGETS:
            raise ValueError(f"unknown budget {name!r}; use seconds= or iterations=")
    iterations = budget.get("iterations")
    if iterations is not None and (iterations != int(iterations) or iterations < 1):
        raise ValueError(f"iterations must be a positive whole number, not {iterations!r}")
    seconds = budget.get("seconds")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"seconds must be a positive number, not {seconds!r}")
    return Budget(seconds=seconds, iterations=None if iterations is None else int(iterations))


class BotPlayer:
    """One of Odin's bots at one seat of one measured game (:class:`odin_cards.plugin.Player`):
    the same bot for every decision of the game, loaded before it (the search's compiled
    play-outs), so that no decision of a measured game waits for a load."""

    def __init__(self, bot: Bot, budget: Budget) -> None:
        self.bot = bot
        self.budget = budget

    def prepare(self) -> None:
        self.bot.prepare()

    def move(self, state: GameState, rng: random.Random) -> Action:
        return ask(self.bot, odin_game(state), self.budget, rng)


def player(level: str, budget: Mapping[str, float]) -> BotPlayer:
    """A player of ``level`` thinking within ``budget`` (empty: the level's own)."""
    return BotPlayer(make_bot(level), budget_of(level, budget))


def warm() -> None:
    """A new bot worker's first call: start loading the search's compiled play-outs in the
    background (a machine's first compilation takes a while; moves are answered meanwhile)."""
    from odin_cards.odin.bots.compiled import prepare  # the bots extra: only search loads it

    prepare(wait=False)


__all__ = ["BUDGETS", "BotPlayer", "budget_of", "choose", "odin_game", "player", "warm"]

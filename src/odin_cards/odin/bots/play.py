"""Odin's bots as the platform asks them (:data:`odin_cards.plugin.Choose`)."""

from __future__ import annotations

import random

from odin_cards.contract import GameState
from odin_cards.odin.bots import Budget, ask, make_bot
from odin_cards.odin.bots.compiled import prepare
from odin_cards.odin.rules import Game


def choose(state: GameState, level: str, seconds: float | None, rng: random.Random) -> str:
    """The move of ``level`` for the seat to move, which is all the bot is shown
    (:func:`odin_cards.odin.bots.ask`); ``KeyError`` for an unknown level."""
    if not isinstance(state, Game):
        raise TypeError(f"an Odin bot cannot play {type(state).__name__}")
    return ask(make_bot(level), state, Budget(seconds=seconds), rng).text


def warm() -> None:
    """A new bot worker's first call: start loading the search's compiled play-outs in the
    background (a machine's first compilation takes a while; moves are answered meanwhile)."""
    prepare(wait=False)

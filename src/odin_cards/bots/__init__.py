"""Bots: one interface (:class:`Bot`), several levels, a registry by name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .base import Bot, Budget, RandomBot, ask


@dataclass(frozen=True)
class Level:
    """A bot level as a lobby shows it."""

    key: str
    name: str
    description: str
    make: Callable[[], Bot]
    budget: Budget


LEVELS: dict[str, Level] = {
    level.key: level
    for level in (
        Level(
            "random",
            "Random",
            "Plays any legal move at random. For learning the rules.",
            RandomBot,
            Budget(),
        ),
    )
}


def make_bot(key: str) -> Bot:
    """A new bot of the level called ``key``; ``KeyError`` lists the levels."""
    try:
        return LEVELS[key].make()
    except KeyError:
        raise KeyError(f"unknown bot level {key!r}; levels: {', '.join(LEVELS)}") from None


__all__ = ["LEVELS", "Bot", "Budget", "Level", "RandomBot", "ask", "make_bot"]

"""Bots: one interface (:class:`Bot`), several levels, a registry by name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from odin_cards.odin.bots.base import Bot, Budget, RandomBot, ask
from odin_cards.odin.bots.heuristic import HeuristicBot
from odin_cards.odin.bots.lookahead import NetworkBot
from odin_cards.odin.bots.search import FIRST, GUIDED, SearchBot


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
        Level(
            "heuristic",
            "Heuristic",
            "Builds colour and number sets, keeps strong sets for the end, plays at once.",
            HeuristicBot,
            Budget(),
        ),
        Level(
            "network",
            "Network",
            "Looks one move ahead with a learned network over a few possible deals; instant.",
            partial(NetworkBot, after=4),
            Budget(),
        ),
        Level(
            "search-v1",
            "Search (v0.2)",
            "Version 0.2's search, half a second a move: kept to measure the new one against.",
            partial(SearchBot, seconds=0.5, settings=FIRST),
            Budget(seconds=0.5),
        ),
        Level(
            "search",
            "Search",
            "Thinks half a second a move, trying out many possible deals of the hidden cards.",
            partial(SearchBot, seconds=0.5),
            Budget(seconds=0.5),
        ),
        Level(
            "search-net",
            "Search (network)",
            "The search judging its deals half by playing them out and half with a learned"
            " network, half a second a move.",
            partial(SearchBot, seconds=0.5, settings=GUIDED),
            Budget(seconds=0.5),
        ),
        Level(
            "expert",
            "Expert",
            "The search with four times longer to think (about 2 seconds a move).",
            partial(SearchBot, seconds=2.0),
            Budget(seconds=2.0),
        ),
    )
}


def make_bot(key: str) -> Bot:
    """A new bot of the level called ``key``; ``KeyError`` lists the levels."""
    try:
        return LEVELS[key].make()
    except KeyError:
        raise KeyError(f"unknown bot level {key!r}; levels: {', '.join(LEVELS)}") from None


__all__ = [
    "LEVELS",
    "Bot",
    "Budget",
    "HeuristicBot",
    "Level",
    "NetworkBot",
    "RandomBot",
    "SearchBot",
    "ask",
    "make_bot",
]

"""Odin's bots: one interface (:class:`Bot`), several levels, made by level key.

What a level *is* (its key, name, description and seconds a move) is written once, in
the game's plugin (:data:`odin_cards.odin.plugin.LEVELS`), where the lobby, the command
line and the tools read it without loading any bot. :data:`LEVELS` here adds only how each
level's bot is made, with the plugin's seconds as its budget.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial

from odin_cards.extras import MissingExtra, extra_of
from odin_cards.odin.bots.base import Bot, Budget, RandomBot, ask
from odin_cards.odin.bots.heuristic import HeuristicBot
from odin_cards.odin.plugin import LEVELS as FACTS
from odin_cards.odin.plugin import PLUGIN
from odin_cards.plugin import BotLevel


@dataclass(frozen=True)
class Level:
    """How one level plays: the bot it makes and the budget that bot thinks with."""

    key: str
    make: Callable[[], Bot]
    budget: Budget = field(default_factory=Budget)

    @property
    def facts(self) -> BotLevel | None:
        """The level as the game's plugin in the registry describes it."""
        from odin_cards.games import plugin_of

        return plugin_of(PLUGIN.key).level(self.key)

    @property
    def name(self) -> str:
        facts = self.facts
        return self.key if facts is None else facts.name

    @property
    def description(self) -> str:
        facts = self.facts
        return "" if facts is None else facts.description


# The network and search levels need NumPy (the bots extra): they are imported when made,
# so the core install plays the random and heuristic levels.


def _network(seconds: float | None) -> Bot:
    from odin_cards.odin.bots.lookahead import NetworkBot

    return NetworkBot(after=4)


def _search_v1(seconds: float | None) -> Bot:
    from odin_cards.odin.bots.search import FIRST, SearchBot

    return SearchBot(seconds=seconds, settings=FIRST)


def _search(seconds: float | None) -> Bot:
    from odin_cards.odin.bots.search import SearchBot

    return SearchBot(seconds=seconds)


def _search_net(seconds: float | None) -> Bot:
    from odin_cards.odin.bots.search import GUIDED, SearchBot

    return SearchBot(seconds=seconds, settings=GUIDED)


MAKERS: Mapping[str, Callable[[float | None], Bot]] = {
    "random": lambda seconds: RandomBot(),
    "heuristic": lambda seconds: HeuristicBot(),
    "network": _network,
    "search-v1": _search_v1,
    "search": _search,
    "search-net": _search_net,
    "expert": _search,
}
"""The bot of each level of the plugin, given the level's seconds a move."""


def _level(facts: BotLevel) -> Level:
    make = MAKERS[facts.key]
    return Level(facts.key, partial(make, facts.seconds), Budget(seconds=facts.seconds))


LEVELS: dict[str, Level] = {facts.key: _level(facts) for facts in FACTS}
"""Every level, weakest first (the plugin's order); a test may add one for a while."""


@contextmanager
def added_level(level: Level, name: str, description: str = "") -> Iterator[Level]:
    """``level`` among Odin's levels for a while, and in the game's plugin as the registry
    has it (named ``name``), so every command and tool offers it: for tests and tuning
    scripts. Processes forked meanwhile (the arena's workers) have it too."""
    from odin_cards.games import plugin_of, registered

    odin = plugin_of(PLUGIN.key)
    facts = BotLevel(level.key, name, description, level.budget.seconds)
    LEVELS[level.key] = level
    try:
        with registered(replace(odin, bot_levels=(*odin.bot_levels, facts))):
            yield level
    finally:
        del LEVELS[level.key]


def make_bot(key: str) -> Bot:
    """A new bot of the level called ``key``; ``KeyError`` lists the levels,
    :class:`~odin_cards.extras.MissingExtra` names the extra a level needs."""
    try:
        level = LEVELS[key]
    except KeyError:
        raise KeyError(f"unknown bot level {key!r}; levels: {', '.join(LEVELS)}") from None
    try:
        return level.make()
    except ModuleNotFoundError as error:
        extra = extra_of(error.name)
        if extra is None:
            raise
        raise MissingExtra(f"Odin's {key} bot", extra) from None


__all__ = [
    "LEVELS",
    "MAKERS",
    "Bot",
    "Budget",
    "HeuristicBot",
    "Level",
    "RandomBot",
    "added_level",
    "ask",
    "make_bot",
]

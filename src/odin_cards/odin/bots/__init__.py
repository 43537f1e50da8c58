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

from odin_cards.odin.bots.base import Bot, Budget, RandomBot, ask
from odin_cards.odin.bots.heuristic import HeuristicBot
from odin_cards.odin.bots.lookahead import NetworkBot
from odin_cards.odin.bots.search import FIRST, GUIDED, SearchBot
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


MAKERS: Mapping[str, Callable[[float | None], Bot]] = {
    "random": lambda seconds: RandomBot(),
    "heuristic": lambda seconds: HeuristicBot(),
    "network": lambda seconds: NetworkBot(after=4),
    "search-v1": lambda seconds: SearchBot(seconds=seconds, settings=FIRST),
    "search": lambda seconds: SearchBot(seconds=seconds),
    "search-net": lambda seconds: SearchBot(seconds=seconds, settings=GUIDED),
    "expert": lambda seconds: SearchBot(seconds=seconds),
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
    """A new bot of the level called ``key``; ``KeyError`` lists the levels."""
    try:
        return LEVELS[key].make()
    except KeyError:
        raise KeyError(f"unknown bot level {key!r}; levels: {', '.join(LEVELS)}") from None


__all__ = [
    "LEVELS",
    "MAKERS",
    "Bot",
    "Budget",
    "HeuristicBot",
    "Level",
    "NetworkBot",
    "RandomBot",
    "SearchBot",
    "added_level",
    "ask",
    "make_bot",
]

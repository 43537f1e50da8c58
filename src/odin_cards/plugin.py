"""The game plugin contract: everything a game brings to the platform.

A game joins odin-cards by publishing one :class:`GamePlugin` in the entry-point group
:data:`GROUP` (``[project.entry-points."odin_cards.games"]`` in its package's
``pyproject.toml``); :mod:`odin_cards.games` collects them. The server, the command line,
the tools and the workers ask that registry and never import a game: a package installed
beside odin-cards adds a game without a change to this repository.

A plugin object is light. Its facts (key, name, bot levels, Play now presets, whether it
can be rated) are plain data; every heavy part (the rules, the bots, the presenter of a
seat's state, the terminal game, the analysis) is named by a *reference*,
``"package.module:attribute"``, imported the first time it is used. So the registry lists
games without importing one, the web process never loads a game's bots (only the bot
workers do), and a game's parts load where they run.

Standard library only, like :mod:`odin_cards.contract` (the rules' part of the contract).
"""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from odin_cards.contract import GameRules, GameState

GROUP = "odin_cards.games"
"""The entry-point group in which installed packages publish their :class:`GamePlugin`."""

Ref = str
"""A reference to an attribute of a module: ``"package.module:attribute"``."""

Choose = Callable[[GameState, str, "float | None", random.Random], str]
"""A game's bots: (the game, level key, seconds to think or ``None``, dice) -> the text of
the move of the seat to move. It may look only at that seat's view."""

States = Callable[[GameState, Mapping[str, Any], Sequence[str], bool], Callable[[int | None], str]]
"""(game, set-up, names of the seats, playing) -> a maker of each seat's ``State`` as JSON
text (``None``: a spectator's). It must never put a card in a seat's state that the seat
has not seen; the platform splices the result into its messages without reading it."""

Limits = Callable[[Mapping[str, Any]], "str | None"]
"""What is wrong with a set-up the rules accept, for a public server (``None``: nothing)."""

Analyse = Callable[[Mapping[str, Any], int], dict[str, Any]]
"""(a finished game's record as a dict, search iterations) -> its analysis, JSON-safe."""


@functools.cache
def resolve(ref: Ref) -> Any:
    """The attribute a reference names (its module imported the first time; the answer is
    kept: a reference is looked up on every broadcast)."""
    module, _, attribute = ref.partition(":")
    if not module or not attribute:
        raise ValueError(f"a reference is 'package.module:attribute', not {ref!r}")
    found: Any = importlib.import_module(module)
    for part in attribute.split("."):
        found = getattr(found, part)
    return found


@dataclass(frozen=True, slots=True)
class BotLevel:
    """A bot level: its key (stored with seats), how pages name and describe it, and the
    time it thinks a move."""

    key: str
    name: str
    description: str
    seconds: float | None = None
    """Seconds a move may take at full strength; ``None``: it answers at once (such levels
    never wait behind a thinking one)."""


@dataclass(frozen=True, slots=True)
class Preset:
    """One of the game's choices in Play now: its key (what a ticket stores), its English
    label (pages translate ``preset.<key>`` of the game's words) and the set-up it plays."""

    key: str
    name: str
    setup: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class GamePlugin:
    """What one game brings to the platform (see the module's docstring).

    Only ``key``, ``name`` and ``rules`` are required: a game with nothing else is played
    between people, shown to them as its rules' ``view`` in JSON, on the platform's plain
    board."""

    key: str
    """The game's key: stored with every table and record (``GameRules.key``)."""
    name: str
    """Its name in English (pages use ``name`` of the game's words)."""
    rules: Ref
    """-> the game's :class:`~odin_cards.contract.GameRules`."""
    summary: str = ""
    """One sentence saying what the game is (English)."""
    rank: int = 100
    """Where the game comes in lists (lower first; the first is the default game)."""
    bot_levels: tuple[BotLevel, ...] = ()
    """Its bots, weakest first."""
    bots: Ref | None = None
    """-> :data:`Choose`, imported only where bots think (the bot workers)."""
    warm: Ref | None = None
    """-> a function of no argument that a new bot worker calls once, before its first move
    (to start compiling or loading what the bots need; it must return at once)."""
    stand_in: str | None = None
    """The level that moves for a person whose clock ran out, or who left (default: the
    weakest level that thinks at once)."""
    hint_level: str | None = None
    """The level whose move is a hint (default: the strongest)."""
    presenter: Ref | None = None
    """-> :data:`States`; ``None``: each seat's ``view`` as JSON (the view must be a
    JSON-safe dict)."""
    limits: Ref | None = None
    """-> :data:`Limits`; ``None``: any set-up the rules accept."""
    play_now: tuple[Preset, ...] = ()
    """Its choices in Play now (none: Play now does not offer the game)."""
    rated: bool = False
    """Whether tables of the game may be rated."""
    ratings: Ref | None = None
    """-> a function of no argument answering its bot levels' fixed reference ratings,
    ``{level: (mu, sigma)}`` on the platform's rating scale (``docs/ratings.md``): the bots
    at a rated table take part with them. A level without one makes a table unrated."""
    web: str | None = None
    """The package holding its browser files: ``board.js`` (the board module of the table
    and replay pages), optional ``board.css``, and ``i18n/<language>.json`` (its words).
    ``None``: the platform's plain board."""
    terminal: Ref | None = None
    """-> the ``odin play`` command for the game (a Typer-free ``main(argv) -> int``)."""
    remote: Ref | None = None
    """-> the terminal client of a server table of the game (``odin join``)."""
    analysis: Ref | None = None
    """-> :data:`Analyse`, run in the analysis worker; ``None``: games are not analysed."""
    environments: Mapping[str, Ref] = field(default_factory=dict)
    """Research environments by kind (``"pettingzoo"``, ``"gymnasium"``, ``"openspiel"``)."""

    # ------------------------------------------------------------ the parts, loaded

    def load_rules(self) -> GameRules:
        return cast(GameRules, resolve(self.rules))

    def load_bots(self) -> Choose:
        if self.bots is None:
            raise LookupError(f"the game {self.key!r} has no bots")
        return cast(Choose, resolve(self.bots))

    def load_warm(self) -> Callable[[], object] | None:
        return None if self.warm is None else cast(Callable[[], object], resolve(self.warm))

    def load_presenter(self) -> States | None:
        return None if self.presenter is None else cast(States, resolve(self.presenter))

    def load_limits(self) -> Limits | None:
        return None if self.limits is None else cast(Limits, resolve(self.limits))

    def load_ratings(self) -> Mapping[str, tuple[float, float]]:
        """Its bots' reference ratings (none if it names no ``ratings``)."""
        if self.ratings is None:
            return {}
        return cast(Callable[[], Mapping[str, tuple[float, float]]], resolve(self.ratings))()

    def load_analysis(self) -> Analyse | None:
        return None if self.analysis is None else cast(Analyse, resolve(self.analysis))

    # ------------------------------------------------------------ the facts

    @property
    def level_keys(self) -> tuple[str, ...]:
        """Its bot levels' keys, weakest first."""
        return tuple(level.key for level in self.bot_levels)

    def level(self, key: str) -> BotLevel | None:
        """The bot level ``key``, or ``None``."""
        return next((level for level in self.bot_levels if level.key == key), None)

    def stand_in_level(self) -> str | None:
        """The level of stand-ins (``None``: the game has no bots)."""
        if self.stand_in is not None:
            return self.stand_in
        quick = [level.key for level in self.bot_levels if level.seconds is None]
        return quick[0] if quick else (self.bot_levels[0].key if self.bot_levels else None)

    def hint(self) -> str | None:
        """The level that gives hints (``None``: the game has no bots)."""
        if self.hint_level is not None:
            return self.hint_level
        return self.bot_levels[-1].key if self.bot_levels else None

    def preset(self, key: str) -> Preset | None:
        return next((preset for preset in self.play_now if preset.key == key), None)


__all__ = [
    "GROUP",
    "Analyse",
    "BotLevel",
    "Choose",
    "GamePlugin",
    "Limits",
    "Preset",
    "Ref",
    "States",
    "resolve",
]

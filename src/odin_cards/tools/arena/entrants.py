"""Arena entrants: a bot level of the game plus an optional budget, written ``level[:k=v,...]``.

``heuristic`` thinks with the level's own budget (the plugin's seconds a move, if any);
``search:seconds=0.2`` or ``search:iterations=200`` (or both, comma-separated) replace it:
only the limits written apply, so ``search:iterations=200`` is a pure iteration budget
and its games do not depend on the machine's speed. ``seconds`` reaches any game's bots
(:data:`odin_cards.plugin.Choose`); any other budget only a game whose plugin makes its own
players (:attr:`odin_cards.plugin.GamePlugin.players`: Odin's search takes
``iterations``), which says what it accepts. The same level may enter several times
(``heuristic heuristic``): each entry is an entrant with its own results, labelled
``heuristic``, ``heuristic#2``, ...

An entrant may also be a Python agent named by import path (``package.module:function``
or ``path/to/file.py:function``, see :mod:`.agents`): it is loaded once here, so a bad
path is refused before any game is played.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from odin_cards.contract import GameState, SetupError
from odin_cards.games import default_key, plugin_of
from odin_cards.plugin import Choose, GamePlugin, Player
from odin_cards.tools.arena.agents import AgentError, Budget, agent_factory, is_agent_path


class ArenaError(ValueError):
    """A bad arena set-up (bot names, budgets, counts): reported to the user, never a crash."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One participant of an arena run: a bot level with the budget it thinks with."""

    label: str
    """Unique name in the results (``heuristic``, ``heuristic#2``, ``search:iterations=200``)."""
    key: str
    """The level key of the game's plugin; ``"agent"`` for a Python agent."""
    budget: Budget
    agent: str | None = None
    """A Python agent's import path (see :mod:`.agents`); ``None`` for a bot level."""
    game: str = field(default_factory=default_key)
    """The key of the game it plays."""
    written: bool = False
    """Whether the budget was written (else it is the level's own)."""

    def player(self) -> Player:
        """A fresh player for one seat of one game (``KeyError``/``AgentError`` if it is gone)."""
        if self.agent is not None:
            return agent_factory(self.agent)(self.budget)
        plugin = plugin_of(self.game)
        players = plugin.load_players()
        if players is not None:
            return players(self.key, self.budget.as_dict() if self.written else {})
        if plugin.level(self.key) is None:
            raise KeyError(f"no bot level {self.key!r} for the game {self.game!r}")
        return ChoosePlayer(plugin.load_bots(), self.key, self.budget.seconds)


class ChoosePlayer:
    """A level of a game's bots at one seat, asked through its plugin at every move."""

    def __init__(self, choose: Choose, level: str, seconds: float | None) -> None:
        self.choose = choose
        self.level = level
        self.seconds = seconds

    def prepare(self) -> None:
        return None

    def move(self, state: GameState, rng: random.Random) -> str:
        return self.choose(state, self.level, self.seconds, rng)


def budget_text(budget: Budget) -> str:
    """A budget as the override syntax writes it (``seconds=0.2,iterations=200``)."""
    parts = []
    if budget.seconds is not None:
        parts.append(f"seconds={budget.seconds:g}")
    if budget.iterations is not None:
        parts.append(f"iterations={budget.iterations}")
    return ",".join(parts) or "unlimited"


def own_budget(plugin: GamePlugin, key: str) -> Budget:
    """The level's own budget: the seconds a move its plugin says, if any."""
    level = plugin.level(key)
    return Budget(seconds=None if level is None else level.seconds)


def game_plugin(game: str | None) -> GamePlugin:
    try:
        return plugin_of(default_key() if game is None else game)
    except SetupError as error:
        raise ArenaError(str(error)) from None


def parse_entrant(text: str, game: str | None = None) -> tuple[str, Budget]:
    """Read ``level`` or ``level:seconds=S,iterations=N`` of ``game`` (default: the
    default game); raise :class:`ArenaError`."""
    plugin = game_plugin(game)
    key, _, overrides = text.strip().partition(":")
    key = key.strip().lower()
    if plugin.level(key) is None:
        levels = ", ".join(plugin.level_keys) or "none"
        raise ArenaError(f"unknown bot level {key!r}; levels: {levels}")
    if not overrides.strip():
        if ":" in text:
            raise ArenaError(f"{text!r}: write a budget after ':', e.g. {key}:iterations=200")
        return key, own_budget(plugin, key)
    budget = Budget()  # an override replaces the level's whole default budget
    for item in overrides.split(","):
        name, equals, value = (part.strip() for part in item.partition("="))
        if not equals or not value:
            raise ArenaError(
                f"{text!r}: budget overrides are name=value, e.g. {key}:iterations=200"
            )
        if name == "seconds":
            try:
                seconds = float(value)
            except ValueError:
                seconds = -1.0
            if not seconds > 0 or seconds == float("inf"):
                raise ArenaError(f"{text!r}: seconds must be a positive number, not {value!r}")
            budget = replace(budget, seconds=seconds)
        elif name == "iterations":
            if not value.isdigit() or int(value) < 1:
                raise ArenaError(
                    f"{text!r}: iterations must be a positive whole number, not {value!r}"
                )
            budget = replace(budget, iterations=int(value))
        else:
            raise ArenaError(f"{text!r}: unknown budget {name!r}; use seconds= or iterations=")
    check_budget(plugin, key, budget, text)
    return key, budget


def check_budget(plugin: GamePlugin, key: str, budget: Budget, text: str) -> None:
    """Refuse a budget the game's bots cannot take (before any game is played)."""
    players = plugin.load_players()
    if players is None:
        if budget.iterations is not None:
            raise ArenaError(f"{text!r}: the bots of {plugin.key} take no iterations budget")
        return
    try:
        players(key, budget.as_dict())
    except (KeyError, ValueError) as error:
        raise ArenaError(f"{text!r}: {error.args[0] if error.args else error}") from None


def make_entrants(texts: Sequence[str], game: str | None = None) -> tuple[Entrant, ...]:
    """Entrants of ``game`` (default: the default game) from their written specs; repeated
    specs get ``#2``, ``#3`` labels."""
    if len(texts) < 2:
        raise ArenaError("name at least two bots, e.g. odin arena heuristic random")
    entrants = []
    seen: dict[str, int] = {}
    for text in texts:
        entrant = make_entrant(text, game)
        seen[entrant.label] = seen.get(entrant.label, 0) + 1
        if seen[entrant.label] > 1:
            entrant = replace(entrant, label=f"{entrant.label}#{seen[entrant.label]}")
        entrants.append(entrant)
    return tuple(entrants)


def make_entrant(text: str, game: str | None = None) -> Entrant:
    """One entrant from its spec: a level (with a budget override) or an agent's import path.

    A spec whose name before ``:`` is a level is a level; otherwise a spec shaped like an
    import path is an agent, loaded now (an :class:`ArenaError` says why it cannot be).
    """
    plugin = game_plugin(game)
    name = text.strip().partition(":")[0].strip().lower()
    if plugin.level(name) is None and is_agent_path(text):
        try:
            agent_factory(text.strip())
        except AgentError as error:
            raise ArenaError(str(error)) from None
        return Entrant(text.strip(), "agent", Budget(), agent=text.strip(), game=plugin.key)
    key, budget = parse_entrant(text, plugin.key)
    own = budget == own_budget(plugin, key)
    label = key if own else f"{key}:{budget_text(budget)}"
    return Entrant(label, key, budget, game=plugin.key, written=not own)

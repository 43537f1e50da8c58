"""Arena entrants: a bot level plus an optional budget override, written ``level[:k=v,...]``.

``heuristic`` uses the level's default budget; ``search:iterations=200`` or
``search:seconds=0.2`` (or both, comma-separated) replace it: only the limits
written apply, so ``search:iterations=200`` is a pure iteration budget and its
games do not depend on the machine's speed. The same level may
enter several times (``heuristic heuristic``): each entry is a separate entrant with
its own results, labelled ``heuristic``, ``heuristic#2``, ...

An entrant may also be a Python agent named by import path (``package.module:function``
or ``path/to/file.py:function``, see :mod:`.agents`): it is loaded once here, so a bad
path is refused before any game is played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from odin_cards.odin.bots import LEVELS, Bot, Budget, make_bot
from odin_cards.tools.arena.agents import AgentError, agent_factory, is_agent_path


class ArenaError(ValueError):
    """A bad arena set-up (bot names, budgets, counts): reported to the user, never a crash."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One participant of an arena run: a bot level with the budget it thinks with."""

    label: str
    """Unique name in the results (``heuristic``, ``heuristic#2``, ``search:iterations=200``)."""
    key: str
    """The level key in :data:`odin_cards.odin.bots.LEVELS`; ``"agent"`` for a Python agent."""
    budget: Budget
    agent: str | None = None
    """A Python agent's import path (see :mod:`.agents`); ``None`` for a bot level."""

    def make_bot(self) -> Bot:
        """A fresh bot for one seat of one game (``KeyError``/``AgentError`` if it is gone)."""
        if self.agent is not None:
            return agent_factory(self.agent)()
        return make_bot(self.key)


def budget_text(budget: Budget) -> str:
    """A budget as the override syntax writes it (``seconds=0.2,iterations=200``)."""
    parts = []
    if budget.seconds is not None:
        parts.append(f"seconds={budget.seconds:g}")
    if budget.iterations is not None:
        parts.append(f"iterations={budget.iterations}")
    return ",".join(parts) or "unlimited"


def parse_entrant(text: str) -> tuple[str, Budget]:
    """Read ``level`` or ``level:seconds=S,iterations=N``; raise :class:`ArenaError`."""
    key, _, overrides = text.strip().partition(":")
    key = key.strip().lower()
    if key not in LEVELS:
        raise ArenaError(f"unknown bot level {key!r}; levels: {', '.join(LEVELS)}")
    budget = LEVELS[key].budget
    if not overrides.strip():
        if ":" in text:
            raise ArenaError(f"{text!r}: write a budget after ':', e.g. {key}:iterations=200")
        return key, budget
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
    return key, budget


def make_entrants(texts: Sequence[str]) -> tuple[Entrant, ...]:
    """Entrants from their written specs; repeated specs get ``#2``, ``#3`` labels."""
    if len(texts) < 2:
        raise ArenaError("name at least two bots, e.g. odin arena heuristic random")
    entrants = []
    seen: dict[str, int] = {}
    for text in texts:
        entrant = make_entrant(text)
        seen[entrant.label] = seen.get(entrant.label, 0) + 1
        if seen[entrant.label] > 1:
            entrant = replace(entrant, label=f"{entrant.label}#{seen[entrant.label]}")
        entrants.append(entrant)
    return tuple(entrants)


def make_entrant(text: str) -> Entrant:
    """One entrant from its spec: a level (with a budget override) or an agent's import path.

    A spec whose name before ``:`` is a level is a level; otherwise a spec shaped like an
    import path is an agent, loaded now (an :class:`ArenaError` says why it cannot be).
    """
    name = text.strip().partition(":")[0].strip().lower()
    if name not in LEVELS and is_agent_path(text):
        try:
            agent_factory(text.strip())
        except AgentError as error:
            raise ArenaError(str(error)) from None
        return Entrant(text.strip(), "agent", Budget(), agent=text.strip())
    key, budget = parse_entrant(text)
    label = key if budget == LEVELS[key].budget else f"{key}:{budget_text(budget)}"
    return Entrant(label, key, budget)

"""Python agents as arena entrants: a callable or a bot class named by import path.

An *agent* is written ``package.module:name`` (imported like any module, the current
directory first, as ``python -m`` does) or ``path/to/file.py:name`` (loaded from that
file). It plays any game, seeing what a person in its seat sees: ``name`` is either

* a class with a method ``choose(view, legal, budget, rng)`` (Odin's
  :class:`~odin_cards.odin.bots.Bot` has it): made once per game seat, prepared before
  the game (its ``prepare()``, if it has one), asked at each decision with the entrant's
  :class:`~odin_cards.tools.arena.entrants.Budget`; or
* a plain callable ``agent(view, legal) -> action``.

``view`` is the seat's view (the game's :meth:`~odin_cards.contract.GameState.view`, e.g.
Odin's :class:`~odin_cards.odin.rules.View`), ``legal`` the tuple of the game's legal
actions, and the answer one of them (the action, its integer ``id`` or its text,
``"play B3 B7"``).

An agent that returns anything that is not one of the legal actions is an error of the
agent, reported with its game: it is never replaced by a legal move. A path that cannot
be imported, or a name that is neither, is an :class:`AgentError` with one line of
explanation, raised before any game is played.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import random
import re
import sys
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from odin_cards.contract import ActionLike, GameState

AgentFunction = Callable[[Any, Sequence[ActionLike]], ActionLike | int | str]
"""The signature of a plain agent: the seat's view and legal actions to the action chosen."""

AgentMaker = Callable[["Budget"], "AgentPlayer"]
"""What makes an agent's player for one seat of one game, thinking within a budget."""

_PATH = re.compile(
    r"^(?P<module>[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*|[^:]+\.py):(?P<name>[A-Za-z_][\w]*)$"
)


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a bot may think a move: wall-clock seconds and/or search iterations
    (``None``: no limit of that kind). What an agent's ``choose`` is given."""

    seconds: float | None = None
    iterations: int | None = None

    def as_dict(self) -> dict[str, float]:
        """The limits it sets, by name (what :data:`odin_cards.plugin.Players` takes)."""
        limits: dict[str, float] = {}
        if self.seconds is not None:
            limits["seconds"] = self.seconds
        if self.iterations is not None:
            limits["iterations"] = self.iterations
        return limits


_LOADED: dict[str, AgentMaker] = {}
"""Agents already loaded in this process, by import path (each module is imported once)."""


class AgentError(ValueError):
    """An agent that cannot be loaded: a bad import path, a missing or unusable name."""


def is_agent_path(text: str) -> bool:
    """Whether ``text`` has the shape of an agent's import path (``module:name``, ``f.py:name``)."""
    return _PATH.match(text.strip()) is not None


class AgentPlayer:
    """An agent at one seat of one game (:class:`odin_cards.plugin.Player`), shown only
    that seat's view and legal actions."""

    def __init__(self, agent: Any, name: str, budget: Budget, function: bool) -> None:
        self.agent = agent
        self.name = name
        self.budget = budget
        self.function = function

    def prepare(self) -> None:
        prepare = getattr(self.agent, "prepare", None)
        if not self.function and callable(prepare):
            prepare()

    def move(self, state: GameState, rng: random.Random) -> ActionLike:
        seat = state.current_player
        if seat is None:
            raise ValueError("the game is over: nobody is to move")
        legal = tuple(state.legal_actions())
        view = state.view(seat)
        if self.function:
            answer = self.agent(view, legal)
        else:
            answer = self.agent.choose(view, legal, self.budget, rng)
        return action_of(answer, legal, self.name)


def action_of(answer: object, legal: Sequence[ActionLike], name: str) -> ActionLike:
    """The legal action an agent's answer names; ``ValueError`` (the agent's bug) if none."""
    chosen: ActionLike | None
    if isinstance(answer, str):
        chosen = next((a for a in legal if a.text == answer.strip()), None)
    elif isinstance(answer, int) and not isinstance(answer, bool):
        chosen = next((a for a in legal if a.id == answer), None)
    elif hasattr(answer, "text") and hasattr(answer, "id"):
        chosen = next((a for a in legal if a == answer), None)
    else:
        raise ValueError(
            f"agent {name} returned {type(answer).__name__} {answer!r:.60}, not an action"
            " (an action of legal, its id or its text)"
        )
    if chosen is None:
        shown = str(getattr(answer, "text", repr(answer)))
        raise ValueError(
            f"agent {name} chose {shown:.60}, which is not legal here"
            f" (legal: {', '.join(a.text for a in legal[:6])}{', ...' if len(legal) > 6 else ''})"
        )
    return chosen


def _module(path: str) -> Any:
    if path.endswith(".py"):
        file = Path(path)
        if not file.is_file():
            raise AgentError(f"{path}: no such file")
        name = f"odin_agent_{zlib.crc32(str(file.resolve()).encode()):08x}"
        spec = importlib.util.spec_from_file_location(name, file)
        if spec is None or spec.loader is None:  # pragma: no cover - a .py file always has one
            raise AgentError(f"{path}: cannot be loaded as Python")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as error:
            del sys.modules[name]
            raise AgentError(f"{path} fails on import: {type(error).__name__}: {error}") from None
        return module
    if os.getcwd() not in sys.path:  # as ``python -m`` does: modules beside the user first
        sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError as error:
        raise AgentError(f"cannot import {path}: no module named {error.name!r}") from None
    except Exception as error:
        raise AgentError(f"{path} fails on import: {type(error).__name__}: {error}") from None


def agent_factory(path: str) -> AgentMaker:
    """What makes a fresh player for the agent at ``path`` (imported once per process)."""
    path = path.strip()
    if path in _LOADED:
        return _LOADED[path]
    match = _PATH.match(path)
    if match is None:
        raise AgentError(
            f"{path!r} is not an agent's import path: write package.module:function"
            " or path/to/file.py:function"
        )
    module = _module(match["module"])
    name = match["name"]
    target = getattr(module, name, None)
    if target is None:
        raise AgentError(f"{match['module']} has no {name!r}")
    maker: AgentMaker
    if inspect.isclass(target):
        if not callable(getattr(target, "choose", None)):
            raise AgentError(f"{path} is a class without a method choose(view, legal, budget, rng)")
        if inspect.isabstract(target):
            raise AgentError(f"{path} is an abstract class: it cannot play")

        def maker(budget: Budget) -> AgentPlayer:
            return AgentPlayer(target(), path, budget, function=False)

    elif callable(target):

        def maker(budget: Budget) -> AgentPlayer:
            return AgentPlayer(target, path, budget, function=True)

    else:
        raise AgentError(f"{path} is a {type(target).__name__}, not a function or a class")
    _LOADED[path] = maker
    return maker


def load_agent(path: str, budget: Budget | None = None) -> AgentPlayer:
    """A player playing as the agent at ``path``; :class:`AgentError` if it cannot be loaded."""
    return agent_factory(path)(budget or Budget())

"""Python agents as arena entrants: a callable or a :class:`Bot` class named by import path.

An *agent* is written ``package.module:name`` (imported like any module, the current
directory first, as ``python -m`` does) or ``path/to/file.py:name`` (loaded from that
file). ``name`` is either

* a :class:`~odin_cards.odin.bots.Bot` subclass: it is instantiated once per game seat and
  asked through the bots' own interface ``choose(view, legal, budget, rng)``; or
* a plain callable ``agent(view, legal) -> action``: ``view`` is the seat's
  :class:`~odin_cards.odin.rules.View` (what a human in that seat sees), ``legal`` the tuple
  of legal :class:`~odin_cards.odin.rules.Action` objects, and it returns one of them (the
  :class:`Action`, its integer ``id`` or its text, ``"play B3 B7"``).

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
from pathlib import Path
from typing import Any

from odin_cards.odin.bots import Bot, Budget
from odin_cards.odin.rules import Action, View

AgentFunction = Callable[[View, Sequence[Action]], Action | int | str]
"""The signature of a plain agent: the seat's view and legal actions to the action chosen."""

_PATH = re.compile(
    r"^(?P<module>[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*|[^:]+\.py):(?P<name>[A-Za-z_][\w]*)$"
)
_LOADED: dict[str, Callable[[], Bot]] = {}
"""Agents already loaded in this process, by import path (each module is imported once)."""


class AgentError(ValueError):
    """An agent that cannot be loaded: a bad import path, a missing or unusable name."""


def is_agent_path(text: str) -> bool:
    """Whether ``text`` has the shape of an agent's import path (``module:name``, ``f.py:name``)."""
    return _PATH.match(text.strip()) is not None


class FunctionAgent(Bot):
    """A plain agent function seen through the bot interface (the budget and rng unused)."""

    level = "agent"

    def __init__(self, function: AgentFunction, name: str) -> None:
        self.function = function
        self.name = name

    def choose(
        self, view: View, legal: Sequence[Action], budget: Budget, rng: random.Random
    ) -> Action:
        answer = self.function(view, legal)
        return action_of(answer, legal, self.name)


def action_of(answer: object, legal: Sequence[Action], name: str) -> Action:
    """The legal action an agent's answer names; ``ValueError`` (the agent's bug) if none."""
    if isinstance(answer, Action):
        chosen: Action | None = answer if answer in legal else None
    elif isinstance(answer, int) and not isinstance(answer, bool):
        chosen = next((a for a in legal if a.id == answer), None)
    elif isinstance(answer, str):
        chosen = next((a for a in legal if a.text == answer.strip()), None)
    else:
        raise ValueError(
            f"agent {name} returned {type(answer).__name__} {answer!r:.60}, not an action"
            " (an Action of legal, its id or its text)"
        )
    if chosen is None:
        shown = answer.text if isinstance(answer, Action) else repr(answer)
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


def agent_factory(path: str) -> Callable[[], Bot]:
    """What makes a fresh bot for the agent at ``path`` (imported once per process)."""
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
    factory: Callable[[], Bot]
    if inspect.isclass(target):
        if not issubclass(target, Bot):
            raise AgentError(f"{path} is a class but not an odin_cards.odin.bots.Bot")
        factory = target
    elif callable(target):

        def factory() -> Bot:
            return FunctionAgent(target, path)

    else:
        raise AgentError(f"{path} is a {type(target).__name__}, not a function or a Bot class")
    _LOADED[path] = factory
    return factory


def load_agent(path: str) -> Bot:
    """A bot playing as the agent at ``path``; :class:`AgentError` if it cannot be loaded."""
    return agent_factory(path)()

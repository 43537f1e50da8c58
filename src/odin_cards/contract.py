"""The game contract: what every game engine offers to the server, bots, arena and records.

A game is two objects: its :class:`GameRules` (one per game, registered by key in
:mod:`odin_cards.games`) and its :class:`GameState` (one per game being played). The
contract is structural (``Protocol``s): a game implements it by having these members,
not by inheriting from anything, and ``mypy`` checks the fit.

It is deliberately small and says nothing about any one game: no cards, no tricks, no
"lead" or "take". Everything a game means by its actions, decisions, views and events
stays in that game's package; the contract only moves them around. A game may ask
several actions of one seat in a row, or ask another seat out of turn: the seat to move
is whatever :attr:`GameState.current_player` says after each action.

Standard library only, so that any game (and any tool) can depend on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, Self


class SetupError(ValueError):
    """A set-up (number of players, options, injected chance, seed) that the game refuses."""


class ActionError(ValueError):
    """Base of refused actions: malformed (unreadable) or illegal (not allowed now).

    A refused action changes nothing.
    """


class Outcome(Protocol):
    """A finished game."""

    @property
    def scores(self) -> tuple[int, ...]:
        """Final points per seat; what they mean (more or fewer is better) is the game's."""
        ...

    @property
    def winners(self) -> tuple[int, ...]:
        """The seat(s) sharing victory."""
        ...


class ActionLike(Protocol):
    """One action of a game."""

    @property
    def text(self) -> str:
        """The canonical notation: what a log stores and :meth:`GameState.parse` reads."""
        ...

    @property
    def id(self) -> int:
        """A stable integer id (for learning agents); the game documents the id space."""
        ...


class Event(Protocol):
    """One entry of a game's history (typed by the game; secret ones included)."""

    @property
    def kind(self) -> str:
        """The kind of event, e.g. ``"play"``."""
        ...


class GameState(Protocol):
    """One game being played, from its start to its outcome."""

    @property
    def players(self) -> int: ...

    @property
    def current_player(self) -> int | None:
        """The seat to move; ``None`` once the game is over."""
        ...

    @property
    def decision(self) -> str | None:
        """The game's name for the kind of decision asked now; ``None`` once over."""
        ...

    @property
    def is_over(self) -> bool: ...

    @property
    def outcome(self) -> Outcome | None: ...

    @property
    def action_count(self) -> int:
        """Actions applied since the start: the number of the next action (a log's key)."""
        ...

    def legal_actions(self) -> Sequence[ActionLike]:
        """Every action the seat to move may take now (empty once over)."""
        ...

    def parse(self, text: str) -> ActionLike:
        """Read an action's notation; raises an :class:`ActionError` when it is malformed."""
        ...

    def apply(self, action: ActionLike | str, seat: int | None = None) -> Sequence[Event]:
        """Validate and apply one action (of ``seat``, when given); return its events.

        A refused action raises an :class:`ActionError` and changes nothing.
        """
        ...

    def view(self, seat: int | None) -> Any:
        """What ``seat`` (``None``: a spectator) may see; never another seat's secrets."""
        ...

    def public_events(self, start: int = 0) -> list[dict[str, Any]]:
        """The public history from entry ``start`` on, as JSON-safe dicts."""
        ...

    @property
    def public_length(self) -> int:
        """Entries in the public history (a version number for clients)."""
        ...

    def record(self) -> Record:
        """The whole game so far, secrets included, as a replayable record."""
        ...

    def clone(self) -> Self:
        """An independent copy."""
        ...


class Record(Protocol):
    """A whole game (secret while it runs) in a versioned, JSON-safe format."""

    @property
    def game(self) -> str:
        """The key of the game's rules, e.g. ``"odin"``."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe; carries ``"game"`` and ``"format"``."""
        ...

    def replay(self) -> GameState:
        """The game rebuilt by replaying the record; raises ``ValueError`` if it does not."""
        ...


class GameRules(Protocol):
    """A game's rules: its set-up, its records; one instance per game, registered by key."""

    key: str
    rules_version: int
    """Bumped whenever a stored game (set-up, seed, actions) may replay differently."""
    record_format: str
    """The format :meth:`GameState.record` writes, e.g. ``"odin-cards-record/2"``."""
    min_players: int
    max_players: int

    def check_setup(self, players: int, setup: Mapping[str, Any]) -> dict[str, Any]:
        """The set-up normalized (every default filled in, JSON-safe), or :class:`SetupError`.

        Strict: integers are ``int`` (not ``bool``, not ``float``), unknown keys are refused.
        """
        ...

    def new_game(
        self,
        players: int,
        setup: Mapping[str, Any],
        seed: int | str,
        chance: Sequence[Any] | None = None,
    ) -> GameState:
        """A new game; ``chance`` injects the game's random draws (e.g. deals) in order."""
        ...

    def load_record(self, data: Mapping[str, Any]) -> Record:
        """A record from its dict, older formats included; ``ValueError`` if it is not one."""
        ...


__all__ = [
    "ActionError",
    "ActionLike",
    "Event",
    "GameRules",
    "GameState",
    "Outcome",
    "Record",
    "SetupError",
]

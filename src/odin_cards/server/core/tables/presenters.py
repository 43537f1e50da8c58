"""How each game's position reaches a client: the only per-game code of the domain.

A table of any game of :data:`odin_cards.games.GAMES` is stored, replayed and broadcast
through the game contract; what a seat is sent as its ``State`` (``docs/protocol.md``) and
any server-side limit on a set-up are the game's own. Odin has its module
(:mod:`.odin_state`); a game whose ``view(seat)`` is already a JSON-safe dict uses
:func:`view_states` as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from odin_cards.odin.web import presenter as odin_state
from odin_cards.server.core.tables.updates import dump

States = Callable[[Any, Mapping[str, Any], Sequence[str], bool], Callable[[int | None], str]]
"""(game state, setup, seat names, playing) -> a maker of each seat's ``State`` as JSON."""


def no_limits(setup: Mapping[str, Any]) -> str | None:
    return None


@dataclass(frozen=True, slots=True)
class Presenter:
    states: States
    limits: Callable[[Mapping[str, Any]], str | None] = no_limits
    """What is wrong with a (rules-valid) set-up for a public server, or ``None``."""


def view_states(
    game: Any, setup: Mapping[str, Any], names: Sequence[str], playing: bool
) -> Callable[[int | None], str]:
    """Each seat's ``State`` from a game whose ``view(seat)`` is a JSON-safe dict: the
    view, plus ``seat``, ``names``, ``options`` and ``legal`` (the seat to move's actions)."""
    mover = game.current_player if playing else None
    legal = [a.text for a in game.legal_actions()] if mover is not None else []

    def state(seat: int | None) -> str:
        view = dict(game.view(seat))
        view.update(
            seat=seat,
            names=list(names),
            options=dict(setup),
            legal=legal if seat is not None and seat == mover else [],
        )
        return dump(view)

    return state


PRESENTERS: dict[str, Presenter] = {
    "odin": Presenter(odin_state.states, odin_state.limits),
}
"""Games with a presenter of their own; any other game gets :func:`view_states`."""

GENERIC = Presenter(view_states)


def presenter_of(game: str) -> Presenter:
    return PRESENTERS.get(game, GENERIC)

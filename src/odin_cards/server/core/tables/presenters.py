"""How each game's position reaches a client: the game's presenter, from its plugin.

A table of any installed game (:mod:`odin_cards.games`) is stored, replayed and broadcast
through the game contract; what a seat is sent as its ``State`` (``docs/protocol.md``) and
any server-side limit on a set-up are the game's own (``GamePlugin.presenter`` and
``limits``). A game without a presenter is shown through :func:`view_states`: its
``view(seat)``, which must then be a JSON-safe dict.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from odin_cards.games import plugin_of
from odin_cards.plugin import Limits, States
from odin_cards.server.core.protocol.server import dump


def no_limits(setup: Mapping[str, Any]) -> str | None:
    return None


@dataclass(frozen=True, slots=True)
class Presenter:
    states: States
    limits: Limits = no_limits
    """What is wrong with a (rules-valid) set-up for a public server, or ``None``."""


def view_states(
    game: Any, setup: Mapping[str, Any], names: Sequence[str], playing: bool
) -> Callable[[int | None], str]:
    """Each seat's ``State`` from a game whose ``view(seat)`` is a JSON-safe dict: the
    view, plus ``seat``, ``names``, ``options`` and ``legal`` (the seat to move's actions),
    and, unless the view says them itself, ``to_move`` and ``outcome`` (``{scores,
    winners}`` once over, else ``None``), which every page's shell reads."""
    mover = game.current_player if playing else None
    legal = [a.text for a in game.legal_actions()] if mover is not None else []
    over = game.outcome
    outcome = None if over is None else {"scores": list(over.scores), "winners": list(over.winners)}

    def state(seat: int | None) -> str:
        view = dict(game.view(seat))
        view.setdefault("to_move", game.current_player)
        view.setdefault("outcome", outcome)
        view.update(
            seat=seat,
            names=list(names),
            options=dict(setup),
            legal=legal if seat is not None and seat == mover else [],
        )
        return dump(view)

    return state


GENERIC = Presenter(view_states)
"""A game without a presenter of its own: each seat's view as JSON."""


def presenter_of(game: str) -> Presenter:
    """The presenter and limits the game's plugin names (:class:`SetupError` if unknown)."""
    plugin = plugin_of(game)
    states = plugin.load_presenter()
    limits = plugin.load_limits()
    return Presenter(states or view_states, limits or no_limits)

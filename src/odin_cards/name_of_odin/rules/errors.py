"""The errors of In the Name of Odin for a caller's input, as the game contract's errors.

Malformed actions cannot be read; illegal ones are readable but not allowed now. Both are
the contract's :class:`~odin_cards.contract.ActionError`; a refused set-up is its
:class:`~odin_cards.contract.SetupError`. Every error here is a ``ValueError``.
"""

from __future__ import annotations

from odin_cards.contract import ActionError, SetupError


class NameOfOdinError(ValueError):
    """Base of every error this rules core raises for a caller's input."""


class MalformedActionError(NameOfOdinError, ActionError):
    """Text that is no action of the game (``jump``, ``recruit XX``)."""


class IllegalActionError(NameOfOdinError, ActionError):
    """A readable action that the rules do not allow now; the message says why."""


class NotYourTurnError(IllegalActionError):
    """The action was sent for a seat that is not the one to decide."""


class GameOverError(IllegalActionError):
    """The game has ended."""


class SetupRefusedError(NameOfOdinError, SetupError):
    """A set-up (players, cards, seed, injected chance) that the rules refuse."""


class SeatError(NameOfOdinError):
    """Not a seat of this game."""


class RecordError(NameOfOdinError):
    """A record that cannot be read or does not replay."""


def brief(value: object) -> str:
    """``repr(value)`` short enough for an error message, even for hostile input."""
    try:
        text = repr(value)
    except ValueError:
        return f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."

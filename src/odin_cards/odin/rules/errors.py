"""Odin's errors for a caller's input, and how they fit the game contract.

A *malformed* action cannot be read at all (``play B0``, ``jump``); an *illegal* action
is well formed but the rules forbid it now (``play K5 O5`` on 82). Both are the
contract's :class:`~odin_cards.contract.ActionError`, a set-up the rules refuse is its
:class:`~odin_cards.contract.SetupError`, so callers outside the rules catch contract
errors only; :class:`OdinError` is the base of every Odin input error (all are
``ValueError``).
"""

from odin_cards.contract import ActionError, SetupError


class OdinError(ValueError):
    """Base of every error the rules core raises for a caller's input."""


class MalformedActionError(OdinError, ActionError):
    """The text or id does not describe any action of the game."""


class CardError(MalformedActionError):
    """Text that is not a card code (``B7``, ``x0``)."""


class IllegalActionError(OdinError, ActionError):
    """A well-formed action that the rules do not allow in this position."""


class NotYourTurnError(IllegalActionError):
    """The action was sent for a seat that is not the one to decide."""


class GameOverError(IllegalActionError):
    """The game has ended: no action is legal any more."""


class OptionsError(OdinError, SetupError):
    """Game options or a game set-up (players, deals, seed) that the rules do not allow."""


class SeatError(OdinError):
    """A seat that is not a seat of this game (views of a seat)."""


class RecordError(OdinError):
    """A game record that cannot be read or does not replay."""


def brief(value: object) -> str:
    """``repr(value)`` for an error message, short even for hostile input."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        return f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."

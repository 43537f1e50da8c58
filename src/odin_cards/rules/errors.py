"""The two kinds of wrong action, kept apart so callers can answer each properly.

A *malformed* action cannot be read at all (``play B0``, ``jump``); an *illegal* action
is well formed but the rules forbid it now (``play K5 O5`` on 82). Both are
``ValueError`` so generic callers can catch one type.
"""


class OdinError(ValueError):
    """Base of every error the rules core raises for a caller's input."""


class MalformedActionError(OdinError):
    """The text or id does not describe any action of the game."""


class IllegalActionError(OdinError):
    """A well-formed action that the rules do not allow in this position."""


class NotYourTurnError(IllegalActionError):
    """The action was sent for a seat that is not the one to decide."""


class GameOverError(IllegalActionError):
    """The game has ended: no action is legal any more."""


class OptionsError(OdinError):
    """Game options or a game set-up (players, deals) that the rules do not allow."""


class RecordError(OdinError):
    """A game record that cannot be read or does not replay."""

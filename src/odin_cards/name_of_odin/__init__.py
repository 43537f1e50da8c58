"""In the Name of Odin (NSKN Games): a pure rules engine behind the game contract.

``NAME_OF_ODIN`` is the rules object (key ``"name-of-odin"``), :class:`Game` a game being
played, :func:`load_cards` reads a card-set file. Rules: ``docs/name-of-odin/RULES.md``;
card format: ``docs/name-of-odin/cards.md``.
"""

from .actions import Action, parse
from .cards import CardsError, CardSet, load_cards, parse_cards, starter_cards
from .errors import (
    IllegalActionError,
    MalformedActionError,
    NameOfOdinError,
    NotYourTurnError,
    RecordError,
    SetupRefusedError,
)
from .game import Game
from .record import GameRecord
from .rules import NAME_OF_ODIN, NameOfOdinRules
from .state import Event, Outcome

__all__ = [
    "NAME_OF_ODIN",
    "Action",
    "CardSet",
    "CardsError",
    "Event",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "MalformedActionError",
    "NameOfOdinError",
    "NameOfOdinRules",
    "NotYourTurnError",
    "Outcome",
    "RecordError",
    "SetupRefusedError",
    "load_cards",
    "parse",
    "parse_cards",
    "starter_cards",
]

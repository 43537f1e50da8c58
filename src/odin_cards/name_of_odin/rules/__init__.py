"""In the Name of Odin's rules core: pure, typed; no I/O, no clock, no global random state.

``NAME_OF_ODIN`` is the rules object (key ``"name-of-odin"``), :class:`Game` a game being
played, :class:`ActionSpace` the ids of a card set's actions, :func:`load_cards` reads a
card-set file. Rules: ``docs/name-of-odin/RULES.md``; card format:
``docs/name-of-odin/cards.md``; action ids: ``docs/name-of-odin/actions.md``.
"""

from odin_cards.name_of_odin.rules.actions import Action, parse
from odin_cards.name_of_odin.rules.cards import (
    CardsError,
    CardSet,
    load_cards,
    parse_cards,
    starter_cards,
)
from odin_cards.name_of_odin.rules.errors import (
    IllegalActionError,
    MalformedActionError,
    NameOfOdinError,
    NotYourTurnError,
    RecordError,
    SetupRefusedError,
)
from odin_cards.name_of_odin.rules.game import Game, GameRecord
from odin_cards.name_of_odin.rules.name_of_odin import NAME_OF_ODIN, NameOfOdinRules
from odin_cards.name_of_odin.rules.space import ActionSpace
from odin_cards.name_of_odin.rules.state import Event, Outcome

__all__ = [
    "NAME_OF_ODIN",
    "Action",
    "ActionSpace",
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

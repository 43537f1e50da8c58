"""The Odin rules core: pure, typed, fast; no I/O, no clock, no global random state.

Everything else in the project (CLI, bots, server) uses this API:

>>> from odin_cards.odin.rules import Game, Options
>>> game = Game.new(players=4, options=Options(target=15), seed=1)
>>> game.decision
'lead'
>>> _ = game.apply(game.legal_actions()[0])
>>> game.decision
'follow'
"""

from odin_cards.odin.rules.actions import (
    ALL_ACTIONS,
    FIRST_PLAY_ID,
    NUM_ACTIONS,
    PASS_ACTION,
    Action,
    ActionKind,
    action_from_id,
    parse_action,
)
from odin_cards.odin.rules.cards import (
    CARD_TEXT,
    COLOURS,
    GOAT,
    GOAT_POINTS,
    card_text,
    cards_of,
    mask_text,
    parse_card,
    points,
)
from odin_cards.odin.rules.errors import (
    CardError,
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    NotYourTurnError,
    OdinError,
    OptionsError,
    RecordError,
    SeatError,
)
from odin_cards.odin.rules.events import (
    Deal,
    Discard,
    Event,
    GameEnd,
    HandEnd,
    Pass,
    Play,
    RoundEnd,
    Take,
)
from odin_cards.odin.rules.game import Game, GameRecord, Outcome, Phase
from odin_cards.odin.rules.odin import ODIN, OdinRules
from odin_cards.odin.rules.options import MAX_PLAYERS, MIN_PLAYERS, Options
from odin_cards.odin.rules.sets import is_set, set_problem, set_value
from odin_cards.odin.rules.view import View, public_event, public_events

__all__ = [
    "ALL_ACTIONS",
    "CARD_TEXT",
    "COLOURS",
    "FIRST_PLAY_ID",
    "GOAT",
    "GOAT_POINTS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NUM_ACTIONS",
    "ODIN",
    "PASS_ACTION",
    "Action",
    "ActionKind",
    "CardError",
    "Deal",
    "Discard",
    "Event",
    "Game",
    "GameEnd",
    "GameOverError",
    "GameRecord",
    "HandEnd",
    "IllegalActionError",
    "MalformedActionError",
    "NotYourTurnError",
    "OdinError",
    "OdinRules",
    "Options",
    "OptionsError",
    "Outcome",
    "Pass",
    "Phase",
    "Play",
    "RecordError",
    "RoundEnd",
    "SeatError",
    "Take",
    "View",
    "action_from_id",
    "card_text",
    "cards_of",
    "is_set",
    "mask_text",
    "parse_action",
    "parse_card",
    "points",
    "public_event",
    "public_events",
    "set_problem",
    "set_value",
]

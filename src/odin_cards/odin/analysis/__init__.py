"""Game analysis for players: every decision of a finished game judged from its seat's view.

:mod:`.engine` asks the strongest level's search what each legal move is worth from what one
seat saw; :mod:`.annotate` walks a record and classifies each move against the search's
preferred one (inaccuracy / mistake / blunder) and sums it up per player. Pure apart from
the search's own arithmetic: no I/O, no clock, dice seeded from public facts only.
"""

from odin_cards.odin.analysis.annotate import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Analysis,
    MoveNote,
    PlayerSummary,
    analyse_game,
    analyse_record,
    verdict_of,
)
from odin_cards.odin.analysis.engine import MoveValue, move_values

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "Analysis",
    "MoveNote",
    "MoveValue",
    "PlayerSummary",
    "analyse_game",
    "analyse_record",
    "move_values",
    "verdict_of",
]

"""Play in the terminal: one person against bots, with a coloured, colour-blind-safe display."""

from odin_cards.odin.play.commands import HELP, Command, parse_command
from odin_cards.odin.play.hint import Hint, describe, give_hint, strongest_level
from odin_cards.odin.play.session import BotSeat, PlaySession

__all__ = [
    "HELP",
    "BotSeat",
    "Command",
    "Hint",
    "PlaySession",
    "describe",
    "give_hint",
    "parse_command",
    "strongest_level",
]

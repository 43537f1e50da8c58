"""What the player types, read into one command.

A bare card list means play (``b3 b7``, any order, any case) or, when a card must be
taken, take (``r5``); the canonical notation (``play B3 B7``, ``take R5``, ``pass``)
works too, and so does the number of a listed choice. Everything else is a command
word (``help``, ``hint``, ``sort``, ...). Whether an action is *legal* is the game's
question, asked later; here only what cannot be read at all is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from odin_cards.odin.rules import Action, MalformedActionError, parse_action, parse_card

WORDS = {
    "help": "help",
    "h": "help",
    "?": "help",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
    "sort": "sort",
    "hint": "hint",
    "show": "show",
    "table": "show",
    "log": "log",
    "moves": "log",
    "undo": "undo",
}

HELP = """\
Type what you do:
  b3 b7            play these cards (any order, any case)
  r5               when you must take a card: take it
  pass             pass (followers only; the leader cannot pass)
  play B3 B7 / take R5   the full notation works too
  3                the third of the listed choices
Commands:
  hint             what the strongest bot would do, and why
  sort             sort your hand by colour or by number
  show             show the table again
  log              every move of this hand
  log all          every move of the game
  undo             take back your last move (and the bots' moves since)
  help             this text
  quit             leave the game"""


@dataclass(frozen=True, slots=True)
class Command:
    """One line of input: an action to try, a command word, or an error to show."""

    kind: str
    """``act``, ``error``, ``empty``, ``log_all`` or a command word (``help``, ``sort``, ...)."""
    action: Action | None = None
    message: str = ""


def _is_card(word: str) -> bool:
    try:
        parse_card(word)
    except (KeyError, ValueError):  # ValueError: OdinError, what the rules now raise
        return False
    return True


def parse_command(text: str, decision: str | None, choices: Sequence[Action]) -> Command:
    """Read one line typed while ``decision`` is to be made, with ``choices`` listed."""
    words = text.replace(",", " ").split()
    if not words:
        return Command("empty")
    first = words[0].lower()
    if len(words) == 1 and first in WORDS:
        return Command(WORDS[first])
    if len(words) == 2 and WORDS.get(first) == "log" and words[1].lower() == "all":
        return Command("log_all")
    if len(words) == 1 and first.isdigit():
        number = int(first)
        if 1 <= number <= len(choices):
            return Command("act", choices[number - 1])
        return Command("error", message=f"there is no choice {number}: choose 1 to {len(choices)}")
    if first in ("play", "take", "pass"):
        line = " ".join(words)
    elif all(_is_card(word) for word in words):
        verb = "take" if decision == "take" and len(words) == 1 else "play"
        line = f"{verb} {' '.join(words)}"
    elif _is_card(first) or any(_is_card(word) for word in words[1:]):
        bad = next(word for word in words if not _is_card(word))
        return Command(
            "error", message=f"{bad!r} is not a card: write a colour letter and a number, e.g. B7"
        )
    else:
        return Command(
            "error", message=f"unknown command {words[0]!r}: type help for what you can type"
        )
    try:
        return Command("act", parse_action(line))
    except MalformedActionError as error:
        return Command("error", message=str(error))

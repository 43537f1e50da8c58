"""Reading what a person types for a choice: a number, or the beginning of an action.

Shared by the game against bots (:mod:`.session`) and a server table (:mod:`.remote`): a
unique beginning of a legal action is enough (``raid iona``), whatever the case.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from odin_cards.name_of_odin.play.render import choices_text


def starts_with(words: Sequence[str], typed: Sequence[str]) -> bool:
    """Whether ``typed`` begins ``words``: all words but the last equal, the last a prefix."""
    if not typed or len(typed) > len(words):
        return False
    *whole, last = typed
    return list(words[: len(whole)]) == whole and words[len(whole)].startswith(last)


def starting_with(line: str, legal: Sequence[str]) -> list[str]:
    """The legal actions that ``line`` begins (case aside)."""
    typed = line.lower().split()
    return [text for text in legal if starts_with(text.lower().split(), typed)]


def show_many(console: Console, starting: Sequence[str]) -> None:
    """Say that several actions begin the way typed, and list them."""
    console.print(Text(f"{len(starting)} actions start that way:", style="yellow"))
    console.print(choices_text(starting))
    console.print(Text("write more of it, or its number in the full list"))


__all__ = ["show_many", "starting_with", "starts_with"]

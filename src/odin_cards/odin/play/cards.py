"""Cards as coloured text: each card keeps its letter, so colour is never the only clue."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text

from odin_cards.odin.rules import COLOURS

CARD_STYLES = {
    "B": "bold white on blue",
    "R": "bold white on red",
    "P": "bold black on magenta",
    "G": "bold black on green",
    "K": "bold white on grey23",
    "O": "bold black on dark_orange",
    "X": "bold black on bright_white",
}
"""Blue, red, pink, green, black (dark grey, to stay visible on dark terminals), orange, Goat."""

SORTS = ("colour", "number")


def number_key(card: str) -> tuple[int, int]:
    """Sort by number, then colour (the Goat, number 0, first)."""
    return (int(card[1]), COLOURS.find(card[0]))


def colour_key(card: str) -> tuple[int, int]:
    """Sort by colour, then number (the Goat first): the canonical order."""
    return (-1 if card[0] == "X" else COLOURS.index(card[0]), int(card[1]))


def sort_cards(cards: Iterable[str], by: str) -> list[str]:
    return sorted(cards, key=number_key if by == "number" else colour_key)


def card_text(card: str) -> Text:
    return Text(f" {card} ", style=CARD_STYLES.get(card[0], "bold"))


def cards_text(cards: Sequence[str], by: str | None = None, group: bool = False) -> Text:
    """Cards side by side; with ``group``, a wider gap between colours (or numbers)."""
    ordered = list(cards) if by is None else sort_cards(cards, by)
    text = Text()
    previous = None
    for card in ordered:
        kind = card[1] if by == "number" else card[0]
        if previous is not None:
            text.append("  " if group and kind != previous else " ")
        text.append_text(card_text(card))
        previous = kind
    return text

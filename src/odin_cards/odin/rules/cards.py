"""Cards, colours and their one-letter codes.

A card is a small integer index so that hands can be bitmasks:

* colour-major index ``colour * 9 + (number - 1)`` for the 54 coloured cards,
* index 54 for the Grumpy Goat promo card ``X0``.

Every card also has a bit in a *number-major* layout (``(number - 1) * 6 + colour``)
so that the engine can find number sets (``B5 R5``) with one shift and mask, the same
way it finds colour sets. Both layouts put the Goat at bit 54.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from odin_cards.odin.rules.errors import CardError, brief

COLOURS = "BRPGKO"
"""Colour codes in the project's colour order: blue, red, pink, green, black, orange."""

COLOUR_NAMES = ("blue", "red", "pink", "green", "black", "orange")
NUM_COLOURS = 6
NUM_NUMBERS = 9
GOAT = 54
"""Index of the Grumpy Goat (``X0``)."""
NUM_CARDS = 55
"""Coloured cards plus the Goat: the size of the card index space."""
HAND_SIZE = 9
GOAT_POINTS: Final = 5
"""What the Goat costs in hand at the end of a hand (every other card costs 1)."""
_GOAT_BIT: Final = 1 << GOAT

CARD_TEXT: tuple[str, ...] = tuple([f"{COLOURS[i // 9]}{i % 9 + 1}" for i in range(54)] + ["X0"])
_CARD_BY_TEXT = {text: index for index, text in enumerate(CARD_TEXT)}


def colour_of(card: int) -> int:
    """Colour index of a card; the Goat has none and answers -1."""
    return -1 if card == GOAT else card // 9


def number_of(card: int) -> int:
    """The card's digit: 1-9, or 0 for the Goat."""
    return 0 if card == GOAT else card % 9 + 1


def card_text(card: int) -> str:
    return CARD_TEXT[card]


def parse_card(text: str) -> int:
    """Parse ``B7`` / ``b7`` / ``x0``; raises :class:`CardError` for anything else."""
    card = _CARD_BY_TEXT.get(text.strip().upper()) if isinstance(text, str) else None
    if card is None:
        raise CardError(
            f"{brief(text)} is not a card: write a colour letter ({COLOURS}) and a number 1-9,"
            " e.g. B7"
        )
    return card


def points(hand: int) -> int:
    """What ``hand`` scores when a hand ends now: a point a card, the Goat :data:`GOAT_POINTS`."""
    return hand.bit_count() + (GOAT_POINTS - 1 if hand & _GOAT_BIT else 0)


def cards_of(mask: int) -> list[int]:
    """Card indices in a colour-major bitmask, in canonical order."""
    cards = []
    if mask >> GOAT & 1:
        cards.append(GOAT)
        mask &= ~(1 << GOAT)
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _spread(row: int) -> int:
    """A colour's 9-bit row of numbers in the number-major layout of colour 0."""
    return sum(1 << (number * 6) for number in range(9) if row >> number & 1)


_SPREAD: Final = tuple(_spread(row) for row in range(512))


def number_mask_of(mask: int) -> int:
    """Convert a colour-major mask to the number-major layout.

    Searches convert every sampled hand, so this goes a colour at a time through a
    table (each colour's row, spread out, shifted by the colour) rather than a card
    at a time.
    """
    spread = _SPREAD
    result = (
        spread[mask & 511]
        | spread[(mask >> 9) & 511] << 1
        | spread[(mask >> 18) & 511] << 2
        | spread[(mask >> 27) & 511] << 3
        | spread[(mask >> 36) & 511] << 4
        | spread[(mask >> 45) & 511] << 5
    )
    if mask >> GOAT & 1:
        result |= 1 << GOAT
    return result


def mask_text(mask: int) -> str:
    """Cards of a mask as canonical text: ``B3 B7``."""
    return " ".join(CARD_TEXT[c] for c in cards_of(mask))


def deck_mask(colours: Iterable[int], goat: bool) -> int:
    """All cards of the given colours, plus the Goat if it is in play."""
    mask = 0
    for colour in colours:
        mask |= 511 << (9 * colour)
    if goat:
        mask |= 1 << GOAT
    return mask

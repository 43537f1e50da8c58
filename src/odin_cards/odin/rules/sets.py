"""Sets of cards and their values.

A *set* is one card, or several cards of one colour, or several cards of one number.
Its value is the number formed by its digits from high to low (``B2 B8`` -> 82), so a
set with more cards always beats one with fewer. The Grumpy Goat (``X0``) may join a
colour set, adding a 0 digit, but never a number set.
"""

from __future__ import annotations

from odin_cards.odin.rules.cards import GOAT, cards_of, colour_of, number_of


def set_value(mask: int) -> int:
    """The value of the cards in ``mask``: their digits sorted from high to low."""
    digits = sorted((number_of(c) for c in cards_of(mask)), reverse=True)
    value = 0
    for digit in digits:
        value = value * 10 + digit
    return value


def set_problem(mask: int) -> str | None:
    """Why the cards in ``mask`` are not a set, or ``None`` when they are one."""
    cards = cards_of(mask)
    if not cards:
        return "a play needs at least one card"
    if len(cards) == 1:
        return None
    plain = [c for c in cards if c != GOAT]
    if len({colour_of(c) for c in plain}) == 1:
        return None
    if GOAT not in cards and len({number_of(c) for c in plain}) == 1:
        return None
    if GOAT in cards and len({number_of(c) for c in plain}) == 1:
        return "X0 joins colour sets only, never a number set"
    return "cards of a set must all share one colour or one number"


def is_set(mask: int) -> bool:
    return set_problem(mask) is None

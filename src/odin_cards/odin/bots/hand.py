"""The structure of a hand: the fewest sets that could empty it, and how good a hand is.

Every set in Odin is a subset of one colour or of one number (the Goat joins any
colour set). Splitting a hand into the fewest sets is therefore a covering problem
on a tiny bipartite graph (colours x numbers, one edge per card): choose colours
whose cards form colour sets and numbers whose remaining cards form number sets,
so that every card is covered, with as few choices as possible. With at most six
colours present, trying every subset of colours solves it exactly in at most 64
steps, which is why the heuristic and the search rollouts can afford to ask it
for every candidate move. Results are cached by hand mask.
"""

from __future__ import annotations

from typing import Final

from odin_cards.odin.rules.cards import GOAT, points

GOAT_BIT: Final = 1 << GOAT
ROW: Final = 511
"""Nine bits: one colour's cards, number 1 at bit 0."""

_CACHE_LIMIT: Final = 1 << 17
_profiles: dict[int, tuple[int, int, int]] = {}


def colour_rows(hand: int) -> list[int]:
    """The hand's cards per colour, each as a 9-bit number mask."""
    return [(hand >> (9 * colour)) & ROW for colour in range(6)]


def _min_sets(hand: int) -> int:
    goat = hand & GOAT_BIT
    rows = [row for row in colour_rows(hand) if row]
    if not rows:
        return 1 if goat else 0
    count = len(rows)
    full = (1 << count) - 1
    # ors[sub]: the numbers of the colours in ``sub``, built one colour at a time.
    ors = [0] * (1 << count)
    # ``sub`` is the colours split into number sets; the others are colour sets.
    best = count
    for sub in range(1, 1 << count):
        low = sub & -sub
        numbers = ors[sub] = ors[sub ^ low] | rows[low.bit_length() - 1]
        cost = (full ^ sub).bit_count() + numbers.bit_count()
        if goat and sub == full:
            cost += 1
        if cost < best:
            best = cost
    return best


def profile(hand: int) -> tuple[int, int, int]:
    """The hand's fewest sets, points and pips (sum of numbers), cached by hand."""
    result = _profiles.get(hand)
    if result is None:
        if len(_profiles) >= _CACHE_LIMIT:
            _profiles.clear()
        result = _profiles[hand] = (_min_sets(hand), points(hand), pips(hand))
    return result


def min_sets(hand: int) -> int:
    """The fewest sets (colour sets, number sets, singles) that the hand splits into."""
    return profile(hand)[0]


def is_one_set(hand: int) -> bool:
    """Whether the whole hand is a single set (what a finishing lead or going out needs)."""
    return bool(hand) and min_sets(hand) == 1


def decompose(hand: int) -> list[int]:
    """One split of the hand into the fewest sets, as card masks.

    Among the splits with the fewest sets it prefers big sets (the sum of squared
    sizes), because a long colour set is both a finishing lead and hard to beat.
    """
    goat = hand & GOAT_BIT
    plain = hand & ~GOAT_BIT
    rows = colour_rows(plain)
    present = [c for c in range(6) if rows[c]]
    best_key: tuple[int, int] | None = None
    best_sets: list[int] = []
    for chosen in range(1 << len(present)):
        colours = [present[i] for i in range(len(present)) if chosen >> i & 1]
        numbers = 0
        for i, colour in enumerate(present):
            if not chosen >> i & 1:
                numbers |= rows[colour]
        sets = [rows[c] << (9 * c) for c in colours]
        for number in range(9):
            if numbers >> number & 1:
                mask = 0
                for i, colour in enumerate(present):
                    if not chosen >> i & 1 and rows[colour] >> number & 1:
                        mask |= 1 << (9 * colour + number)
                sets.append(mask)
        if goat:
            if sets and colours:
                # The Goat joins the longest colour set: it adds a digit there.
                index = max(range(len(colours)), key=lambda j: sets[j].bit_count())
                sets[index] |= GOAT_BIT
            else:
                sets.append(GOAT_BIT)
        key = (len(sets), -sum(s.bit_count() ** 2 for s in sets))
        if best_key is None or key < best_key:
            best_key, best_sets = key, sets
    return best_sets


_ROW_PIPS: Final = tuple(sum(n + 1 for n in range(9) if row >> n & 1) for row in range(512))


def pips(mask: int) -> int:
    """Sum of the card numbers in ``mask`` (the Goat counts 0): a rough strength."""
    return sum(_ROW_PIPS[(mask >> (9 * colour)) & ROW] for colour in range(6))


__all__ = [
    "colour_rows",
    "decompose",
    "is_one_set",
    "min_sets",
    "pips",
    "points",
    "profile",
]

"""The hand's structure: the fewest sets that could empty it."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odin_cards.odin.bots.hand import decompose, is_one_set, min_sets, points
from odin_cards.odin.rules import is_set
from odin_cards.odin.rules.cards import GOAT, cards_of, mask_of, parse_card


def assert_partition(sets: list[int], mask: int) -> None:
    """``sets`` are disjoint sets of the rules whose union is ``mask``."""
    union = 0
    for s in sets:
        assert is_set(s)
        assert not union & s
        union |= s
    assert union == mask


def hand(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


@pytest.mark.parametrize(
    ("cards", "fewest"),
    [
        ("", 0),
        ("B7", 1),
        ("B1 B2 B3", 1),
        ("B1 R1 P1", 1),
        ("B1 B2 R1 R2", 2),
        ("B1 B2 R1 G5", 3),
        ("B1 R2 P3 G4 K5 O6", 6),
        # Two number sets beat splitting by colour: 1s and 9s across four colours.
        ("B1 R1 P1 G1 B9 R9 P9 G9", 2),
        # A colour set plus a number set sharing no card.
        ("B1 B2 B3 B4 R5 P5 G5", 2),
        # B5 belongs in the blue set or in the 5s: either way two sets.
        ("B1 B2 B5 R5 G5", 2),
        ("B1 B2 B3 B4 B5 B6 B7 B8 B9", 1),
        ("B1 R2 P3 G4 K5 O6 B7 R8 P9", 6),
        ("X0", 1),
        ("X0 B3 B6", 1),
        ("X0 B5 R5", 2),
        ("X0 B1 R2", 2),
    ],
)
def test_fewest_sets_of_given_hands(cards: str, fewest: int) -> None:
    mask = hand(cards)
    assert min_sets(mask) == fewest
    sets = decompose(mask)
    assert len(sets) == fewest
    assert_partition(sets, mask)


def test_decompose_prefers_long_sets() -> None:
    # B5 could join the 5s or the blues; both give two sets, the longer blue set wins.
    sets = decompose(hand("B1 B2 B3 B5 R5 G5"))
    assert sorted(s.bit_count() for s in sets) in ([2, 4], [3, 3])
    sets = decompose(hand("B1 B2 B3 B5 R5"))
    assert sorted(s.bit_count() for s in sets) == [1, 4]


def test_one_set_and_points() -> None:
    assert is_one_set(hand("B2 B7 X0"))
    assert is_one_set(hand("K4 O4"))
    assert not is_one_set(hand("K4 O5"))
    assert not is_one_set(0)
    assert points(hand("B2 B7 X0")) == 2 + 5


@cache
def brute_force(mask: int) -> int:
    """The fewest sets by trying every set that holds the lowest card (slow, obviously right)."""
    if not mask:
        return 0
    cards = cards_of(mask)
    first, rest = cards[0], cards[1:]
    best = 99
    for sub in range(1 << len(rest)):
        chosen = (1 << first) | mask_of(c for i, c in enumerate(rest) if sub >> i & 1)
        if is_set(chosen):
            best = min(best, 1 + brute_force(mask & ~chosen))
    return best


deck = [*range(54), GOAT]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(deck), min_size=1, max_size=9, unique=True))
def test_fewest_sets_matches_brute_force(cards: list[int]) -> None:
    mask = mask_of(cards)
    assert min_sets(mask) == brute_force(mask)
    sets = decompose(mask)
    assert len(sets) == min_sets(mask)
    assert_partition(sets, mask)

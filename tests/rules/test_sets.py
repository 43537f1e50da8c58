"""Set values and set legality (RULES.md "Values" and "Follow"), as properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from odin_cards.odin.rules import (
    MalformedActionError,
    is_set,
    parse_action,
    set_problem,
    set_value,
)
from odin_cards.odin.rules.cards import mask_of, number_mask_of, parse_card
from odin_cards.odin.rules.legal import beating_plays, leads

from . import oracle
from .strategies import card_lists, colour_sets, number_sets


def mask(cards: list[str]) -> int:
    return mask_of(parse_card(c) for c in cards)


@pytest.mark.parametrize(
    ("cards", "value"),
    [(["B2", "B8"], 82), (["P2", "P4", "P9"], 942), (["K5", "O5"], 55), (["X0", "B3", "B6"], 630)],
)
def test_values_from_the_rules(cards: list[str], value: int) -> None:
    assert set_value(mask(cards)) == value


@given(card_lists())
def test_value_is_digits_high_to_low(cards: list[str]) -> None:
    assert set_value(mask(cards)) == oracle.value(cards)


@given(colour_sets(), colour_sets())
def test_more_cards_always_beat_fewer(small: list[str], big: list[str]) -> None:
    if len(big) > len(small):
        assert set_value(mask(big)) > set_value(mask(small))


@given(colour_sets())
def test_colour_sets_are_sets(cards: list[str]) -> None:
    assert is_set(mask(cards))


@given(number_sets())
def test_number_sets_are_sets(cards: list[str]) -> None:
    assert is_set(mask(cards))


@given(number_sets())
def test_goat_never_joins_a_number_set(cards: list[str]) -> None:
    assert not is_set(mask([*cards, "X0"]))
    assert "number set" in (set_problem(mask([*cards, "X0"])) or "")


@given(card_lists())
def test_set_legality_matches_the_rules(cards: list[str]) -> None:
    assert is_set(mask(cards)) == oracle.is_set(cards)


@given(card_lists(), st.randoms(use_true_random=False), st.booleans())
def test_play_text_round_trips_in_any_order_and_case(
    cards: list[str], rng: object, upper: bool
) -> None:
    shuffled = list(cards)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    text = "PLAY " + " ".join(c.upper() if upper else c.lower() for c in shuffled)
    if oracle.is_set(cards):
        action = parse_action(text)
        assert action.text == f"play {oracle.canonical(cards)}"
        assert parse_action(action.text) is action
    else:
        with pytest.raises(MalformedActionError, match="is not a set"):
            parse_action(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "jump",
        "play",
        "play B0",
        "play B10",
        "play Z3",
        "play B3 B3",
        "take",
        "take B3 B4",
        "pass B3",
        "take Q1",
    ],
)
def test_malformed_text_is_refused(text: str) -> None:
    with pytest.raises(MalformedActionError):
        parse_action(text)


def test_parser_accepts_any_case_spacing_and_commas() -> None:
    assert parse_action("  Pass ").text == "pass"
    assert parse_action("take r5").text == "take R5"
    assert parse_action("play b7, B3").text == "play B3 B7"
    assert parse_action("play o5 k5").text == "play K5 O5"
    assert parse_action("play b3 x0").text == "play X0 B3"


@given(
    card_lists(min_size=1, max_size=9),
    st.one_of(colour_sets(), number_sets(), card_lists(max_size=1)),
)
def test_fast_follow_generation_matches_the_rules(hand: list[str], table: list[str]) -> None:
    hand = [c for c in hand if c not in table]
    hand_mask = mask(hand)
    plays = beating_plays(hand_mask, number_mask_of(hand_mask), len(table), oracle.value(table))
    assert sorted(a.text for a in plays) == oracle.legal_plays(hand, table)


@given(card_lists(min_size=1, max_size=9))
def test_fast_lead_generation_matches_the_rules(hand: list[str]) -> None:
    assert sorted(a.text for a in leads(mask(hand))) == oracle.legal_plays(hand, [])


@given(st.sets(st.integers(min_value=0, max_value=54), max_size=55))
def test_number_mask_puts_each_card_at_its_number_major_bit(cards: set[int]) -> None:
    """The number-major layout: bit ``(number - 1) * 6 + colour``, the Goat keeps bit 54."""
    expected = 0
    for card in cards:
        expected |= 1 << 54 if card == 54 else 1 << ((card % 9) * 6 + card // 9)
    assert number_mask_of(mask_of(cards)) == expected

"""Hypothesis strategies for cards, hands and tables."""

from __future__ import annotations

from hypothesis import strategies as st

PLAIN = [f"{c}{n}" for c in "BRPGKO" for n in range(1, 10)]
ALL = [*PLAIN, "X0"]

cards = st.sampled_from(ALL)
plain_cards = st.sampled_from(PLAIN)


def card_lists(
    min_size: int = 1, max_size: int = 9, goat: bool = True
) -> st.SearchStrategy[list[str]]:
    return st.lists(
        st.sampled_from(ALL if goat else PLAIN), min_size=min_size, max_size=max_size, unique=True
    )


@st.composite
def colour_sets(draw: st.DrawFn) -> list[str]:
    colour = draw(st.sampled_from("BRPGKO"))
    numbers = draw(st.lists(st.integers(1, 9), min_size=1, max_size=9, unique=True))
    cards = [f"{colour}{n}" for n in numbers]
    if draw(st.booleans()):
        cards.append("X0")
    return draw(st.permutations(cards))


@st.composite
def number_sets(draw: st.DrawFn) -> list[str]:
    number = draw(st.integers(1, 9))
    colours = draw(st.lists(st.sampled_from("BRPGKO"), min_size=2, max_size=6, unique=True))
    return [f"{c}{number}" for c in colours]

"""Chance: the seeded choices of a game (removed colours, first leader, each hand's deal).

Each choice draws from its own ``random.Random`` seeded by a string derived from the
game's seed and the choice's name, so the core keeps no generator state at all: a
game copy is cheap, a view can never leak a generator, and hand 7's deal does not
depend on how many random numbers hand 6 happened to use.
"""

from __future__ import annotations

import random

from .cards import GOAT, HAND_SIZE, cards_of, deck_mask

Seed = int | str


def _rng(seed: Seed, what: str) -> random.Random:
    return random.Random(f"odin-cards:{seed!r}:{what}")


def removed_colours(seed: Seed, colours: int) -> tuple[int, ...]:
    """The colours left out of a 4-colour two-player game (none for 6 colours)."""
    if colours == 6:
        return ()
    return tuple(sorted(_rng(seed, "colours").sample(range(6), 6 - colours)))


def first_leader(seed: Seed, players: int) -> int:
    return _rng(seed, "first-leader").randrange(players)


def deal(
    seed: Seed, hand_number: int, players: int, removed: tuple[int, ...], goat: bool
) -> tuple[int, ...]:
    """Shuffle the deck and deal 9 cards to each seat, as bitmasks.

    With the Goat, the card is always dealt: if it falls among the undealt cards it
    swaps places with a random dealt card (``RULES.md``).
    """
    rng = _rng(seed, f"deal:{hand_number}")
    deck = cards_of(deck_mask((c for c in range(6) if c not in removed), goat))
    rng.shuffle(deck)
    dealt = players * HAND_SIZE
    if goat:
        where = deck.index(GOAT)
        if where >= dealt:
            swap = rng.randrange(dealt)
            deck[where], deck[swap] = deck[swap], deck[where]
    hands = []
    for seat in range(players):
        mask = 0
        for card in deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]:
            mask |= 1 << card
        hands.append(mask)
    return tuple(hands)

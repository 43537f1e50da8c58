"""Chance: the seeded choices of a game (removed colours, first leader, each hand's deal).

Each choice draws from its own ``random.Random`` seeded by a string derived from the
game's seed and the choice's name, so the core keeps no generator state at all: a
game copy is cheap, a view can never leak a generator, and hand 7's deal does not
depend on how many random numbers hand 6 happened to use.
"""

from __future__ import annotations

import random
from typing import Final

from odin_cards.odin.rules.cards import COLOURS, GOAT, HAND_SIZE, cards_of, deck_mask

Seed = int | str


def _rng(seed: Seed, what: str) -> random.Random:
    return random.Random(f"odin-cards:{seed!r}:{what}")


RED_OR_BLACK: Final = (COLOURS.index("R"), COLOURS.index("K"))
"""The two colours hardest to tell apart for colour-blind players."""


def removed_colours(seed: Seed, colours: int, removal: str) -> tuple[int, ...]:
    """The colours left out of a 4-colour two-player game (none for 6 colours).

    ``red-or-black``: one of red and black, and one of the four other colours, so red and
    black are never both in play. ``any-two``: any two colours (0.1's rule, kept
    draw for draw so that every game stored with it replays exactly).
    """
    if colours == 6:
        return ()
    if removal == "any-two":
        return tuple(sorted(_rng(seed, "colours").sample(range(6), 6 - colours)))
    rng = _rng(seed, "colours:red-or-black")
    others = [c for c in range(len(COLOURS)) if c not in RED_OR_BLACK]
    return tuple(sorted((rng.choice(RED_OR_BLACK), rng.choice(others))))


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

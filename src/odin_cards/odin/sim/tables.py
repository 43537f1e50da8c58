"""The engine's action id space as flat NumPy tables, for the compiled kernels.

Built once at import from :data:`odin_cards.odin.rules.ALL_ACTIONS`, so the simulator can never
disagree with the engine about what an id means: the kernels look up an action's cards,
size and value here, and find the id of any set from its cards through three small
indexes (a colour set, a colour set with the Goat, a number set), which is what legal
move generation needs to turn "these cards of this hand beat the table" into ids.

Masks are ``int64`` rather than ``uint64``: cards use bits 0-54, so they are never
negative, and NumPy/numba arithmetic mixing ``uint64`` with plain ints turns into floats.
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from odin_cards.odin.rules import ALL_ACTIONS, GOAT, NUM_ACTIONS, ActionKind

I64 = npt.NDArray[np.int64]

GOAT_BIT: Final = 1 << GOAT
MAX_LEGAL: Final = 512
"""The most legal actions a position can have: a hand holds at most 9 cards, so at most
511 sets to play, plus pass."""


class Tables(NamedTuple):
    """What the kernels know about actions and sets (every array ``int64``)."""

    mask: I64
    """Per action id: the cards played (play) or taken (take), colour-major."""
    nmask: I64
    """The same cards in the number-major layout (bit ``(number - 1) * 6 + colour``)."""
    size: I64
    value: I64
    colour_id: I64
    """``colour * 512 + bits``: the id of that colour set (-1 for no cards)."""
    goat_id: I64
    """``colour * 512 + bits``: the id of that colour set with the Goat."""
    number_id: I64
    """``(number - 1) * 64 + colour bits``: the id of that number set (two cards or more)."""
    popcount9: I64
    """Cards in a 9-bit (one colour) or 6-bit (one number) group."""
    colour_value: I64
    """Value of a 9-bit colour group's cards (its digits from high to low)."""
    number_value: I64
    """``(number - 1) * 7 + count``: the value of ``count`` cards of that number."""
    pips9: I64
    """Sum of the numbers of a 9-bit colour group's cards (the heuristic's strength)."""


def _build() -> Tables:
    mask = np.zeros(NUM_ACTIONS, np.int64)
    nmask = np.zeros(NUM_ACTIONS, np.int64)
    size = np.zeros(NUM_ACTIONS, np.int64)
    value = np.zeros(NUM_ACTIONS, np.int64)
    colour_id = np.full(6 * 512, -1, np.int64)
    goat_id = np.full(6 * 512, -1, np.int64)
    number_id = np.full(9 * 64, -1, np.int64)
    for action in ALL_ACTIONS:
        mask[action.id] = action.mask
        nmask[action.id] = action.nmask
        size[action.id] = action.size
        value[action.id] = action.value
        if action.kind != ActionKind.PLAY:
            continue
        plain = action.mask & ~GOAT_BIT
        if plain == 0:
            continue  # the Goat alone: a single card, found through the colour rows below
        colours = [c for c in range(6) if plain >> (9 * c) & 511]
        if len(colours) == 1:
            colour = colours[0]
            bits = plain >> (9 * colour) & 511
            table = goat_id if action.mask & GOAT_BIT else colour_id
            table[colour * 512 + bits] = action.id
        else:
            number = (plain.bit_length() - 1) % 9
            bits = sum(1 << c for c in colours)
            number_id[number * 64 + bits] = action.id
    popcount9 = np.array([bin(b).count("1") for b in range(512)], np.int64)
    colour_value = np.zeros(512, np.int64)
    for bits in range(512):
        digits = [n + 1 for n in range(8, -1, -1) if bits >> n & 1]
        colour_value[bits] = int("".join(map(str, digits))) if digits else 0
    number_value = np.zeros(9 * 7, np.int64)
    for number in range(9):
        for count in range(1, 7):
            number_value[number * 7 + count] = int(str(number + 1) * count)
    pips9 = np.array(
        [sum(n + 1 for n in range(9) if bits >> n & 1) for bits in range(512)], np.int64
    )
    return Tables(
        mask, nmask, size, value, colour_id, goat_id, number_id, popcount9, colour_value,
        number_value, pips9,
    )  # fmt: skip


TABLES: Final = _build()
GOAT_ALONE_ID: Final = next(
    a.id for a in ALL_ACTIONS if a.kind == ActionKind.PLAY and a.mask == GOAT_BIT
)
"""``play X0`` (the lowest play id)."""

"""The engine's action ids and card masks as 32-bit words, for the JAX environment.

JAX computes in 32 bits unless told otherwise (``jax_enable_x64`` is a process-wide
switch this package does not flip), so a 55-bit card mask (colour-major, the Goat at bit
54: the engine's) is held as two ``uint32`` words, bits 0-31 then 32-54. The per-action
tables are read from the simulator's (:data:`odin_cards.odin.sim.tables.TABLES`, built from
:data:`odin_cards.odin.rules.ALL_ACTIONS`), so an action id means the same card set in the
engine, the simulator and here. NumPy only: the environment turns them into constants.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from odin_cards.odin.rules import NUM_ACTIONS
from odin_cards.odin.rules.cards import GOAT, NUM_CARDS
from odin_cards.odin.sim.tables import TABLES

U32 = npt.NDArray[np.uint32]
I32 = npt.NDArray[np.int32]

LOW_BITS: Final = 32
HIGH_BITS: Final = NUM_CARDS - LOW_BITS
"""Bits of the second word (23: cards 32 to 54)."""


def words(mask: int) -> tuple[int, int]:
    """A card mask (a Python int) as its two words."""
    return mask & 0xFFFFFFFF, mask >> LOW_BITS


def masks_to_words(masks: Sequence[int] | npt.NDArray[np.int64]) -> U32:
    """Card masks as ``uint32[len(masks), 2]``."""
    out = np.zeros((len(masks), 2), np.uint32)
    for row, mask in enumerate(masks):
        out[row] = words(int(mask))
    return out


def words_to_mask(pair: npt.ArrayLike) -> int:
    """The card mask of two words (the inverse of :func:`words`)."""
    low, high = (int(w) for w in np.asarray(pair, np.uint64).reshape(2))
    return low | high << LOW_BITS


def _int32(values: npt.NDArray[np.int64]) -> I32:
    if values.min() < np.iinfo(np.int32).min or values.max() > np.iinfo(np.int32).max:
        raise RuntimeError("an action table no longer fits 32-bit integers")
    return values.astype(np.int32)


ACTION_WORDS: Final[U32] = masks_to_words(TABLES.mask)
"""``uint32[NUM_ACTIONS, 2]``: the cards each action id plays (play) or takes (take)."""
ACTION_SIZE: Final[I32] = _int32(TABLES.size)
"""Cards in each play (a take's 1, pass 0)."""
ACTION_RANK: Final[I32] = _int32(np.unique(TABLES.value, return_inverse=True)[1].reshape(-1))
"""Each play's value as its rank among all values (0 for the lowest): the rules only ask
whether one set's value beats another's, and a value (its digits from high to low) of a
ten-card set, 9,876,543,210, does not fit 32 bits."""
PASS: Final = 0
FIRST_PLAY: Final = 1 + NUM_CARDS
"""Ids 1 to 55 take a card (``1 + card``); ids from 56 play a set."""
GOAT_WORDS: Final[U32] = masks_to_words([1 << GOAT])[0]
COLOUR_WORDS: Final[U32] = masks_to_words([511 << (9 * colour) for colour in range(6)])
"""``uint32[6, 2]``: every card of each colour."""

assert ACTION_WORDS.shape == (NUM_ACTIONS, 2)

__all__ = [
    "ACTION_RANK",
    "ACTION_SIZE",
    "ACTION_WORDS",
    "COLOUR_WORDS",
    "FIRST_PLAY",
    "GOAT_WORDS",
    "HIGH_BITS",
    "LOW_BITS",
    "PASS",
    "masks_to_words",
    "words",
    "words_to_mask",
]

"""The flat observation of the seat to move, written straight from the batch's arrays.

The layout is not decided here: it is the environments' (:mod:`odin_cards.odin.env.observation`,
``FIELDS``), passed in as the start of each block (:data:`BLOCKS` names them, in the
order of the ``starts`` array). Only what a seat may see is read: its own hand, the
cards each seat is known to hold, the discards, the table, the set being taken from,
the deck, hand sizes, scores, passes, the decision. ``tests/sim`` holds the result
equal to the environments' encoder of the same seat's :class:`~odin_cards.odin.rules.View`.
The compiled functions themselves live in :mod:`.kernels` (see there why).
"""

from __future__ import annotations

from typing import Final

from odin_cards.odin.sim.kernels import encode_movers, encode_seat, encode_seats

BLOCKS: Final = (
    ("hand", (55,)),
    ("known", (5, 55)),
    ("discards", (55,)),
    ("table", (55,)),
    ("beaten", (55,)),
    ("deck", (55,)),
    ("hand_sizes", (6,)),
    ("scores", (6,)),
    ("seats", (6,)),
    ("to_move", (6,)),
    ("table_player", (6,)),
    ("hand_leader", (6,)),
    ("passed", (6,)),
    ("decision", (4,)),
    ("target", (1,)),
    ("one_hand", (1,)),
)
"""The blocks this encoder writes, with their shapes: the ``starts`` array follows this order."""

__all__ = ["BLOCKS", "encode_movers", "encode_seat", "encode_seats"]

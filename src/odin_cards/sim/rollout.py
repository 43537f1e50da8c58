"""Rollouts for search: many random play-outs of the current hand from given positions.

A search bot determinizes (samples the hidden hands, :class:`~odin_cards.rules.position.
HandSampler`, then :meth:`Game.from_view <odin_cards.rules.Game.from_view>` or
:meth:`Game.with_hands <odin_cards.rules.Game.with_hands>`) and wants to know what the
hand is worth from there. :func:`random_rollouts` plays each position out many times,
every seat choosing uniformly among its legal actions, and returns the points each seat
scored in that hand: the compiled kernels do it for the whole batch in one call.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..rules import Game
from . import kernels as k
from ._jit import HAVE_NUMBA
from .batch import MAX_GAMES, Batch, SimError
from .engine import last_hand_points
from .tables import TABLES

MAX_ROLLOUTS = MAX_GAMES
"""Play-outs per call (positions times rollouts) at most."""


def random_rollouts(
    positions: Sequence[Game], rollouts: int, seed: int = 0, compiled: bool | None = None
) -> npt.NDArray[np.int64]:
    """``[len(positions), rollouts, 6]``: each seat's points for the rest of the hand.

    Every position must have a seat to move. ``compiled=None`` uses the compiled kernels
    when numba is installed, else the engine (``True``/``False`` forces one).
    Play-out ``r`` of position ``p`` is seeded from ``(seed, p * rollouts + r)``.
    """
    if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
        raise SimError(f"rollouts is a whole number from 1, not {rollouts!r}")
    if not isinstance(positions, Sequence) or not all(isinstance(p, Game) for p in positions):
        raise SimError("give a sequence of engine Games")
    if not 1 <= len(positions) * rollouts <= MAX_ROLLOUTS:
        raise SimError(f"play 1 to {MAX_ROLLOUTS} rollouts a call, not {len(positions) * rollouts}")
    if any(p.is_over for p in positions):
        raise SimError("a position of a finished game has no hand to play out")
    if compiled is None:
        compiled = HAVE_NUMBA
    if compiled and not HAVE_NUMBA:
        raise SimError('compiled rollouts need numba: pip install "odin-cards[research]"')
    if compiled:
        batch = Batch.from_games(positions, deals="given").repeated(rollouts, seed)
        k.random_hands(batch.state, TABLES)
        return batch.hand_points.reshape(len(positions), rollouts, k.SEATS)
    out = np.zeros((len(positions), rollouts, k.SEATS), np.int64)
    for p, position in enumerate(positions):
        for r in range(rollouts):
            rng = random.Random(f"{seed}:{p * rollouts + r}")
            game = position.clone(history=False)
            hand_number = game.hand_number
            while game.hand_number == hand_number:
                legal = game.legal_actions()
                game.apply_unchecked(legal[rng.randrange(len(legal))])
            points = last_hand_points(game)
            out[p, r, : len(points)] = points
    return out

"""The batch simulator: many games of Odin stepped together by a compiled core.

:func:`make_batch` and :func:`batch_of` give a :class:`Batch` (numba-compiled kernels)
when numba is installed (``pip install "odin-cards[research]"``), else an
:class:`EngineBatch` with the same API over the pure engine. See ``docs/simulator.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from odin_cards.odin.rules import Game, Options
from odin_cards.odin.sim._jit import HAVE_NUMBA
from odin_cards.odin.sim.batch import Batch, Deals, SimError
from odin_cards.odin.sim.engine import EngineBatch
from odin_cards.odin.sim.rollout import random_rollouts

Simulator = Batch | EngineBatch
"""Either backend: both answer the same calls."""

NO_NUMBA = 'the compiled simulator needs numba: pip install "odin-cards[research]"'


def _compiled(compiled: bool | None) -> bool:
    if compiled and not HAVE_NUMBA:
        raise SimError(NO_NUMBA)
    return HAVE_NUMBA if compiled is None else compiled


def make_batch(
    games: int,
    players: int = 4,
    options: Options | None = None,
    seed: int = 0,
    deals: Deals = "own",
    compiled: bool | None = None,
    seeds: Sequence[int] | None = None,
) -> Simulator:
    """``games`` new games; compiled when numba is installed (or as ``compiled`` says).

    Game ``i`` is seeded from ``(seed, i)``, or from ``seeds[i]`` alone when given.
    """
    cls = Batch if _compiled(compiled) else EngineBatch
    return cls.new(games, players, options, seed, deals, seeds)


def batch_of(
    games: Sequence[Game], seed: int = 0, deals: Deals = "own", compiled: bool | None = None
) -> Simulator:
    """Copies of engine positions; compiled when numba is installed (or as ``compiled`` says)."""
    cls = Batch if _compiled(compiled) else EngineBatch
    return cls.from_games(games, seed, deals)


__all__ = [
    "HAVE_NUMBA",
    "NO_NUMBA",
    "Batch",
    "Deals",
    "EngineBatch",
    "SimError",
    "Simulator",
    "batch_of",
    "make_batch",
    "random_rollouts",
]

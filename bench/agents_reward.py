"""Search variants for the arena (issue #13, the reward against the best other seat).

``odin arena bench/agents_reward.py:Leader bench/agents_reward.py:Mean ... --one-hand -j 1``.
Each agent thinks ``ITER`` iterations a move (environment, default 300), or ``SECS`` seconds
when that is set, so that variants compare at equal cost.
"""

from __future__ import annotations

import os
from dataclasses import replace

from odin_cards.bots.search import CURRENT, FIRST, SearchBot, Settings

_SECS = float(os.environ["SECS"]) if os.environ.get("SECS") else None
_ITER = None if _SECS is not None else int(os.environ.get("ITER", "300"))


class _Variant(SearchBot):
    settings_of: Settings = CURRENT

    def __init__(self) -> None:
        super().__init__(seconds=_SECS, iterations=_ITER, settings=self.settings_of)


class First(_Variant):
    """Version 0.2's search (the level ``search-v1``)."""

    settings_of = FIRST


class Mean(_Variant):
    """Today's search (the level ``search``): the margin against the others' mean."""


class Leader(_Variant):
    """Today's search rewarding the margin against the best other seat."""

    settings_of = replace(CURRENT, leader=1.0)


class Half(_Variant):
    """Half the margin against the best other seat, half against their mean."""

    settings_of = replace(CURRENT, leader=0.5)


class Explore015(_Variant):
    """Today's search with half the UCB exploration constant (0.15)."""

    settings_of = replace(CURRENT, exploration=0.15)


class Explore06(_Variant):
    """Today's search with twice the UCB exploration constant (0.6)."""

    settings_of = replace(CURRENT, exploration=0.6)

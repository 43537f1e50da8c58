"""Arena agents for issue #13's measurements: today's search levels as they were before a
change, seated beside the levels as they are (``odin arena search bench/agents_search.py:Engine``).

Each is a :class:`~odin_cards.bots.search.SearchBot` at the levels' 0.5 s unless ``SECONDS``
says otherwise; the level names of ``odin arena`` are the levels as they are now.
"""

from __future__ import annotations

import os
from dataclasses import replace

from odin_cards.bots.inference import ReplayModel
from odin_cards.bots.search import CURRENT, SearchBot

SECONDS = float(os.environ.get("SECONDS_A_MOVE", "0.5"))


class Engine(SearchBot):
    """The level ``search`` with its rollouts played by the engine (Python), as before the
    compiled play-outs: the same search, fewer iterations in the same time."""

    def __init__(self) -> None:
        super().__init__(seconds=SECONDS, settings=replace(CURRENT, compiled=False))


class Replay(SearchBot):
    """The level ``search`` weighing its deals with the replay model
    (:class:`odin_cards.bots.inference.ReplayModel`, miss 0.5) instead of the rules of thumb."""

    def __init__(self) -> None:
        model = ReplayModel(miss=0.5)
        super().__init__(seconds=SECONDS, settings=replace(CURRENT, model=model))

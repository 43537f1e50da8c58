"""What the server's analysis worker process runs: a record in, its analysis out, as JSON data.

A spawned process imports this module, the game registry and the game analysed (its
plugin's ``analysis``), and nothing of the server (like :mod:`.bot_worker`). It lowers its
own priority first, so that a long analysis yields the CPU to the bots and the event loop
of the tables being played.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

from odin_cards.games import plugin_of

NICENESS = 10
"""How much lower than the server the analysis worker runs (``os.nice``)."""


def lower_priority(parent: int) -> None:
    """Worker start-up: run below the server, and exit when the server is gone."""
    from odin_cards.workers.bot_worker import watch_parent

    with contextlib.suppress(OSError):  # not allowed: it runs at the server's priority
        os.nice(NICENESS)
    watch_parent(parent)


def analyse(game: str, record: dict[str, Any], iterations: int) -> dict[str, Any]:
    """The analysis of a finished game's record (its ``to_dict``), as JSON data;
    ``LookupError`` for a game that is not analysed."""
    analysis = plugin_of(game).load_analysis()
    if analysis is None:
        raise LookupError(f"games of {game!r} are not analysed")
    return analysis(record, iterations)


__all__ = ["analyse", "lower_priority"]

"""What test workers run: the real bots, or a worker that raises, dies, hangs or asks for
more memory than its cap.

A module of its own that imports neither pytest nor the server, so that spawned worker
processes import it quickly. The table id says how the worker misbehaves, so tables can
keep real levels (and lanes).
"""

from __future__ import annotations

import os
import time

from odin_cards.workers.bot_worker import Move, Turn, choose


def misbehaving(turn: Turn, seconds: float | None, rng_seed: int) -> Move:
    if turn.table_id.startswith("raise"):
        raise RuntimeError("this worker fails")
    if turn.table_id.startswith("die"):
        os._exit(3)
    if turn.table_id.startswith("hog"):  # past any worker's memory cap (never touched)
        bytearray(64 << 30)
    if turn.table_id.startswith("hang"):
        time.sleep(600)
    return choose(turn, seconds, rng_seed)

"""The batch simulator's compiled kernels, as the bots use them: loaded once, in the background.

The search plays its rollouts with a compiled copy of the heuristic, and the opponent
model replays a hand's decisions with it (:mod:`odin_cards.odin.sim.rollout`), when numba is
installed. numba compiles the kernels the first time a machine runs them (tens of
seconds) and keeps them on disk; later processes load them in a fraction of a second.
A decision never waits for that: until the kernels are ready a bot works with the
engine (the same moves, so only the time a decision takes differs).
"""

from __future__ import annotations

import logging
import threading
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from odin_cards.odin.bots.policy import STYLE, Style, style_vector
from odin_cards.odin.rules import Game

log = logging.getLogger(__name__)


class _Kernels:
    def __init__(self) -> None:
        self.ready = threading.Event()
        self._lock = threading.Lock()
        self._loading: threading.Thread | None = None

    def prepare(self, wait: bool) -> bool:
        if self.ready.is_set():
            return True
        with self._lock:
            if self._loading is None:
                self._loading = threading.Thread(target=self._load, name="odin-kernels")
                self._loading.daemon = True
                self._loading.start()
            loading = self._loading
        if wait:
            loading.join()
        return self.ready.is_set()

    def _load(self) -> None:
        from odin_cards.odin.sim import HAVE_NUMBA

        if not HAVE_NUMBA:
            return
        try:
            from odin_cards.odin.sim.rollout import HeuristicPlayouts

            game = Game.new(players=2, seed=0)
            playouts = HeuristicPlayouts(game, vector(STYLE))
            playouts.action(game)
            playouts.points(game)
            hands = np.array([list(game.hands)], np.int64)
            playouts.replay_log_weights(hands, [], [], 0, game.hand_leader, 0.5)
        except Exception as error:  # e.g. no writable cache directory for numba
            log.warning(
                "the bots' compiled kernels are not available (%s: %s); they use the engine",
                type(error).__name__,
                error,
            )
            return
        self.ready.set()


_KERNELS: Final = _Kernels()


def prepare(wait: bool = True) -> bool:
    """Load the compiled kernels (compiling them if this machine never has); say whether
    they are ready. ``wait=False`` starts loading in the background and answers at once.
    False without numba.

    The arena and the server's bot workers call it before the first decision, so that no
    decision of a measured game is played by the slower engine.
    """
    return _KERNELS.prepare(wait)


@cache
def vector(style: Style) -> npt.NDArray[np.float64]:
    """``style`` as the kernels read it (cached: a search asks once a decision)."""
    return style_vector(style)


__all__ = ["prepare", "vector"]

"""The batch simulator's compiled kernels, as the bots use them: loaded once, in the background.

The search plays its rollouts with a compiled copy of the heuristic
(:mod:`odin_cards.odin.sim.rollout`), when numba is installed. numba compiles a kernel the
first time a machine runs it (tens of seconds) and keeps it on disk; later processes load
it in a fraction of a second. A decision never waits for that: until the kernels are
ready a bot works with the engine (the same moves, so only the time a decision takes
differs).

Each group of kernels loads on its own, when something asks for it: :func:`prepare` the
play-outs every search level uses (what a bot worker starts loading when it starts), and
:func:`prepare_replay` the replay opponent model's (:class:`~odin_cards.odin.bots.inference.
ReplayModel`, research only: no level uses it), so a bot worker compiles only what its
levels use.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from odin_cards.odin.bots.policy import STYLE, Style, style_vector
from odin_cards.odin.rules import Game

log = logging.getLogger(__name__)


class _Kernels:
    """One group of kernels, loaded once on a background thread."""

    def __init__(self, name: str, load: Callable[[], None]) -> None:
        self.name = name
        self.load = load
        self.ready = threading.Event()
        self._lock = threading.Lock()
        self._loading: threading.Thread | None = None

    def prepare(self, wait: bool) -> bool:
        if self.ready.is_set():
            return True
        with self._lock:
            if self._loading is None:
                self._loading = threading.Thread(target=self._load, name=self.name)
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
            self.load()
        except Exception as error:  # e.g. no writable cache directory for numba
            log.warning(
                "the bots' compiled kernels are not available (%s: %s); they use the engine",
                type(error).__name__,
                error,
            )
            return
        self.ready.set()


def _load_playouts() -> None:
    from odin_cards.odin.sim.rollout import HeuristicPlayouts

    game = Game.new(players=2, seed=0)
    playouts = HeuristicPlayouts(game, vector(STYLE))
    playouts.action(game)
    playouts.points(game)


def _load_replay() -> None:
    from odin_cards.odin.sim.rollout import HeuristicPlayouts

    game = Game.new(players=2, seed=0)
    hands = np.array([list(game.hands)], np.int64)
    HeuristicPlayouts(game, vector(STYLE)).replay_log_weights(
        hands, [], [], 0, game.hand_leader, 0.5
    )


_PLAYOUTS: Final = _Kernels("odin-kernels", _load_playouts)
_REPLAY: Final = _Kernels("odin-replay-kernels", _load_replay)


def prepare(wait: bool = True) -> bool:
    """Load the search's compiled play-outs (compiling them if this machine never has);
    say whether they are ready. ``wait=False`` starts loading in the background and
    answers at once. False without numba.

    The arena and the server's bot workers call it before the first decision, so that no
    decision of a measured game is played by the slower engine.
    """
    return _PLAYOUTS.prepare(wait)


def prepare_replay(wait: bool = True) -> bool:
    """Load the replay opponent model's compiled kernel, as :func:`prepare` does the
    play-outs (only a measurement that uses the model asks for it)."""
    return _REPLAY.prepare(wait)


@cache
def vector(style: Style) -> npt.NDArray[np.float64]:
    """``style`` as the kernels read it (cached: a search asks once a decision)."""
    return style_vector(style)


__all__ = ["prepare", "prepare_replay", "vector"]

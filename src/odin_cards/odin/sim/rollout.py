"""Rollouts for search: many random play-outs of the current hand from given positions.

A search bot determinizes (samples the hidden hands, :class:`~odin_cards.odin.rules.position.
HandSampler`, then :meth:`Game.from_view <odin_cards.odin.rules.Game.from_view>` or
:meth:`Game.with_hands <odin_cards.odin.rules.Game.with_hands>`) and wants to know what the
hand is worth from there. :func:`random_rollouts` plays each position out many times,
every seat choosing uniformly among its legal actions, and returns the points each seat
scored in that hand: the compiled kernels do it for the whole batch in one call.

:class:`HeuristicPlayouts` plays a position out with the bots' heuristic instead
(:func:`odin_cards.odin.bots.policy.choose`, compiled in :mod:`.kernels` and held to it move
for move by ``tests/sim/test_heuristic.py``): the search's rollouts, about twenty times
faster than the engine's. The heuristic is deterministic, so a position has one outcome.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from odin_cards.odin.rules import ALL_ACTIONS, Action, Game
from odin_cards.odin.sim import kernels as k
from odin_cards.odin.sim._jit import HAVE_NUMBA
from odin_cards.odin.sim.batch import MAX_GAMES, Batch, SimError, option_fields
from odin_cards.odin.sim.engine import last_hand_points
from odin_cards.odin.sim.tables import TABLES

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


class HeuristicPlayouts:
    """Compiled heuristic play-outs of positions of one game (a search's leaves).

    Made once per decision from any position of the game (its players and options);
    :meth:`points` then plays a position of that hand to the hand's end, every seat
    judging from what it could know there, and returns each seat's points: what
    :func:`odin_cards.odin.bots.search.rollout` returns, move for move. ``style`` is the
    heuristic's judgement as :func:`odin_cards.odin.bots.policy.style_vector` gives it.
    Needs numba (:data:`~._jit.HAVE_NUMBA`).
    """

    def __init__(self, game: Game, style: npt.NDArray[np.float64]) -> None:
        if not HAVE_NUMBA:
            raise SimError('compiled play-outs need numba: pip install "odin-cards[research]"')
        if style.shape != (k.STYLE_FIELDS,):
            raise SimError(f"a style has {k.STYLE_FIELDS} figures, not {style.shape}")
        state = Batch.from_games([game], deals="given").state
        row = option_fields(game.players, game.options, "given")
        row[k.ONE_HAND] = 1  # the play-out stops at the hand's end
        row[k.DECK] = int(state[0][0, k.DECK])
        state[0][0] = row
        self.state = state
        self.players = game.players
        self.style = style
        self._leaf = np.zeros(k.LEAF_FIELDS, np.int64)
        self._dealt = np.zeros(k.SEATS, np.int64)
        self._out = np.zeros(k.SEATS, np.int64)

    def _load(self, game: Game) -> None:
        leaf = self._leaf
        leaf[0] = game.phase
        leaf[1] = game.to_move
        table = game.table
        leaf[2] = -1 if table is None else table.id
        leaf[3] = game.table_player
        beaten = game.beaten
        leaf[4] = -1 if beaten is None else beaten.id
        leaf[5] = game.passes
        leaf[6] = game.discards
        dealt = self._dealt
        for seat, hand in enumerate(game.hands):
            dealt[seat] = hand

    def points(self, game: Game) -> tuple[int, ...]:
        """Each seat's points when the heuristic plays ``game``'s hand out (``game`` is
        left as it is; its hand must not have ended)."""
        self._load(game)
        out = self._out
        k.heuristic_points(self.state, TABLES, self.style, self._leaf, self._dealt, out)
        return tuple(int(p) for p in out[: self.players])

    def action(self, game: Game) -> Action:
        """The heuristic's action for the seat to move in ``game`` (which must have one)."""
        self._load(game)
        return ALL_ACTIONS[
            k.heuristic_choice(self.state, TABLES, self.style, self._leaf, self._dealt)
        ]

    def replay_log_weights(
        self,
        deals: npt.NDArray[np.int64],
        actions: Sequence[int],
        seats: Sequence[int],
        observer: int,
        leader: int,
        miss: float,
    ) -> npt.NDArray[np.float64]:
        """Per deal (``deals[d]``: every seat's hand now, in this position's hand), the
        log-probability of the other seats' choices among the hand's ``actions`` (engine
        ids, by ``seats``; ``leader`` led first) if each chose the heuristic's move with
        probability ``1 - miss`` and any other legal move alike. The heuristic judges as
        ``style``; ``observer``'s own choices are not judged."""
        if not 0.0 < miss < 1.0:
            raise SimError(f"miss is a probability between 0 and 1, not {miss!r}")
        out = np.zeros(len(deals), np.float64)
        k.replay_log_weights(
            self.state,
            TABLES,
            self.style,
            np.ascontiguousarray(deals, np.int64),
            np.asarray(actions, np.int64),
            np.asarray(seats, np.int64),
            observer,
            leader,
            miss,
            out,
        )
        return out

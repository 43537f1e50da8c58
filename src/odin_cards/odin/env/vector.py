"""Many games in one call: a vectorized self-play environment over the batch simulator.

:class:`OdinVectorEnv` holds ``num_envs`` games of the same players and options. Every
seat is the caller's (self-play): each step takes one action id per game, for whichever
seat is to move there, and returns for every game what its next seat to move sees.

* ``reset(seed)`` -> ``(obs, info)``; ``step(actions)`` -> ``(obs, rewards, terminated,
  truncated, info)``.
* ``obs``: ``"observation"`` ``float32[N, FLAT_SIZE]`` (the flat vector of
  :mod:`odin_cards.odin.env.observation`, the PettingZoo and Gymnasium environments' own,
  as seen by the seat to move), ``"action_mask"`` ``int8[N, 6702]`` (1 where legal) and
  ``"to_move"`` ``int64[N]`` (the seat it is for).
* ``rewards``: ``float32[N, players]``, every seat's reward from this step, as the other
  environments define it: ``"game"`` (default) gives the winners of a game that just
  ended 1 shared among them; ``"hand"`` gives each seat minus its points when a hand ends.
* Auto-reset: a game that ends is ``terminated`` in that step and is replaced at once by
  a new game (its own deals), whose first observation is the one returned. The finished
  game's ``final_scores`` (``int64[N, players]``, rows of games still running are 0) and
  ``final_winners`` are in ``info``. ``truncated`` is all ``False``: an Odin game always
  ends (every hand ends within a bounded number of actions, and every hand adds points).

With numba installed the games run in the compiled simulator and observations are
written by a compiled encoder (:mod:`odin_cards.odin.sim.encode`); without it the same API runs
over the engine. See ``docs/simulator.md``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from odin_cards.odin.env.observation import FIELD, FLAT_SIZE, MAX_TARGET, encode
from odin_cards.odin.env.table import REWARDS, RewardKind, check_choice
from odin_cards.odin.rules import NUM_ACTIONS, Options
from odin_cards.odin.rules.view import make_view
from odin_cards.odin.sim import Batch, EngineBatch, SimError, Simulator, make_batch
from odin_cards.odin.sim.encode import BLOCKS, encode_movers
from odin_cards.odin.sim.tables import TABLES

VectorObs = dict[str, npt.NDArray[Any]]


def _starts() -> npt.NDArray[np.int64]:
    """Where each block of the compiled encoder goes in the environments' flat layout."""
    for name, shape in BLOCKS:
        if name not in FIELD or FIELD[name].shape != shape:
            raise RuntimeError(f"the observation layout changed: block {name!r} {shape}")
    return np.array([FIELD[name].start for name, _ in BLOCKS], np.int64)


STARTS = _starts()


class OdinVectorEnv:
    """``num_envs`` self-play games of Odin stepped together (see the module docstring)."""

    def __init__(
        self,
        num_envs: int,
        players: int = 4,
        options: Options | Mapping[str, Any] | None = None,
        reward: RewardKind = "game",
        compiled: bool | None = None,
    ) -> None:
        if isinstance(options, Mapping):
            try:
                options = Options.from_dict(options)
            except ValueError as error:
                raise SimError(str(error)) from None
        options = options if options is not None else Options()
        if isinstance(options.target, int) and options.target > MAX_TARGET:
            raise SimError(f"the environments take a target up to {MAX_TARGET}")
        check_choice("reward", reward, REWARDS)
        self.num_envs = num_envs
        self.players = players
        self.options = options
        self.reward = reward
        self.compiled = compiled
        self.batch: Simulator = make_batch(num_envs, players, options, 0, "own", compiled)

    def reset(self, seed: int | None = None) -> tuple[VectorObs, dict[str, Any]]:
        """New games everywhere; game ``i``'s deals come from ``(seed, i)``."""
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 62)
        self.batch = make_batch(
            self.num_envs, self.players, self.options, seed, "own", self.compiled
        )
        return self.observe(), {}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        VectorObs,
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """One action id per game; an illegal one raises :class:`SimError` (nothing moves)."""
        batch = self.batch
        ended = batch.step(actions)
        players = self.players
        rewards = np.zeros((self.num_envs, players), np.float32)
        terminated = batch.over
        info: dict[str, Any] = {}
        if self.reward == "hand" and ended.any():
            rewards[ended] = -batch.hand_points[ended, :players]
        if terminated.any():
            scores = np.where(terminated[:, None], batch.scores[:, :players], 0)
            winners = batch.winners[:, :players]
            if self.reward == "game":
                shares = winners / np.maximum(winners.sum(axis=1, keepdims=True), 1)
                rewards += shares.astype(np.float32)
            info["final_scores"] = scores
            info["final_winners"] = winners
            batch.reset(terminated)
        truncated = np.zeros(self.num_envs, np.bool_)
        return self.observe(), rewards, terminated, truncated, info

    def observe(self) -> VectorObs:
        """What the seat to move in each game sees, its legal-action mask, and the seat."""
        batch = self.batch
        observation = np.zeros((len(batch), FLAT_SIZE), np.float32)
        if isinstance(batch, Batch):
            encode_movers(batch.state, STARTS, TABLES, observation)
        else:
            _encode_engine(batch, observation)
        mask = batch.legal_mask().view(np.int8)
        assert mask.shape[1] == NUM_ACTIONS
        return {"observation": observation, "action_mask": mask, "to_move": batch.to_move}


def _encode_engine(batch: EngineBatch, out: npt.NDArray[np.float32]) -> None:
    for i, game in enumerate(batch.games):
        if not game.is_over:
            out[i] = encode(make_view(game, game.to_move, history=False))


__all__ = ["OdinVectorEnv", "VectorObs"]

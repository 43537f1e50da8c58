"""The vectorized environment and the compiled observation encoder."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from odin_cards.odin.env.observation import FLAT_SIZE, encode
from odin_cards.odin.env.vector import STARTS, OdinVectorEnv
from odin_cards.odin.rules import Options
from odin_cards.odin.rules.view import make_view
from odin_cards.odin.sim import HAVE_NUMBA, Batch, SimError
from odin_cards.odin.sim.encode import encode_movers
from odin_cards.odin.sim.tables import TABLES

from .test_batch import _positions

COMPILED = [
    pytest.param(True, marks=pytest.mark.skipif(not HAVE_NUMBA, reason="numba is not installed")),
    False,
]


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba is not installed (research extra)")
def test_compiled_observations_are_the_environments() -> None:
    positions = _positions(60, 11)
    batch = Batch.from_games(positions)
    out = np.zeros((len(positions), FLAT_SIZE), np.float32)
    encode_movers(batch.state, STARTS, TABLES, out)
    for i, game in enumerate(positions):
        expected = encode(make_view(game, game.to_move, history=False))
        assert np.array_equal(out[i], expected), i


def _random_actions(mask: npt.NDArray[np.int8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask], np.int64)


@pytest.mark.parametrize("compiled", COMPILED)
def test_hand_rewards_add_up_to_minus_the_final_score(compiled: bool) -> None:
    env = OdinVectorEnv(8, players=3, options=Options(target=5), reward="hand", compiled=compiled)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    returns = np.zeros((8, 3))
    finished = np.zeros(8, np.bool_)
    while not finished.all():
        assert (obs["action_mask"].sum(axis=1) > 0).all()
        assert np.array_equal(obs["to_move"] >= 0, np.ones(8, np.bool_))
        obs, rewards, terminated, truncated, info = env.step(
            _random_actions(obs["action_mask"], rng)
        )
        assert not truncated.any()
        returns[~finished] += rewards[~finished]
        for i in np.flatnonzero(terminated & ~finished):
            assert np.array_equal(returns[i], -info["final_scores"][i])
        finished |= terminated


@pytest.mark.parametrize("compiled", COMPILED)
def test_game_rewards_share_one_victory_and_games_restart(compiled: bool) -> None:
    env = OdinVectorEnv(6, players=2, options={"target": 3}, compiled=compiled)
    obs, _ = env.reset(seed=1)
    again, _ = env.reset(seed=1)
    assert all(np.array_equal(obs[key], again[key]) for key in obs)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400):
        obs, rewards, terminated, _, info = env.step(_random_actions(obs["action_mask"], rng))
        assert np.allclose(rewards.sum(axis=1), terminated.astype(np.float32))
        if terminated.any():
            assert (info["final_winners"][terminated].sum(axis=1) >= 1).all()
            ended += int(terminated.sum())
        assert (obs["action_mask"].sum(axis=1) > 0).all()  # restarted at once
    assert ended > 6


@pytest.mark.parametrize("compiled", COMPILED)
def test_an_illegal_action_is_refused(compiled: bool) -> None:
    env = OdinVectorEnv(2, compiled=compiled)
    env.reset(seed=0)
    with pytest.raises(SimError):
        env.step(np.array([1, 1]))
    with pytest.raises(SimError):
        OdinVectorEnv(2, options={"target": 5000}, compiled=compiled)
    with pytest.raises(SimError):
        OdinVectorEnv(2, options={"colour": 4}, compiled=compiled)

"""The Gymnasium vector environment (:class:`OdinVectorEnv`) and its compiled encoder.

Gymnasium 1.4 ships no checker for vector environments (``gymnasium.utils.env_checker``
checks a single ``Env``), so the checks its own vector environments' tests make are made
here: a ``VectorEnv`` with batched spaces, observations inside them, the same data for
the same seed, no returned array reused, ``(N,)`` rewards and flags, ``_``-masked infos,
``metadata["autoreset_mode"]`` and same-step autoreset as ``SyncVectorEnv`` does it
(``final_obs``, ``final_info``), and Gymnasium's own vector wrapper reading episodes right.
Then the environment is held to the engine (``test_the_engine_plays_the_same_games``).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import pytest

from odin_cards.odin.env.observation import FIELD, FLAT_SIZE, encode
from odin_cards.odin.rules import CARD_TEXT, Game, HandEnd, Options
from odin_cards.odin.rules.cards import deck_mask
from odin_cards.odin.rules.view import make_view
from odin_cards.odin.sim import HAVE_NUMBA, Batch, SimError

from .test_batch import _positions

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="numba is not installed (research extra)")

gymnasium = pytest.importorskip("gymnasium", reason="needs the research extra (gymnasium)")

from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from gymnasium.utils.passive_env_checker import check_obs, data_shares_objects  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

from odin_cards.odin.bots.policy import STYLE  # noqa: E402
from odin_cards.odin.bots.search import rollout_move  # noqa: E402
from odin_cards.odin.env import GYMNASIUM_ID  # noqa: E402
from odin_cards.odin.env.vector import STARTS, OdinVectorEnv  # noqa: E402
from odin_cards.odin.sim.encode import encode_movers  # noqa: E402
from odin_cards.odin.sim.tables import TABLES  # noqa: E402


def test_compiled_observations_are_the_environments() -> None:
    positions = _positions(60, 11)
    batch = Batch.from_games(positions)
    out = np.zeros((len(positions), FLAT_SIZE), np.float32)
    encode_movers(batch.state, STARTS, TABLES, out)
    for i, game in enumerate(positions):
        expected = encode(make_view(game, game.to_move, history=False))
        assert np.array_equal(out[i], expected), i


def _legal(info: dict[str, npt.NDArray[np.int64]], i: int) -> list[int]:
    return [int(a) for a in info["legal_ids"][i, : info["legal_counts"][i]]]


def _random_actions(
    info: dict[str, npt.NDArray[np.int64]], rng: random.Random
) -> npt.NDArray[np.int64]:
    return np.array([rng.choice(_legal(info, i)) for i in range(len(info["seat"]))], np.int64)


def test_gymnasium_vector_interface() -> None:
    envs = gymnasium.make_vec(GYMNASIUM_ID, num_envs=5, players=3, options={"target": 6})
    env = envs.unwrapped
    assert isinstance(env, OdinVectorEnv) and isinstance(env, VectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert env.num_envs == 5
    assert env.single_action_space == gymnasium.spaces.Discrete(6702)
    assert env.action_space == batch_space(env.single_action_space, 5)
    assert env.observation_space == batch_space(env.single_observation_space, 5)

    obs, info = envs.reset(seed=4)
    again, info_again = OdinVectorEnv(5, 3, options={"target": 6}).reset(seed=4)
    assert data_equivalence((obs, info), (again, info_again))
    other, _ = envs.reset(seed=5)
    assert not data_equivalence(obs, other)
    obs, info = envs.reset(seed=4)
    rng = random.Random(1)
    ended = 0
    for _ in range(150):
        assert env.observation_space.contains(obs)
        check_obs(obs[0], env.single_observation_space, "step")
        for key in ("legal_ids", "legal_counts", "seat"):
            assert info[f"_{key}"].all()
        assert (info["legal_counts"] > 0).all()
        actions = _random_actions(info, rng)
        result = envs.step(actions)
        assert not data_shares_objects(obs, result[0])
        obs, rewards, terminated, truncated, info = result
        assert rewards.shape == terminated.shape == truncated.shape == (5,)
        assert rewards.dtype == np.float32 and terminated.dtype == truncated.dtype == np.bool_
        assert not truncated.any()
        ended += int(terminated.sum())
    assert ended >= 5
    envs.close()

    masked = gymnasium.make_vec(GYMNASIUM_ID, num_envs=2, action_mask=True)
    sync = gymnasium.make_vec(GYMNASIUM_ID, num_envs=2, vectorization_mode="sync")
    assert masked.single_observation_space == sync.single_observation_space
    obs, info = masked.reset(seed=2)
    assert masked.observation_space.contains(obs)
    for i in range(2):
        assert list(np.flatnonzero(obs["action_mask"][i])) == _legal(info, i)


def test_same_step_autoreset_and_gymnasiums_episode_statistics() -> None:
    """The step a game ends returns the next game's first observation; the ended game's
    last one and its outcome are in the info; hand rewards add up to minus the score."""
    env = OdinVectorEnv(6, players=4, seat=None, reward="hand", options={"target": 8})
    stats = gymnasium.wrappers.vector.RecordEpisodeStatistics(env)
    obs, info = stats.reset(seed=7)
    rng = random.Random(2)
    returns = np.zeros(6)
    seats = info["seat"].copy()
    over = FIELD["decision"].start + 3
    finished = 0
    while finished < 12:
        obs, rewards, terminated, _, info = stats.step(_random_actions(info, rng))
        returns += rewards
        for i in np.flatnonzero(terminated):
            final = info["final_info"]
            assert info["_final_obs"][i] and info["_final_info"][i] and final["_scores"][i]
            assert returns[i] == -final["scores"][i, seats[i]]
            assert np.isclose(info["episode"]["r"][i], returns[i])
            assert info["final_obs"][i][over] == 1.0  # the ended game, seen from its seat
            assert (
                obs[i][over] == 0.0
                and obs[i][FIELD["scores"].start : FIELD["scores"].stop].sum() == 0
            )
            returns[i] = 0
            finished += 1
        if "final_obs" in info:
            assert all(
                (f is None) == (not t) for f, t in zip(info["final_obs"], terminated, strict=True)
            )
        seats = info["seat"].copy()


def test_self_play_gives_every_seat_its_rewards() -> None:
    env = OdinVectorEnv(4, players=3, opponents="self", reward="game", options={"target": 3})
    _, info = env.reset(seed=1)
    rng = random.Random(3)
    ended = 0
    for _ in range(300):
        movers = info["seat"].copy()
        _, rewards, terminated, _, info = env.step(_random_actions(info, rng))
        seat_rewards = info["seat_rewards"]
        assert np.allclose(seat_rewards.sum(axis=1), terminated)
        assert np.array_equal(rewards, seat_rewards[np.arange(4), movers])
        ended += int(terminated.sum())
    assert ended >= 4


def test_illegal_actions_and_bad_set_ups() -> None:
    env = OdinVectorEnv(3, players=2)
    _, info = env.reset(seed=0)
    lowest = info["legal_ids"][:, 0].copy()
    bad = np.full(3, 6000, np.int64)
    with pytest.raises(SimError, match="not legal"):
        _raise(bad)
    before = env.batch.state[0].copy()
    info = env.step(bad)[4]
    assert info["illegal_action"].all()
    replay = OdinVectorEnv(3, players=2)
    replay.reset(seed=0)
    replay.step(lowest)
    assert np.array_equal(env.batch.state[0], replay.batch.state[0])
    assert not np.array_equal(before, env.batch.state[0])
    for wrong in (np.zeros(2, np.int64), np.zeros(3, np.float32)):
        with pytest.raises(SimError, match="one integer action id per game"):
            env.step(wrong)
    for kwargs in (
        {"opponents": "expert"},
        {"opponents": ["heuristic"] * 3},
        {"observation": "dict"},
        {"seat": 2},
        {"options": {"target": 5000}},
        {"options": {"colour": 4}},
        {"reward": "points"},
        {"num_envs": 0},
    ):
        with pytest.raises((SimError, ValueError)):
            OdinVectorEnv(**{"num_envs": 2, "players": 2, **kwargs})  # type: ignore[arg-type]
    with pytest.raises(SimError, match="reset options"):
        env.reset(options={"deals": []})


def _raise(actions: npt.NDArray[np.int64]) -> None:
    env = OdinVectorEnv(3, players=2, illegal="raise")
    env.reset(seed=0)
    before = env.batch.state[0].copy()
    try:
        env.step(actions)
    finally:
        assert np.array_equal(before, env.batch.state[0])  # nothing moved


# ---------------------------------------------------------- against the engine


@dataclass
class Deals:
    """Each row's deals in order, read from a second batch of the same seed played at
    random: a row's deals depend on its seed alone, never on the moves (a differential
    test of that too: the engine given them must then play the environment's games)."""

    batch: Batch
    rows: list[list[list[list[str]]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rows = [[self._codes(i)] for i in range(len(self.batch))]

    def _codes(self, i: int) -> list[list[str]]:
        return [[CARD_TEXT[c] for c in range(55) if hand >> c & 1] for hand in self.batch.hands(i)]

    def of(self, row: int, start: int, count: int) -> list[list[list[str]]]:
        while len(self.rows[row]) < start + count:
            batch = self.batch
            ended = batch.step(batch.sample_legal())
            over = batch.over
            batch.reset(over)
            for i in np.flatnonzero(ended | over):  # a hand ended, or a game (and restarted)
                self.rows[i].append(self._codes(int(i)))
        return self.rows[row][start : start + count]


def _engine_reward(game: Game, events: object, seat: int, reward: str) -> float:
    earned = 0.0
    for event in events:  # type: ignore[attr-defined]
        if isinstance(event, HandEnd) and reward == "hand":
            earned -= event.points[seat]
    if game.outcome is not None and reward == "game" and seat in game.outcome.winners:
        earned += 1.0 / len(game.outcome.winners)
    return earned


VARIANTS_WITH_A_LEADER = (
    (2, Options(target=10, first_leader=1), None, "hand"),
    (3, Options(goat=True, next_leader="winner", first_leader=0, target=10), None, "game"),
    (4, Options(first_leader=2, target=15), None, "hand"),
    (5, Options(one_hand=True, first_leader=0), 3, "game"),
    (6, Options(goat=True, target=8, first_leader=4), None, "hand"),
)
"""Fixed first leaders (the engine and the simulator draw a random one differently) and
all six colours (likewise the removed ones); every player count, both rewards."""


@pytest.mark.parametrize(
    ("players", "options", "seat", "reward"),
    VARIANTS_WITH_A_LEADER,
    ids=[f"{p}p" for p, *_ in VARIANTS_WITH_A_LEADER],
)
def test_the_engine_plays_the_same_games(
    players: int, options: Options, seat: int | None, reward: str
) -> None:
    """The engine, dealt the simulator's deals and playing the heuristic (the bots' own,
    :func:`rollout_move`) for the other seats, sees what the environment gives: the same
    observation, legal ids and seat at every decision, the same rewards, the same ends."""
    games = 8
    env = OdinVectorEnv(games, players, seat=seat, options=options, reward=reward)  # type: ignore[arg-type]
    obs, info = env.reset(seed=players)
    deals = Deals(Batch.new(games, players, options, players))
    used = [0] * games
    deck = deck_mask(range(6), options.goat)
    rng = random.Random(players)

    def bots(game: Game, learner: int) -> float:
        earned = 0.0
        while not game.is_over and game.to_move != learner:
            events = game.apply(rollout_move(game, deck, game.legal_actions(), STYLE).id)
            earned += _engine_reward(game, events, learner, reward)
        return earned

    def start(i: int, learner: int) -> Game:
        while True:
            game = Game.new(players, options, seed=0, deals=deals.of(i, used[i], 40))
            bots(game, learner)
            if not game.is_over:
                return game
            used[i] += game.hand_number  # ended before the learner's turn: dealt again

    assert isinstance(obs, np.ndarray)
    learners = [int(s) for s in info["seat"]]
    shadows = [start(i, learners[i]) for i in range(games)]
    steps = ended = 0
    while steps < 600:
        for i, game in enumerate(shadows):
            assert info["seat"][i] == game.to_move == learners[i]
            assert _legal(info, i) == game.legal_action_ids()
            assert np.array_equal(obs[i], encode(make_view(game, learners[i], history=False)))
        actions = _random_actions(info, rng)
        expected = []
        for i, game in enumerate(shadows):
            events = game.apply(int(actions[i]))
            earned = _engine_reward(game, events, learners[i], reward)
            expected.append(earned + bots(game, learners[i]))
        obs, rewards, terminated, _, info = env.step(actions)
        assert isinstance(obs, np.ndarray)
        assert np.allclose(rewards, expected)
        for i, game in enumerate(shadows):
            assert terminated[i] == game.is_over
            if game.is_over:
                assert game.outcome is not None
                assert tuple(info["final_info"]["scores"][i]) == game.outcome.scores
                last = encode(make_view(game, learners[i], history=False))
                assert np.array_equal(info["final_obs"][i], last)
                used[i] += game.outcome.hands_played
                ended += 1
                learners[i] = int(info["seat"][i])
                shadows[i] = start(i, learners[i])
        steps += games
    assert ended >= games  # every game ended about once or more, and was dealt again


def test_without_numba_it_says_what_to_install() -> None:
    code = (
        "from odin_cards.odin.env.vector import OdinVectorEnv\n"
        "from odin_cards.odin.sim import SimError\n"
        "try:\n"
        "    OdinVectorEnv(2)\n"
        "except SimError as error:\n"
        "    print(error)\n"
    )
    env = {**os.environ, "ODIN_SIM_NO_NUMBA": "1"}
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert "odin-cards[research]" in run.stdout

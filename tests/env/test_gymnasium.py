"""OdinSingleAgentEnv: one seat learns against bot levels, as a Gymnasium environment."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytestmark = pytest.mark.research
gymnasium = pytest.importorskip("gymnasium", reason="the [research] extra is not installed")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from odin_cards.contract import SetupError  # noqa: E402
from odin_cards.odin.bots import Budget, make_bot  # noqa: E402
from odin_cards.odin.env import GYMNASIUM_ID  # noqa: E402
from odin_cards.odin.env.single import OdinSingleAgentEnv, bot_move  # noqa: E402
from odin_cards.odin.rules import Game, Options  # noqa: E402
from odin_cards.odin.rules.position import HandSampler  # noqa: E402


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"players": 2, "opponents": "random", "observation": "dict", "reward": "hand"},
        {"players": 5, "seat": None, "opponents": ["random", "heuristic", "random", "random"]},
    ],
)
def test_gymnasium_check_env(kwargs: dict[str, Any]) -> None:
    check_env(OdinSingleAgentEnv(render_mode="ansi", **kwargs), skip_render_check=False)


def test_registered_with_gymnasium() -> None:
    env = gymnasium.make(GYMNASIUM_ID, players=3, opponents="random")
    observation, info = env.reset(seed=1)
    assert observation["action_mask"].any()
    assert info == {"seat": 0}


def episode(env: OdinSingleAgentEnv, seed: int) -> tuple[list[tuple[bytes, float]], float]:
    """A whole episode with random legal actions: (observation bytes, reward) per step."""
    observation, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = []
    total = 0.0
    while True:
        assert np.array_equal(env.action_masks(), observation["action_mask"].astype(bool))
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, _ = env.step(action)
        steps.append((observation["observation"].tobytes(), reward))
        total += reward
        if terminated or truncated:
            return steps, total


@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_seeds_reproduce_episodes(opponents: str) -> None:
    env = OdinSingleAgentEnv(players=3, opponents=opponents, options={"target": 10})
    first, _ = episode(env, 4)
    again, _ = episode(
        OdinSingleAgentEnv(players=3, opponents=opponents, options={"target": 10}), 4
    )
    assert first == again
    assert episode(env, 5)[0] != first


def test_game_reward_is_the_learners_share_of_victory() -> None:
    env = OdinSingleAgentEnv(players=2, opponents="random", options={"target": 10})
    for seed in range(4):
        _, total = episode(env, seed)
        outcome = env.table.game.outcome
        assert outcome is not None
        share = 1 / len(outcome.winners) if env.seat in outcome.winners else 0.0
        assert total == pytest.approx(share)


def test_hand_reward_adds_up_to_minus_the_learners_final_score() -> None:
    env = OdinSingleAgentEnv(
        players=4, seat=2, opponents="heuristic", options={"target": 10}, reward="hand"
    )
    _, total = episode(env, 3)
    outcome = env.table.game.outcome
    assert outcome is not None
    assert total == -outcome.scores[2]


def test_the_learner_is_asked_only_on_its_turns() -> None:
    env = OdinSingleAgentEnv(players=4, seat=None, opponents="random")
    seats = set()
    for seed in range(8):
        _, info = env.reset(seed=seed)
        seats.add(info["seat"])
        assert env.table.game.current_player == info["seat"] == env.seat
    assert len(seats) > 1  # seat=None draws the learner's seat


@pytest.mark.parametrize("level", ["heuristic", "search"])
def test_a_bot_chooses_from_its_seats_view_only(level: str) -> None:
    """The environment's bots choose the same move whatever the cards their seat cannot
    see: they are only shown its view."""
    game = Game.new(4, Options(), seed=21)
    rng = random.Random(21)
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    seat = game.current_player
    assert seat is not None
    view = game.view(seat)
    for draw in range(5):
        other = game.with_hands(HandSampler.of(view).draw(random.Random(draw)))
        budget = Budget(iterations=30)
        assert bot_move(make_bot(level), other, budget, random.Random(0)) == (
            bot_move(make_bot(level), game, budget, random.Random(0))
        )


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"players": 1}, SetupError),
        ({"seat": 4}, ValueError),
        ({"opponents": "grandmaster"}, ValueError),
        ({"opponents": ["random", "random"]}, ValueError),
        ({"bot_iterations": 0}, ValueError),
        ({"render_mode": "rgb_array"}, ValueError),
    ],
)
def test_bad_settings_are_refused(kwargs: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        OdinSingleAgentEnv(**kwargs)


def test_reset_can_deal_given_cards() -> None:
    deal = [[f"{colour}{n}" for n in range(1, 10)] for colour in "BRPG"]
    env = OdinSingleAgentEnv(players=4, seat=1, opponents="random")
    observation, _ = env.reset(seed=2, options={"deals": [deal]})
    # the learner has not moved yet, so it holds what it was dealt: R1 to R9 (ids 9-17)
    assert np.flatnonzero(observation["observation"][:55]).tolist() == list(range(9, 18))


def test_a_finished_episode_must_be_reset() -> None:
    env = OdinSingleAgentEnv(players=2, opponents="random", options={"one_hand": True})
    episode(env, 1)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)

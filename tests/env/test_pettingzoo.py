"""odin_v0, the PettingZoo AEC environment: PettingZoo's own conformance tests and ours."""

from __future__ import annotations

import functools
import pickle
import random
import types
import warnings
from typing import Any

import pytest

pytestmark = pytest.mark.research
pytest.importorskip("pettingzoo", reason="the [research] extra (PettingZoo) is not installed")

import numpy as np  # noqa: E402
from pettingzoo.test import (  # noqa: E402
    api_test,
    max_cycles_test,
    parallel_api_test,
    render_test,
    seed_test,
)
from pettingzoo.test.seed_test import parallel_seed_test  # noqa: E402

from odin_cards.contract import SetupError  # noqa: E402
from odin_cards.odin.env import odin_v0  # noqa: E402
from odin_cards.odin.env.aec import OdinAECEnv  # noqa: E402
from odin_cards.odin.env.observation import FIELD  # noqa: E402
from odin_cards.odin.rules import IllegalActionError  # noqa: E402


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"players": 2, "options": {"colours": 4, "goat": True}},
        {"players": 6, "reward": "hand", "observation": "dict"},
    ],
)
def test_pettingzoo_api_test(kwargs: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice only (a dict observation is not a Box)
        api_test(odin_v0.env(render_mode="ansi", **kwargs), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(odin_v0.env, num_cycles=300)
    seed_test(functools.partial(odin_v0.env, players=3, reward="hand"), num_cycles=100)


def test_pettingzoo_parallel_api_and_seed_tests() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(odin_v0.parallel_env(players=3), num_cycles=300)
    parallel_seed_test(odin_v0.parallel_env, num_cycles=100)


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(odin_v0.env)
    assert "Your hand" in capsys.readouterr().out  # human: printed, render() gives None


def test_an_environment_pickles_and_plays_on() -> None:
    env = odin_v0.env(players=3)
    env.reset(seed=5)
    copy = pickle.loads(pickle.dumps(env))
    assert copy.unwrapped.game == env.unwrapped.game
    copy.reset(seed=6)
    assert copy.unwrapped.game.hands != env.unwrapped.game.hands


def test_pettingzoo_max_cycles_test() -> None:
    """PettingZoo's test samples actions without the mask, so nearly all are illegal and
    replaced by the lowest legal id (a lead of the lowest card, else a pass): seats then
    act in turn, one action each per cycle. Once in a while a sample is a legal beating
    play, and its seat is asked twice in that turn (the take), which the test's per-seat
    count cannot allow for; seed 1 (the environment's and the action space's) is a run
    without. Truncation itself is exact whatever is played: see the next test."""
    module = types.SimpleNamespace(
        env=functools.partial(odin_v0.env, seed=1),
        parallel_env=functools.partial(odin_v0.parallel_env, seed=1),
    )
    max_cycles_test(module)


@pytest.mark.parametrize(("players", "cycles"), [(2, 1), (4, 3), (5, 7)])
def test_max_cycles_truncates_after_that_many_cycles_of_actions(players: int, cycles: int) -> None:
    env = odin_v0.env(players=players, max_cycles=cycles)
    env.reset(seed=players)
    rng = np.random.default_rng(0)
    actions = 0
    for _agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        assert actions < players * cycles
        mask = observation["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        actions += 1
    assert actions == players * cycles
    assert not env.agents


def play_out(env: Any, rng: random.Random) -> dict[str, float]:
    """Play a whole game with random legal actions; each agent's return."""
    returns: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        returns[agent] += reward
        if termination or truncation:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]).tolist())))
    return returns


def test_game_reward_is_the_share_of_victory() -> None:
    env = odin_v0.env(players=4, options={"target": 10})
    for seed in range(5):
        env.reset(seed=seed)
        game = env.unwrapped.game
        returns = play_out(env, random.Random(seed))
        outcome = game.outcome
        assert outcome is not None
        assert sum(returns.values()) == pytest.approx(1.0)
        for seat in range(4):
            share = 1 / len(outcome.winners) if seat in outcome.winners else 0.0
            assert returns[f"player_{seat}"] == pytest.approx(share)


def test_hand_reward_adds_up_to_minus_the_final_score() -> None:
    env = odin_v0.env(players=3, options={"target": 12, "goat": True}, reward="hand")
    env.reset(seed=9)
    game = env.unwrapped.game
    returns = play_out(env, random.Random(9))
    assert game.outcome is not None and game.outcome.hands_played > 1
    assert [returns[f"player_{s}"] for s in range(3)] == [-p for p in game.outcome.scores]


def test_the_mask_is_the_engines_legal_ids_and_only_for_the_seat_to_move() -> None:
    env = odin_v0.raw_env(players=4)
    env.reset(seed=4)
    rng = random.Random(4)
    for _ in range(200):
        if env.game.is_over:
            break
        to_move = env.agent_selection
        for agent in env.agents:
            mask = env.observe(agent)["action_mask"]
            if agent == to_move:
                assert np.flatnonzero(mask).tolist() == env.game.legal_action_ids()
            else:
                assert not mask.any()
        env.step(rng.choice(env.game.legal_action_ids()))


def test_an_illegal_action_is_replaced_by_the_lowest_legal_one_and_said() -> None:
    env = odin_v0.raw_env(players=2)
    env.reset(seed=2)
    lowest = env.game.legal_action_ids()[0]
    agent = env.agent_selection
    expected = env.game.clone()
    expected.apply(lowest)
    env.step(0)  # pass: the leader cannot pass
    assert env.game == expected
    assert env.infos[agent] == {"illegal_action": True}


def test_an_illegal_action_is_refused_under_raise_and_changes_nothing() -> None:
    env = odin_v0.raw_env(players=2, illegal="raise")
    env.reset(seed=2)
    before = env.game.clone()
    with pytest.raises(IllegalActionError):
        env.step(0)
    with pytest.raises(IllegalActionError):
        env.step(99_999)
    assert env.game == before


def test_seeds_reproduce_episodes_and_differ_between_seeds() -> None:
    def episode(seed: int) -> list[tuple[str, bytes, float]]:
        env = odin_v0.env(players=3, reward="hand")
        env.reset(seed=seed)
        rng = random.Random(0)
        steps = []
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            steps.append((agent, observation["observation"].tobytes(), reward))
            if termination or truncation:
                env.step(None)
            else:
                env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
        return steps

    assert episode(5) == episode(5)
    assert episode(5) != episode(6)


def test_a_reset_without_seed_continues_the_seeded_sequence() -> None:
    first = odin_v0.raw_env()
    second = odin_v0.raw_env()
    first.reset(seed=3)
    second.reset(seed=3)
    first.reset()
    second.reset()
    assert first.game.hands == second.game.hands
    made = [odin_v0.raw_env(seed=seed) for seed in (8, 8, 9)]
    for env in made:
        env.reset()
    assert made[0].game.hands == made[1].game.hands != made[2].game.hands


def test_reset_deals_injected_cards_and_refuses_a_bad_deal() -> None:
    env = odin_v0.raw_env(players=4)
    env.reset(seed=1, options={"deals": [[h.split() for h in DEAL_4]]})
    assert env.game.view(2).hand == tuple(sorted(DEAL_4[2].split(), key=_card_order))
    with pytest.raises(SetupError, match="dealt twice"):
        env.reset(options={"deals": [[DEAL_4[0].split()] * 4]})


def _card_order(card: str) -> tuple[int, int]:
    return ("BRPGKO".index(card[0]), int(card[1]))


def test_players_and_options_reach_the_game() -> None:
    env = odin_v0.raw_env(players=6, options={"goat": True, "target": 20, "one_hand": True})
    env.reset(seed=1)
    assert env.possible_agents == [f"player_{s}" for s in range(6)]
    assert env.game.options.goat and env.game.options.target == 20
    observation = env.observe("player_0")["observation"]
    assert observation[FIELD["deck"].start + 54] == 1.0  # the Goat is in the deck
    assert observation[FIELD["target"].start] == pytest.approx(1 / 20)
    assert observation[FIELD["one_hand"].start] == 1.0


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"players": 7}, SetupError),
        ({"players": 3, "options": {"colours": 4}}, SetupError),
        ({"options": {"target": 0}}, SetupError),
        ({"options": {"target": 5000}}, SetupError),
        ({"options": {"speed": 1}}, SetupError),
        ({"reward": "points"}, ValueError),
        ({"observation": "image"}, ValueError),
        ({"illegal": "ignore"}, ValueError),
        ({"max_cycles": 0}, ValueError),
        ({"render_mode": "rgb_array"}, ValueError),
    ],
)
def test_bad_settings_are_refused_with_a_clear_error(
    kwargs: dict[str, Any], error: type[Exception]
) -> None:
    with pytest.raises(error):
        OdinAECEnv(**kwargs)


def test_ansi_render_shows_the_seat_to_move_its_own_hand_only() -> None:
    env = odin_v0.env(players=3, render_mode="ansi")
    env.reset(seed=7)
    text = env.render()
    assert isinstance(text, str)
    game = env.unwrapped.game
    seat = game.current_player
    view = game.view(seat)
    assert "Your hand" in text
    for card in view.hand:
        assert card in text
    for other in range(3):
        if other != seat:
            for card in game.view(other).hand:
                assert card not in text
    assert odin_v0.raw_env(players=3).render() is None


def test_a_seats_observations_do_not_depend_on_cards_it_cannot_see() -> None:
    """Two games whose deals agree on seat 0's cards, seats 1 to 3 holding each other's:
    step by step, seat 0's observations are equal, while seat 1 sees a difference."""
    hands = [sorted(h.split()) for h in DEAL_4]
    rotated = [hands[0], hands[2], hands[3], hands[1]]
    envs = [odin_v0.raw_env(players=4, options={"first_leader": 0}) for _ in range(2)]
    for env, deal in zip(envs, (hands, rotated), strict=True):
        env.reset(seed=1, options={"deals": [deal]})
    first, second = envs
    assert not np.array_equal(
        first.observe("player_1")["observation"], second.observe("player_1")["observation"]
    )
    rng = random.Random(1)
    steps = 0
    while first.game.hand_number == 0:
        a, b = (env.observe("player_0") for env in envs)
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"])
        legal = first.game.legal_action_ids()
        action = rng.choice(legal) if first.agent_selection == "player_0" else 0
        for env in envs:
            env.step(action)
        steps += 1
    assert steps >= 9 * 4 - 3  # seat 0 led its nine cards, the others passed each one


DEAL_4 = [
    "B1 B5 R2 R7 P3 G9 K4 O6 O8",
    "B2 B6 R3 R8 P4 G1 K5 O7 O9",
    "B3 B7 R4 R9 P5 G2 K6 O1 P9",
    "B4 B8 R5 R1 P6 G3 K7 O2 K9",
]

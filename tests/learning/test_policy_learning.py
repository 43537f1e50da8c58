"""Training the policy network: the search's decisions and a short fit are reproducible."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from odin_cards.odin.bots.learned import PolicyNet
from odin_cards.odin.learning.policy_data import PolicyShard, generate
from odin_cards.odin.rules import ALL_ACTIONS

pytest.importorskip("torch", reason="torch (the train extra) is not installed")


def test_a_policy_shard_depends_only_on_its_seed() -> None:
    first, again = generate(3, 12, iterations=8), generate(3, 12, iterations=8)
    for name in ("info", "start", "moves", "visits", "value"):
        assert np.array_equal(getattr(first, name), getattr(again, name))
    other = generate(4, 12, iterations=8)
    assert not np.array_equal(first.info, other.info)
    assert len(first) == 12 and first.start[-1] == len(first.moves) == len(first.visits)
    for i in range(len(first)):
        a, b = first.start[i], first.start[i + 1]
        assert b - a >= 2  # only real choices are recorded
        assert first.visits[a:b].sum() == 8  # every iteration visits one root move
        assert first.info[i, -1] in first.moves[a:b]  # the move played was legal
        assert all(ALL_ACTIONS[int(m)].id == m for m in first.moves[a:b])


def test_shards_join_and_round_trip(tmp_path: Path) -> None:
    one, two = generate(5, 6, iterations=6), generate(6, 6, iterations=6)
    both = PolicyShard.join([one, two])
    assert len(both) == 12 and both.start[-1] == len(one.moves) + len(two.moves)
    both.save(tmp_path / "p.npz")
    back = PolicyShard.load(tmp_path / "p.npz")
    assert np.array_equal(back.start, both.start) and np.array_equal(back.moves, both.moves)


def test_a_short_policy_training_run_is_reproducible_bit_for_bit(tmp_path: Path) -> None:
    from odin_cards.odin.learning.policy_train import featurize, train_policy

    data = featurize(PolicyShard.join([generate(s, 15, iterations=8) for s in range(2)]))
    one = train_policy(data, seed=1, sizes=(8, 8, 8), epochs=2, batch=8)
    two = train_policy(data, seed=1, sizes=(8, 8, 8), epochs=2, batch=8)
    for name, array in one.net.arrays.items():
        assert np.array_equal(array, two.net.arrays[name])
    assert one.valid_loss == two.valid_loss
    three = train_policy(data, seed=2, sizes=(8, 8, 8), epochs=2, batch=8)
    assert not np.array_equal(one.net.arrays["trunk_w"], three.net.arrays["trunk_w"])
    one.net.save(tmp_path / "policy.npz")
    loaded = PolicyNet.load(tmp_path / "policy.npz")
    for name, array in one.net.arrays.items():
        assert np.array_equal(array, loaded.arrays[name])

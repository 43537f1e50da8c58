"""Training the value network: the data and a short fit are reproducible bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from odin_cards.odin.bots.network import SEATED, ValueNet
from odin_cards.odin.learning.data import generate

pytest.importorskip("torch", reason="torch (the train extra) is not installed")


def test_a_shard_depends_only_on_its_seed() -> None:
    first, again, other = generate(3, 300), generate(3, 300), generate(4, 300)
    assert np.array_equal(first.x, again.x) and np.array_equal(first.y, again.y)
    assert not np.array_equal(first.x, other.x)
    # labels are the hand's margins: they sum to zero over the seated slots
    assert np.allclose(first.y.sum(axis=1), 0, atol=1e-5)
    assert np.all(first.y[first.x[:, SEATED] == 0] == 0)


def test_a_short_training_run_is_reproducible_bit_for_bit(tmp_path: object) -> None:
    from odin_cards.odin.learning.train import train

    data = generate(0, 600)
    one = train(data, seed=1, hidden=(16,), epochs=2, batch=64)
    two = train(data, seed=1, hidden=(16,), epochs=2, batch=64)
    for a, b in zip(
        one.net.weights + one.net.biases, two.net.weights + two.net.biases, strict=True
    ):
        assert np.array_equal(a, b)
    assert one.valid_loss == two.valid_loss
    three = train(data, seed=2, hidden=(16,), epochs=2, batch=64)
    assert not np.array_equal(one.net.weights[0], three.net.weights[0])


def test_saved_weights_load_back_exactly(tmp_path: object) -> None:
    from pathlib import Path

    from odin_cards.odin.learning.train import train

    assert isinstance(tmp_path, Path)
    fit = train(generate(1, 300), seed=0, hidden=(8,), epochs=1, batch=64)
    fit.net.save(tmp_path / "net.npz")
    loaded = ValueNet.load(tmp_path / "net.npz")
    for a, b in zip(fit.net.weights, loaded.weights, strict=True):
        assert np.array_equal(a, b)

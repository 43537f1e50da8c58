"""The value network: NumPy inference, the shipped weights, its level and the search using it."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from odin_cards.odin.bots import LEVELS, Budget, ask, make_bot
from odin_cards.odin.bots.lookahead import NetworkBot
from odin_cards.odin.bots.network import (
    FEATURES,
    SEATED,
    SLOTS,
    colour_permutation,
    features,
    shipped,
    weights_path,
)
from odin_cards.odin.bots.search import CURRENT, SearchBot
from odin_cards.odin.rules import Game, Options

from .positions import positions


def test_the_weights_ship_inside_the_package_and_load_with_numpy() -> None:
    path = weights_path()
    assert path.is_file() and path.suffix == ".npz"
    assert path.stat().st_size < 2_000_000
    net = shipped()
    assert net.weights[0].shape[0] == FEATURES and net.weights[-1].shape[1] == SLOTS


def test_inference_is_deterministic_and_centred() -> None:
    net = shipped()
    for game in positions(30, seed=5):
        first = net.values(game)
        assert first == net.values(game.clone())
        assert len(first) == game.players
        assert abs(sum(first)) < 1e-9  # the hand's margins sum to zero
    rows = np.stack([features(g) for g in positions(10, seed=6)])
    batch = net.forward(rows, rows[:, SEATED])
    one = net.forward(rows[3:4], rows[3:4, SEATED])
    assert np.allclose(batch[3], one[0], rtol=0, atol=1e-12)


def test_features_are_relative_to_the_seat_to_move() -> None:
    game = Game.new(4, Options(one_hand=True), seed=2)
    x = features(game)
    me = game.to_move
    own = x[:56]
    assert [i for i in range(55) if own[i]] == [i for i in range(55) if game.hands[me] >> i & 1]
    assert list(x[SEATED]) == [1, 1, 1, 1, 0, 0]


def test_a_recoloured_position_permutes_the_card_features() -> None:
    game = Game.new(3, Options(one_hand=True), seed=4)
    order = [1, 2, 0, 4, 5, 3]
    x = features(game)
    moved = x[colour_permutation(order)]
    card = next(c for c in range(54) if game.hands[game.to_move] >> c & 1)
    target = order[card // 9] * 9 + card % 9
    assert moved[target] == 1 and x.sum() == moved.sum()


def test_the_numpy_forward_equals_torch() -> None:
    torch = pytest.importorskip("torch", reason="torch (the train extra) is not installed")
    from odin_cards.odin.learning.train import centred

    net = shipped()
    rows = np.stack([features(g) for g in positions(20, seed=8)])
    ours = net.forward(rows, rows[:, SEATED])
    layers = []
    for i, (w, b) in enumerate(zip(net.weights, net.biases, strict=True)):
        linear = torch.nn.Linear(w.shape[0], w.shape[1])
        with torch.no_grad():
            linear.weight.copy_(torch.from_numpy(w.T.astype(np.float32)))
            linear.bias.copy_(torch.from_numpy(b.astype(np.float32)))
        layers.append(linear)
        if i < len(net.weights) - 1:
            layers.append(torch.nn.ReLU())
    model = torch.nn.Sequential(*layers)
    x = torch.from_numpy(rows.astype(np.float32))
    with torch.no_grad():
        theirs = centred(model(x), x[:, SEATED]).numpy()
    assert np.max(np.abs(ours - theirs)) < 1e-5


def test_the_network_level_plays_legal_moves_reproducibly() -> None:
    bot = make_bot("network")
    assert isinstance(bot, NetworkBot)
    for index, game in enumerate(positions(40, seed=9)):
        action = ask(bot, game, LEVELS["network"].budget, random.Random(index))
        assert game.is_legal(action)
        again = ask(
            make_bot("network"), game.clone(), LEVELS["network"].budget, random.Random(index)
        )
        assert again == action


def test_the_search_with_the_value_network_is_legal_and_reproducible() -> None:
    settings = replace(CURRENT, learned=True, value=shipped(), value_after=2)
    for index, game in enumerate(positions(12, seed=10)):
        choices = {
            ask(SearchBot(settings=settings), game, Budget(iterations=60), random.Random(index))
            for _ in range(2)
        }
        assert len(choices) == 1
        assert game.is_legal(choices.pop())

"""The learned policy: NumPy inference, the shipped weights, its level and the search using it."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from odin_cards.odin.bots import Budget, ask
from odin_cards.odin.bots.learned import (
    MOVE,
    POSITION,
    Decision,
    PolicyBot,
    card_permutation,
    move_features,
    position_features,
    shipped_policy,
    weights_path,
)
from odin_cards.odin.bots.search import CURRENT, SearchBot
from odin_cards.odin.rules import Game, Options
from odin_cards.odin.rules.actions import PLAY

from .positions import positions


def test_the_policy_weights_ship_inside_the_package_and_load_with_numpy() -> None:
    path = weights_path()
    assert path.is_file() and path.suffix == ".npz"
    assert path.stat().st_size < 1_000_000
    net = shipped_policy()
    assert net.arrays["trunk_w"].shape[0] == POSITION
    assert net.arrays["move_w"].shape[0] == MOVE


def test_the_policy_is_a_deterministic_distribution_over_the_legal_moves() -> None:
    net = shipped_policy()
    for game in positions(30, seed=11):
        legal = game.legal_actions()
        d = Decision.of_view(game.view(game.to_move))
        p = net.probabilities(d, legal)
        assert p.shape == (len(legal),) and abs(p.sum() - 1) < 1e-9 and np.all(p > 0)
        again = net.probabilities(Decision.of_view(game.clone().view(game.to_move)), legal)
        assert np.array_equal(p, again)
        assert p[legal.index(net.best(d, legal))] == p.max()


def test_a_seat_knows_the_same_in_the_view_and_in_the_full_game_for_its_own_features() -> None:
    # In a sampled game the rollouts' knowledge lets every unseen card be in another hand;
    # the hand, the table and the sizes are the view's.
    from odin_cards.odin.rules.cards import deck_mask

    for game in positions(20, seed=12):
        deck = deck_mask((c for c in range(6) if c not in game.removed), game.options.goat)
        a = Decision.of_view(game.view(game.to_move))
        b = Decision.of_game(game, deck)
        assert (a.hand, a.table, a.beaten, a.passes) == (b.hand, b.table, b.beaten, b.passes)
        assert tuple(a.sizes) == tuple(b.sizes) and a.decision == b.decision
        assert a.others & ~b.others == 0  # in a sampled game a seat may suppose more


def test_a_recoloured_position_permutes_the_card_features() -> None:
    game = Game.new(3, Options(one_hand=True), seed=4)
    order = [1, 2, 0, 4, 5, 3]
    d = Decision.of_view(game.view(game.to_move))
    x = position_features(d)
    moved = x[card_permutation(POSITION, 4, order)]
    card = next(c for c in range(54) if d.hand >> c & 1)
    assert moved[order[card // 9] * 9 + card % 9] == 1 and x.sum() == moved.sum()
    legal = game.legal_actions()
    m = move_features(d, legal, d.heuristic(legal))
    assert m.shape == (len(legal), MOVE)
    assert m[:, :56].sum() == sum(a.size for a in legal)


def test_the_numpy_forward_equals_torch() -> None:
    torch = pytest.importorskip("torch", reason="torch (the train extra) is not installed")
    from odin_cards.odin.learning.policy_train import Model

    net = shipped_policy()
    a = net.arrays
    model = Model(a["trunk_w"].shape[1], a["move_w"].shape[1], a["joint_m"].shape[1])
    with torch.no_grad():
        for linear, w, b in (
            (model.trunk, "trunk_w", "trunk_b"),
            (model.move, "move_w", "move_b"),
            (model.joint_m, "joint_m", "joint_b"),
            (model.out, "out_w", "out_b"),
        ):
            linear.weight.copy_(torch.from_numpy(a[w].T.astype(np.float32)))
            linear.bias.copy_(torch.from_numpy(a[b].astype(np.float32)))
        model.joint_p.weight.copy_(torch.from_numpy(a["joint_p"].T.astype(np.float32)))
    worst = 0.0
    for game in positions(20, seed=13):
        legal = game.legal_actions()
        d = Decision.of_view(game.view(game.to_move))
        pos = position_features(d)
        mov = move_features(d, legal, d.heuristic(legal))
        ours = net.logits(pos, mov)
        with torch.no_grad():
            theirs = model(
                torch.from_numpy(pos[None].astype(np.float32)),
                torch.from_numpy(mov[None].astype(np.float32)),
            )[0].numpy()
        worst = max(worst, float(np.max(np.abs(ours - theirs))))
    assert worst < 1e-5


def test_the_policy_level_plays_legal_moves_reproducibly_and_takes_sure_wins() -> None:
    for index, game in enumerate(positions(40, seed=14)):
        action = ask(PolicyBot(), game, Budget(), random.Random(index))
        assert game.is_legal(action)
        assert ask(PolicyBot(), game.clone(), Budget(), random.Random(index + 1)) == action
        hand = game.hands[game.to_move]
        if any(a.kind == PLAY and a.mask == hand for a in game.legal_actions()):
            assert action.mask == hand


@pytest.mark.parametrize(
    "settings",
    [
        replace(CURRENT, prior=1.0),
        replace(CURRENT, policy_expand=True),
        replace(CURRENT, policy_rollout=True),
    ],
    ids=["prior", "expand", "rollout"],
)
def test_the_search_with_the_policy_is_legal_and_reproducible(settings: object) -> None:
    assert isinstance(settings, type(CURRENT))
    for index, game in enumerate(positions(8, seed=15)):
        choices = {
            ask(SearchBot(settings=settings), game, Budget(iterations=40), random.Random(index))
            for _ in range(2)
        }
        assert len(choices) == 1
        assert game.is_legal(choices.pop())


def test_the_network_level_with_the_policy_prior_is_legal_and_reproducible() -> None:
    from odin_cards.odin.bots.lookahead import NetworkBot

    for index, game in enumerate(positions(12, seed=16)):
        choices = {
            ask(NetworkBot(after=2, policy_weight=0.05), game, Budget(), random.Random(index))
            for _ in range(2)
        }
        assert len(choices) == 1
        assert game.is_legal(choices.pop())

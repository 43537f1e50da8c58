"""The search bot: consistent samples, determinism given a seed, budgets."""

from __future__ import annotations

import random
import time

import pytest

from odin_cards.odin.bots import Budget, ask, make_bot
from odin_cards.odin.bots import search as search_module
from odin_cards.odin.bots.knowledge import Knowledge, cards_mask
from odin_cards.odin.bots.search import SearchBot
from odin_cards.odin.rules import Game, Options
from odin_cards.odin.rules.cards import GOAT
from odin_cards.odin.rules.position import HandSampler

from .positions import positions


def test_samples_never_hold_a_card_the_seat_knows_is_elsewhere() -> None:
    rng = random.Random(5)
    for game in positions(150, seed=11):
        view = game.view(game.to_move)
        k = Knowledge.of(view)
        sampler = HandSampler.of(view)
        out = cards_mask(view.table) | cards_mask(view.beaten) | cards_mask(view.discards)
        for _ in range(5):
            hands = sampler.draw(rng)
            assert [h.bit_count() for h in hands] == list(view.hand_sizes)
            assert hands[k.seat] == k.hand
            union = 0
            for seat, hand in enumerate(hands):
                assert not union & hand, "a card dealt twice"
                union |= hand
                assert hand & k.known[seat] == k.known[seat], "a known holding moved"
                assert not hand & out, "a played card came back"
                if seat != k.seat:
                    assert not hand & k.hand
                    elsewhere = sum(k.known[s] for s in range(k.players) if s != seat)
                    assert not hand & elsewhere & ~k.known[seat]
            if view.options.goat and k.unseen >> GOAT & 1:
                assert union >> GOAT & 1, "the Goat is always dealt"


def test_samples_cover_every_unseen_card() -> None:
    """Uniform sampling: every unseen card turns up in every other hand with free places."""
    game = Game.new(3, Options(goat=True), seed=2)
    view = game.view(game.to_move)
    k = Knowledge.of(view)
    sampler = HandSampler.of(view)
    rng = random.Random(0)
    seen_in = [0] * 3
    goat_in_hand = 0
    for _ in range(400):
        hands = sampler.draw(rng)
        for seat, hand in enumerate(hands):
            seen_in[seat] |= hand
        goat_in_hand += any(h >> GOAT & 1 for h in hands)
    for seat in range(3):
        if seat != k.seat:
            assert seen_in[seat] == k.unseen
    assert goat_in_hand == 400


def play_hand(seed: int, iterations: int) -> list[str]:
    game = Game.new(2, Options(one_hand=True), seed=seed)
    bots = [make_bot("search"), make_bot("heuristic")]
    rngs = [random.Random(1), random.Random(2)]
    moves = []
    while not game.is_over:
        seat = game.to_move
        action = ask(bots[seat], game, Budget(iterations=iterations), rngs[seat])
        moves.append(action.text)
        game.apply(action)
    return moves


def test_search_is_deterministic_given_the_seed() -> None:
    assert play_hand(3, 25) == play_hand(3, 25)


def test_iteration_budget_is_exact() -> None:
    game = next(positions(1, seed=4))
    view = game.view(game.to_move)
    root = search_module.search(view, random.Random(0), None, 40)
    assert sum(child.visits for child in root.children.values()) == 40


@pytest.mark.parametrize("seconds", [0.05, 0.2])
def test_time_budget_is_kept(seconds: float) -> None:
    game = Game.new(4, Options(), seed=9)
    start = time.perf_counter()
    action = ask(SearchBot(), game, Budget(seconds=seconds), random.Random(0))
    elapsed = time.perf_counter() - start
    assert action in game.legal_actions()
    # One iteration may finish after the deadline; a shared machine adds jitter.
    assert elapsed < seconds + 0.5


def test_trivial_decisions_do_not_search(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("searched a decision with one legal action")

    monkeypatch.setattr(search_module, "search", refuse)
    game = Game.new(2, Options(first_leader=0), seed=1)
    game.apply(game.legal_actions()[0])
    # Follow with a pair, then the take of a one-card set is forced.
    follow = next(a for a in game.legal_actions() if a.is_play)
    game.apply(follow)
    assert game.decision == "take" and len(game.legal_actions()) == 1
    action = ask(SearchBot(), game, Budget(seconds=100.0), random.Random(0))
    assert action == game.legal_actions()[0]

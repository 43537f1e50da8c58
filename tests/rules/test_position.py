"""Positions rebuilt from one seat's view: sampled hands agree with everything it knows."""

from __future__ import annotations

import math
import random

import pytest

from odin_cards.odin.rules import Game, Options, OptionsError
from odin_cards.odin.rules.cards import GOAT, cards_of
from odin_cards.odin.rules.position import HandSampler, sample_hands, unseen_mask

FIELDS = (
    "players",
    "scores",
    "known",
    "phase",
    "to_move",
    "table",
    "table_player",
    "beaten",
    "passes",
    "discards",
    "hand_number",
    "hand_leader",
    "removed",
    "options",
)


def random_positions(players: int, options: Options, count: int) -> list[Game]:
    rng = random.Random(players)
    positions = []
    for seed in range(count):
        game = Game.new(players, options, seed=seed)
        for _ in range(rng.randrange(300)):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if not game.is_over:
            positions.append(game)
    return positions


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, Options(colours=4, goat=True)), (4, Options()), (6, Options(goat=True))],
)
def test_sampled_positions_agree_with_the_view(players: int, options: Options) -> None:
    rng = random.Random(7)
    for game in random_positions(players, options, 120):
        seat = game.to_move
        view = game.view(seat)
        hands = sample_hands(view, rng)
        assert hands[seat] == game.hands[seat]
        assert [h.bit_count() for h in hands] == [h.bit_count() for h in game.hands]
        union = 0
        for other, hand in enumerate(hands):
            assert union & hand == 0, "a card dealt twice"
            union |= hand
            assert hand & game.known[other] == game.known[other]
            if other != seat:
                assert hand & ~game.known[other] & ~unseen_mask(view) == 0
        if options.goat:
            goat_out = game.discards | (game.table.mask if game.table else 0)
            goat_out |= game.beaten.mask if game.beaten else 0
            assert bool(union >> GOAT & 1) != bool(goat_out >> GOAT & 1)
        rebuilt = Game.from_view(view, hands, seed=1)
        for name in FIELDS:
            assert getattr(rebuilt, name) == getattr(game, name), name
        assert {a.id for a in rebuilt.legal_actions()} == {a.id for a in game.legal_actions()}


def position_with_known_cards(goat: bool) -> Game:
    """A 4-player position, mid-hand, in which some seat is known to hold a taken card."""
    rng = random.Random(3)
    for seed in range(100):
        game = Game.new(4, Options(goat=goat), seed=seed)
        for _ in range(40):
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            seat = game.to_move
            if game.is_over:
                break
            knows = any(k for s, k in enumerate(game.known) if s != seat)
            hidden_goat = bool(unseen_mask(game.view(seat)) >> GOAT & 1)
            if knows and hidden_goat == goat:
                return game
    raise AssertionError("no position with known cards")


@pytest.mark.parametrize("goat", [False, True])
def test_each_unseen_card_is_equally_likely_in_every_free_place(goat: bool) -> None:
    """Frequencies over many draws match the exact distribution within 5 standard deviations.

    Unseen cards other than the Goat fill the free places uniformly; an unseen Goat is
    always dealt, to a free place chosen uniformly. So a plain unseen card is in seat ``s``
    with probability ``free[s] / U`` (``U`` unseen cards), or ``free[s] (F - 1) / (F U)``
    when the Goat takes one of the ``F`` free places first.
    """
    game = position_with_known_cards(goat)
    seat = game.to_move
    view = game.view(seat)
    sampler = HandSampler.of(view)
    unseen = unseen_mask(view)
    goat_unseen = bool(unseen >> GOAT & 1)
    assert goat_unseen == goat  # the Goat is still in some hand in this position
    plain = [c for c in cards_of(unseen) if c != GOAT]
    free = [view.hand_sizes[s] - len(view.known[s]) if s != seat else 0 for s in range(4)]
    places = sum(free)
    draws = 3000
    counts = {(s, c): 0 for s in range(4) for c in [*plain, GOAT]}
    rng = random.Random(11)
    for _ in range(draws):
        hands = sampler.draw(rng)
        assert hands[seat] == game.hands[seat]
        assert [h.bit_count() for h in hands] == list(view.hand_sizes)
        for s, hand in enumerate(hands):
            assert hand & game.known[s] == game.known[s]
            for c in cards_of(hand & unseen):
                counts[s, c] += 1
    for s in range(4):
        if goat_unseen:
            p = free[s] * (places - 1) / (places * len(plain))
            p_goat = free[s] / places
            expected = draws * p_goat
            spread = 5 * math.sqrt(draws * p_goat * (1 - p_goat)) + 1
            assert abs(counts[s, GOAT] - expected) <= spread, (s, "X0")
        else:
            p = free[s] / len(plain)
        for c in plain:
            expected = draws * p
            spread = 5 * math.sqrt(draws * p * (1 - p)) + 1
            assert abs(counts[s, c] - expected) <= spread, (s, c, counts[s, c], expected)
    if goat_unseen:
        assert sum(counts[s, GOAT] for s in range(4)) == draws  # always dealt


def test_a_spectator_samples_every_hand() -> None:
    game = Game.new(3, Options(goat=True), seed=4)
    view = game.view(None)
    rng = random.Random(2)
    for _ in range(50):
        hands = sample_hands(view, rng)
        assert [h.bit_count() for h in hands] == [9, 9, 9]
        assert any(h >> GOAT & 1 for h in hands)  # the Goat is always dealt
        assert hands[0] & hands[1] == hands[0] & hands[2] == hands[1] & hands[2] == 0
        assert (hands[0] | hands[1] | hands[2]) & ~unseen_mask(view) == 0


def test_with_hands_keeps_the_position_and_refuses_other_sizes() -> None:
    game = position_with_known_cards(goat=True)
    view = game.view(game.to_move)
    hands = sample_hands(view, random.Random(1))
    other = game.with_hands(hands)
    assert other.view(game.to_move) == view and other.hands == hands
    assert other.history == game.history and game.with_hands(hands, history=False).history == []
    with pytest.raises(OptionsError):
        game.with_hands(hands[1:])
    with pytest.raises(OptionsError):
        game.with_hands([hands[0] | hands[1], *hands[1:]])

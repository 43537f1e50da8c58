"""The opponent model: what plays and passes reveal, and that it points at the true hands."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import statistics

import pytest

from odin_cards.odin.bots import Budget, HeuristicBot, ask
from odin_cards.odin.bots.compiled import prepare_replay
from odin_cards.odin.bots.inference import (
    LEAD_STEP,
    MIN_POOL,
    MODEL,
    PASS_STEP,
    ReplayModel,
    Step,
    hand_actions,
    hand_steps,
    true_deal_gain,
    weighted_deals,
)
from odin_cards.odin.rules import Deal, Game, Options, Pass, Play, Take, parse_action
from odin_cards.odin.rules.actions import PASS_ACTION
from odin_cards.odin.rules.cards import mask_of, mask_text, parse_card
from odin_cards.odin.rules.position import HandSampler

from .positions import positions


def m(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


def test_a_pass_that_could_have_beaten_the_table_is_less_likely() -> None:
    game = Game.new(2, Options(one_hand=True), seed=9)
    leader = game.to_move
    game.apply(min(game.legal_actions(), key=lambda a: a.value))
    game.apply(parse_action("pass"))
    steps = hand_steps(game.view(leader))
    assert [s.kind for s in steps] == [LEAD_STEP, PASS_STEP]
    # A pass on a 9: only a seat holding a pair could have beaten it.
    nine = (Step(LEAD_STEP, 0, m("G9"), 0, 0), Step(PASS_STEP, 1, 0, 1, 9))
    loose = MODEL.log_weight([m("B2"), m("B1 R2 P3")], nine, 0)
    pair = MODEL.log_weight([m("B2"), m("B1 B3 P3")], nine, 0)
    out = MODEL.log_weight([m("B2"), m("B1 B3")], nine, 0)
    assert loose == 0 > pair > out  # it could go out with B1 B3 and passed: least likely


def test_the_observers_own_actions_are_never_weighed() -> None:
    game = Game.new(2, Options(one_hand=True), seed=9)
    leader = game.to_move
    game.apply(game.legal_actions()[0])
    steps = hand_steps(game.view(1 - leader))
    assert steps and MODEL.log_weight(list(game.hands), steps, leader) == 0


def test_weighted_deals_are_consistent_with_the_view() -> None:
    rng = random.Random(2)
    for game in positions(30, seed=5):
        view = game.view(game.to_move)
        deals, cumulative = weighted_deals(view, rng, 16)
        assert len(deals) == len(cumulative) == 16
        assert all(b >= a for a, b in itertools.pairwise(cumulative))
        assert cumulative[-1] >= 1.0  # the most likely deal has weight 1
        sampler = HandSampler.of(view)
        for hands in deals:
            assert [h.bit_count() for h in hands] == list(view.hand_sizes)
            assert hands[game.to_move] == sampler.base[game.to_move]


def test_the_model_gives_the_true_hands_more_probability_than_uniform() -> None:
    rng = random.Random(3)
    gains = []
    for index in range(12):
        game = Game.new(2, Options(one_hand=True), seed=f"infer:{index}")
        bots = [HeuristicBot(), HeuristicBot()]
        step = 0
        while not game.is_over:
            seat = game.to_move
            if step % 3 == 0:
                gains.append(true_deal_gain(game.view(seat), game.hands, rng, 60))
            game.apply(ask(bots[seat], game, Budget(), random.Random(step)))
            step += 1
    assert statistics.mean(gains) > 0.1


def test_a_pool_out_of_time_stops_at_its_minimum() -> None:
    game = next(positions(1, seed=8))
    view = game.view(game.to_move)
    deals, cumulative = weighted_deals(view, random.Random(1), 128, until=0.0)
    assert len(deals) == len(cumulative) == MIN_POOL


def _heuristic_hand(players: int, seed: int, random_seat: int | None = None) -> Game:
    """A one-hand game part-way: heuristic players (``random_seat`` plays at random)."""
    game = Game.new(players, Options(one_hand=True), seed=seed)
    bot = HeuristicBot()
    rng = random.Random(seed)
    for _ in range(6 * players):
        legal = game.legal_actions()
        after = game.clone()
        if game.to_move == random_seat:
            after.apply(legal[rng.randrange(len(legal))])
        else:
            after.apply(ask(bot, game, Budget(), rng))
        if after.is_over:
            break
        game = after
    return game


@pytest.mark.skipif(not prepare_replay(), reason="the replay model needs numba (research extra)")
def test_heuristic_players_make_every_choice_a_hit_of_the_replay_model() -> None:
    """The true deal of a hand played by heuristics: each other seat's choice (more than
    one legal move) is the heuristic's, so its log-weight is hits times log(1 - miss)."""
    model = ReplayModel(miss=0.3)
    for seed in range(4):
        game = _heuristic_hand(3, seed)
        seat = game.to_move
        actions, seats = hand_actions(game.view(seat))
        assert len(actions) == len(seats) >= 6 and set(seats) == {0, 1, 2}
        choices = _choices_of_others(game, seat)
        [weight] = model.weigher(game.view(seat))([list(game.hands)])
        assert weight == pytest.approx(choices * math.log(0.7))


def _choices_of_others(game: Game, seat: int) -> int:
    """How many of the other seats' decisions this hand had more than one legal move."""
    options = dataclasses.replace(game.options, first_leader=game.hand_leader)
    replay = Game.new(game.players, options, seed=0, deals=[_dealt(game)])
    choices = 0
    for event in game.history[1:]:
        if not isinstance(event, (Play, Pass, Take)):
            continue
        if replay.to_move != seat and len(replay.legal_actions()) > 1:
            choices += 1
        replay.apply_unchecked(event.action if not isinstance(event, Pass) else PASS_ACTION)
    return choices


def _dealt(game: Game) -> list[list[str]]:
    deal = next(e for e in game.history if isinstance(e, Deal))
    return [mask_text(hand).split() for hand in deal.hands]


@pytest.mark.skipif(not prepare_replay(), reason="the replay model needs numba (research extra)")
def test_a_random_player_is_found_less_likely_than_a_heuristic_one() -> None:
    """Against a seat that played at random, the true deal misses the heuristic's move."""
    model = ReplayModel(miss=0.3)
    hits = misses = 0
    for seed in range(6):
        game = _heuristic_hand(2, seed, random_seat=1)
        seat = 0 if game.to_move == 0 else game.to_move
        if seat != 0:
            continue
        [weight] = model.weigher(game.view(0))([list(game.hands)])
        choices = _choices_of_others(game, 0)
        if choices:
            hits += 1
            misses += weight < choices * math.log(0.7) - 1e-9
    assert hits and misses == hits

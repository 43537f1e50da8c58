"""The JAX environment against the engine: the same games side by side, compared each step.

As the batch simulator's test (``lockstep.py``): every player count and rule option, the
engine's deals given to the JAX games, half the choices uniform and half the highest id.
Asserted at every step, for every game: the legal-action mask, every seat's observation
(equal to the environments' encoder of that seat's view), the seat to move, the rewards
of both kinds, the end of a hand and the game's end; at the end the scores.

One batch holds every variant (the player count is data in the state), so each jitted
function compiles once per batch size: once for the quick tests (36 games each), once more
for the slow one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from odin_cards.odin.env.observation import FIELDS, encode
from odin_cards.odin.rules import CARD_TEXT, Game, HandEnd, Options
from odin_cards.odin.rules.view import make_view

from .lockstep import VARIANTS

try:
    import jax

    from odin_cards.odin import jax as odin_jax
    from odin_cards.odin.jax.tables import masks_to_words
except ImportError:  # make test installs the jax extra; CI fails these skips (jax mark)
    HAVE_JAX = False
else:
    HAVE_JAX = True

pytestmark = [
    pytest.mark.jax,
    pytest.mark.skipif(not HAVE_JAX, reason="jax is not installed (the jax extra)"),
]

Fns = dict[str, Callable[..., Any]]


@pytest.fixture(scope="module")
def fns() -> Fns:
    """The batched, jitted functions (compiled on their first call, once per batch size)."""
    jnp = jax.numpy

    def look(states: odin_jax.State) -> tuple[Any, Any]:
        masks = jax.vmap(odin_jax.legal_action_mask)(states)
        seats = jnp.arange(odin_jax.SEATS)
        seen = jax.vmap(jax.vmap(odin_jax.observe, in_axes=(None, 0)), in_axes=(0, None))
        return masks, seen(states, seats)

    def redeal(states: odin_jax.State, hands: Any, which: Any) -> odin_jax.State:
        dealt = jax.vmap(odin_jax.redeal)(states, hands)
        chosen: odin_jax.State = jax.tree.map(
            lambda a, b: jnp.where(which.reshape((-1,) + (1,) * (a.ndim - 1)), a, b),
            dealt,
            states,
        )
        return chosen

    return {
        "look": jax.jit(look),
        "step": jax.jit(jax.vmap(odin_jax.step)),
        "redeal": jax.jit(redeal),
    }


def _stack(states: Sequence[odin_jax.State]) -> odin_jax.State:
    stacked: odin_jax.State = jax.tree.map(lambda *rows: jax.numpy.stack(rows), *states)
    return stacked


def _engine_rewards(game: Game, events: list[Any], hand: bool) -> np.ndarray:
    """What the environments' ``Table.play`` gives each seat (``float32[6]``)."""
    rewards = np.zeros(odin_jax.SEATS, np.float64)
    for event in events:
        if hand and isinstance(event, HandEnd):
            rewards[: game.players] -= event.points
    if not hand and game.outcome is not None:
        for seat in game.outcome.winners:
            rewards[seat] += 1.0 / len(game.outcome.winners)
    return rewards.astype(np.float32)


def _differ(seen: np.ndarray, expected: np.ndarray) -> dict[str, tuple[Any, Any]]:
    """The observation fields that differ, with both values (the assertion's message)."""
    return {
        f.name: (seen[f.start : f.stop].tolist(), expected[f.start : f.stop].tolist())
        for f in FIELDS
        if not np.array_equal(seen[f.start : f.stop], expected[f.start : f.stop])
    }


def _assert_illegal_ids_change_nothing(states: odin_jax.State, fns: Fns) -> None:
    """Each game given its lowest illegal id: refused, flagged, nothing else changed."""
    masks, _ = fns["look"](states)
    wrong = np.argmin(np.asarray(masks), axis=1).astype(np.int32)
    refused = fns["step"](states, wrong)
    assert np.asarray(refused.illegal).all()
    assert not np.asarray(refused.rewards).any() and not np.asarray(refused.hand_ended).any()
    for name in odin_jax.State._fields:
        if name not in ("illegal", "rewards", "hand_ended"):
            assert np.array_equal(getattr(refused, name), getattr(states, name)), name


def play_lockstep(games: list[Game], rng: random.Random, fns: Fns) -> int:
    """Play the engine ``games`` and their JAX copies to the end; return the actions played."""
    count = len(games)
    hand_rewards = [i % 2 == 1 for i in range(count)]
    keys = jax.random.split(jax.random.PRNGKey(rng.randrange(1 << 30)), count)
    states = _stack(
        [
            odin_jax.from_game(g, keys[i], "hand" if hand_rewards[i] else "game")
            for i, g in enumerate(games)
        ]
    )
    _assert_illegal_ids_change_nothing(states, fns)
    played = 0
    while True:
        masks, observations = (np.asarray(a) for a in fns["look"](states))
        to_move = np.asarray(states.to_move)
        actions = np.zeros(count, np.int32)
        for i, game in enumerate(games):
            for seat in range(game.players):
                expected = encode(make_view(game, seat, history=False))
                seen = observations[i, seat]
                assert np.array_equal(seen, expected), (i, seat, game.seed, _differ(seen, expected))
            if game.is_over:
                assert not masks[i].any() and to_move[i] == -1
                continue
            legal = game.legal_action_ids()
            assert np.flatnonzero(masks[i]).tolist() == legal, (i, game.seed, game.action_count)
            assert to_move[i] == game.to_move
            actions[i] = legal[-1] if rng.random() < 0.5 else legal[rng.randrange(len(legal))]
        if all(g.is_over for g in games):
            break
        hand_numbers = [g.hand_number for g in games]
        states = fns["step"](states, actions)
        rewards = np.asarray(states.rewards)
        ended = np.asarray(states.hand_ended)
        terminated = np.asarray(states.terminated)
        illegal = np.asarray(states.illegal)
        redeal = np.zeros(count, np.bool_)
        hands = np.zeros((count, odin_jax.SEATS, 2), np.uint32)
        for i, game in enumerate(games):
            if game.is_over:
                assert illegal[i] and terminated[i] and not rewards[i].any()
                continue
            events = game.apply(int(actions[i]))
            played += 1
            assert not illegal[i]
            assert ended[i] == (game.hand_number != hand_numbers[i])
            assert terminated[i] == game.is_over
            assert np.array_equal(rewards[i], _engine_rewards(game, events, hand_rewards[i]))
            if ended[i] and not game.is_over:
                redeal[i] = True
                players = [game.hand(s) for s in range(game.players)]
                hands[i] = masks_to_words(players + [0] * (odin_jax.SEATS - game.players))
        if redeal.any():
            states = fns["redeal"](states, hands, redeal)
    scores = np.asarray(states.scores)
    for i, game in enumerate(games):
        assert game.outcome is not None
        assert tuple(scores[i, : game.players]) == game.outcome.scores
        assert int(states.hand_number[i]) == game.outcome.hands_played
    return played


def _variant_games(seeds: range) -> list[Game]:
    return [
        Game.new(players, options, seed=f"jax:{index}:{seed}")
        for index, (players, options) in enumerate(VARIANTS)
        for seed in seeds
    ]


def test_same_games_as_the_engine(fns: Fns) -> None:
    games = _variant_games(range(3))
    assert {g.players for g in games} == {2, 3, 4, 5, 6}
    assert play_lockstep(games, random.Random(1), fns) > 1000


@pytest.mark.slow
def test_same_games_as_the_engine_long(fns: Fns) -> None:
    games = _variant_games(range(100, 106))
    assert play_lockstep(games, random.Random(2), fns) > 1500


def _number_deal(goat: bool) -> list[list[str]]:
    """Six players, each dealt all six cards of one number (5 to 9, then 1) and three more:
    six-card number sets, beaten by six of a higher number (uniform play almost never)."""
    rest = [c for c in CARD_TEXT[:54] if c[1] in "234"]
    hands = [
        [colour + number for colour in "BRPGKO"] + rest[3 * seat : 3 * seat + 3]
        for seat, number in enumerate("567891")
    ]
    if goat:
        hands[2][-1] = "X0"
    return hands


def test_six_card_number_sets(fns: Fns) -> None:
    games = [
        Game.new(6, Options(goat=goat, one_hand=True, first_leader=0), seed=seed, deals=[deal])
        for goat in (False, True)
        for deal in [_number_deal(goat)]
        for seed in range(18)  # 36 games: the batch size of the test above, compiled once
    ]
    assert play_lockstep(games, random.Random(7), fns) > 0


def test_the_jax_random_play_deals_whole_decks_and_ends_games() -> None:
    """The JAX deals (not compared with the engine's, which come from another generator):
    nine cards a seat from the game's deck, the Goat always dealt, no card twice."""
    jnp = jax.numpy
    options = Options(colours=4, goat=True, target=10)
    keys = jax.random.split(jax.random.PRNGKey(5), 64)
    states = jax.jit(jax.vmap(lambda k: odin_jax.init(k, 2, options)))(keys)
    hands = np.asarray(states.hands)
    deck = np.asarray(states.deck)
    for i in range(64):
        masks = [int(h[0]) | int(h[1]) << 32 for h in hands[i]]
        whole = int(deck[i, 0]) | int(deck[i, 1]) << 32
        assert [m.bit_count() for m in masks] == [9, 9, 0, 0, 0, 0]
        assert masks[0] & masks[1] == 0 and (masks[0] | masks[1]) & ~whole == 0
        assert (masks[0] | masks[1]) >> 54 & 1 and whole.bit_count() == 37
    mask = jax.vmap(odin_jax.legal_action_mask)(states)[0]
    draws = jax.random.split(jax.random.PRNGKey(8), 9000)
    picks = np.asarray(jax.jit(jax.vmap(odin_jax.random_action, in_axes=(0, None)))(draws, mask))
    legal = np.flatnonzero(np.asarray(mask))
    assert np.isin(picks, legal).all()
    counts = np.bincount(np.searchsorted(legal, picks), minlength=len(legal))
    assert len(legal) == 9 and counts.min() > 850 and counts.max() < 1150  # 1,000 expected
    run = jax.jit(lambda k, s: odin_jax.random_play(k, s, 400, 2, options))
    states, applied = run(jax.random.PRNGKey(6), states)
    assert int(applied) == 64 * 400
    assert not bool(jnp.any(states.illegal))


def test_observed_fractions_are_numpys_to_the_last_bit() -> None:
    """Scores over the target, hand sizes over 9, 1 over the target: every fraction an
    observation holds (targets 1 to 1000, scores up to target + 13) is the nearest
    float32, as the NumPy encoder divides (XLA's own division may be one ulp away)."""
    from odin_cards.odin.jax.env import exact_ratio

    targets = np.arange(1, 1001, dtype=np.int32)
    scores = np.arange(0, 1014, dtype=np.int32)
    got = np.asarray(jax.jit(jax.vmap(exact_ratio, in_axes=(None, 0)))(scores, targets))
    expected = (scores[None, :] / targets[:, None]).astype(np.float32)
    assert np.array_equal(got, expected)

"""The batch API, on both backends: the compiled kernels and the engine fallback."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from odin_cards.odin.rules import Game, Options
from odin_cards.odin.sim import HAVE_NUMBA, Batch, Deals, EngineBatch, SimError, random_rollouts
from odin_cards.odin.sim.batch import MAX_GAMES, MAX_TARGET

from .lockstep import VARIANTS, Tally, play_lockstep

Backend = type[Batch | EngineBatch]


@pytest.fixture(params=["compiled", "engine"])
def backend(request: pytest.FixtureRequest) -> Backend:
    if request.param == "compiled":
        if not HAVE_NUMBA:
            pytest.skip("numba is not installed (research extra)")
        return Batch
    return EngineBatch


def _positions(count: int, seed: int) -> list[Game]:
    """Engine positions from random games: every decision, several player counts."""
    rng = random.Random(seed)
    positions = []
    for n in range(count):
        game = Game.new(2 + n % 5, Options(goat=n % 2 == 1), seed=n)
        for _ in range(rng.randrange(60)):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if not game.is_over:
            positions.append(game)
    return positions


def test_positions_copied_from_the_engine(backend: Backend) -> None:
    positions = _positions(40, 3)
    batch = backend.from_games(positions)
    mask = batch.legal_mask()
    ids, counts = batch.legal_ids()
    for i, game in enumerate(positions):
        legal = game.legal_action_ids()
        assert batch.legal_list(i) == legal
        assert list(np.flatnonzero(mask[i])) == legal
        assert list(ids[i, : counts[i]]) == legal
        assert batch.to_move[i] == game.to_move
        assert batch.hands(i) == tuple(game.hand(s) for s in range(game.players))


def test_engine_fallback_plays_the_engines_games() -> None:
    tally = Tally()
    for players, options in VARIANTS[:6]:
        play_lockstep(players, options, range(3), random.Random(1), tally, backend=EngineBatch)
    assert tally.games == 18


def _snapshot(batch: Batch | EngineBatch) -> list[npt.NDArray[Any]]:
    return [batch.legal_mask(), batch.to_move, batch.scores, np.array(batch.hands(1))]


def test_a_refused_step_changes_nothing(backend: Backend) -> None:
    batch = backend.new(3, players=3, seed=5)
    before = _snapshot(batch)
    legal = batch.legal_ids()[0][:, 0]
    for actions in (
        np.array([legal[0], 1, legal[2]]),  # take with nothing beaten
        np.array([legal[0], -1, legal[2]]),  # a game to move must move
        np.array([legal[0], legal[1], 6702]),
        np.array([legal[0], legal[1]]),
        np.array([0.5, 1.0, 2.0]),
    ):
        with pytest.raises(SimError):
            batch.step(actions)
        after = _snapshot(batch)
        assert all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))
    batch.step(legal)
    assert not np.array_equal(batch.legal_mask(), before[0])


def test_random_play_finishes_games(backend: Backend) -> None:
    batch = backend.new(6, players=4, options=Options(target=10), seed=2)
    while not batch.over.all():
        batch.random_play(50, restart=False)
    scores = batch.scores[:, :4]
    winners = batch.winners
    assert (scores.max(axis=1) >= 10).all()
    assert (winners[:, :4] == (scores == scores.min(axis=1, keepdims=True))).all()
    assert not winners[:, 4:].any()
    assert (batch.to_move == -1).all() and not batch.legal_mask().any()
    assert batch.random_play(5, restart=False) == 0
    assert batch.random_play(1) == 6  # restarted, and one action each
    assert (batch.scores == 0).all()


def test_given_deals(backend: Backend) -> None:
    batch = backend.new(2, players=2, options=Options(goat=True), seed=1, deals="given")
    assert batch.waiting_for_deal.all() and not batch.legal_mask().any()
    with pytest.raises(SimError):
        batch.step(np.array([0, 0]))
    blue, red = 511, 511 << 9
    goat = 1 << 54
    bad_deals: list[Any] = [
        [blue],  # one hand for two seats
        [blue, blue],  # dealt twice
        [blue, red],  # no Goat
        [(blue & ~1) | 1 << 60, (red & ~(1 << 9)) | goat],  # outside the deck
        [blue & ~1, red | goat],  # 8 and 10 cards
        [blue, True],  # not a mask
        [blue, -5],
        "ab",
    ]
    for bad in bad_deals:
        with pytest.raises(SimError):
            batch.deal(0, bad)
        assert batch.waiting_for_deal[0]
    batch.deal(0, np.array([blue, (red & ~(1 << 9)) | goat]))  # NumPy integers do
    assert not batch.waiting_for_deal[0] and batch.waiting_for_deal[1]
    assert batch.hands(0) == (blue, (red & ~(1 << 9)) | goat)
    assert batch.legal_list(1) == []
    with pytest.raises(SimError):
        batch.deal(0, [blue, red])  # no longer waiting


@pytest.mark.parametrize("compiled", [True, False])
def test_rollouts_score_the_rest_of_the_hand(compiled: bool) -> None:
    if compiled and not HAVE_NUMBA:
        pytest.skip("numba is not installed (research extra)")
    positions = _positions(12, 9)
    points = random_rollouts(positions, 20, seed=4, compiled=compiled)
    assert points.shape == (len(positions), 20, 6)
    for p, game in enumerate(positions):
        seats = points[p, :, : game.players]
        assert (seats.min(axis=1) == 0).all()  # whoever ended the hand holds nothing
        assert (points[p, :, game.players :] == 0).all()
        # no seat scores more than it holds now plus the cards it could still take
        assert (seats <= 9 + 4).all()
    with pytest.raises(SimError):
        random_rollouts(positions, 0)


def test_without_numba_the_engine_serves() -> None:
    code = (
        "from odin_cards.odin.sim import HAVE_NUMBA, EngineBatch, SimError, make_batch\n"
        "assert not HAVE_NUMBA\n"
        "batch = make_batch(3, players=5, seed=1)\n"
        "assert isinstance(batch, EngineBatch)\n"
        "assert batch.random_play(40) == 120\n"
        "try:\n"
        "    make_batch(3, compiled=True)\n"
        "except SimError as error:\n"
        "    print(error)\n"
    )
    env = {**os.environ, "ODIN_SIM_NO_NUMBA": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert 'pip install "odin-cards[research]"' in done.stdout


def test_sampled_actions_are_legal(backend: Backend) -> None:
    batch = backend.new(20, players=5, options=Options(target=8), seed=8)
    for _ in range(300):
        actions = batch.sample_legal()
        mask = batch.legal_mask()
        assert ((actions >= 0) == batch.needs_action).all()
        assert all(mask[i, a] for i, a in enumerate(actions) if a >= 0)
        batch.step(actions)


@pytest.mark.parametrize(
    ("games", "players", "options", "seed", "deals"),
    [
        (0, 4, Options(), 0, "own"),
        (MAX_GAMES + 1, 4, Options(), 0, "own"),
        (True, 4, Options(), 0, "own"),
        (2, 7, Options(), 0, "own"),
        (2, 3, Options(colours=4), 0, "own"),
        (2, 4, Options(target=MAX_TARGET + 1), 0, "own"),
        (2, 4, Options(), 1.5, "own"),
        (2, 4, Options(), 0, "later"),
        (2, 4, {"target": 10}, 0, "own"),
    ],
)
def test_set_ups_refused_in_one_line(
    backend: Backend, games: int, players: int, options: Options, seed: int, deals: Deals
) -> None:
    with pytest.raises(SimError) as refused:
        backend.new(games, players, options, seed, deals)
    assert "\n" not in str(refused.value)


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba is not installed (research extra)")
def test_repeated_copies_each_position_with_its_own_generator() -> None:
    positions = _positions(5, 2)
    batch = Batch.from_games(positions).repeated(3, seed=1)
    assert len(batch) == 3 * len(positions)
    for i, game in enumerate(positions):
        for copy in range(3):
            assert batch.legal_list(3 * i + copy) == game.legal_action_ids()
    assert len({tuple(row) for row in batch.state[6].tolist()}) == len(batch)
    with pytest.raises(SimError):
        batch.repeated(MAX_GAMES)


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba is not installed (research extra)")
def test_a_position_with_an_impossible_hand_is_refused() -> None:
    """The kernels' buffers hold the legal actions of 9 cards; a bigger hand never gets in."""
    game = Game.new(2, seed=1)
    crooked = game.clone()
    crooked.hands[0] |= crooked.hands[1]  # 18 cards
    with pytest.raises(SimError):
        Batch.from_games([game, crooked])


def test_a_game_depends_on_its_seed_alone(backend: Backend) -> None:
    together = backend.new(3, players=3, seeds=[5, 6, 7])
    alone = backend.new(1, players=3, seed=6)
    assert together.hands(1) == alone.hands(0)
    for _ in range(30):
        together.random_play(1)
        alone.random_play(1)
        assert together.legal_list(1) == alone.legal_list(0)
        assert together.hands(1) == alone.hands(0)
    assert together.hands(0) != together.hands(1)
    with pytest.raises(SimError):
        backend.new(3, seeds=[1, 2])


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba is not installed (research extra)")
def test_compiled_rollouts_are_seeded_and_play_like_the_engines() -> None:
    """Uniform play-outs from one position: the same seed gives the same points, and the
    compiled ones score like the engine's (means over 3,000 play-outs each)."""
    [position] = _positions(1, 21)[:1]
    compiled = random_rollouts([position], 3000, seed=1, compiled=True)
    assert np.array_equal(compiled, random_rollouts([position], 3000, seed=1, compiled=True))
    assert not np.array_equal(compiled, random_rollouts([position], 3000, seed=2, compiled=True))
    engine = random_rollouts([position], 3000, seed=1, compiled=False)
    players = position.players
    means = compiled[0, :, :players].mean(axis=0), engine[0, :, :players].mean(axis=0)
    spread = engine[0, :, :players].std(axis=0) / np.sqrt(3000)
    assert (np.abs(means[0] - means[1]) < 5 * spread + 0.05).all(), means


def test_games_are_named_by_whole_numbers_in_range(backend: Backend) -> None:
    batch = backend.new(3, players=2, seed=4)
    assert batch.legal_list(np.int64(2)) == batch.legal_list(2)
    bad_indexes: list[Any] = [3, -1, True, 1.0, "0"]
    for bad in bad_indexes:
        with pytest.raises(SimError, match="there is no game"):
            batch.hands(bad)


def _deals_played(
    batch: Batch | EngineBatch, steps: int, draws: int
) -> list[list[tuple[int, ...]]]:
    """Every game's hands at each hand's start (games restarting as they end), the games
    moved by a fixed rule (the lowest legal id) while ``draws`` samples are drawn (and
    thrown away) before every step, some for all games, some for game 0 alone."""
    seen = [[batch.hands(i)] for i in range(len(batch))]
    only_first = np.arange(len(batch)) == 0
    for _ in range(steps):
        for draw in range(draws):
            batch.sample_legal(only_first if draw % 2 else None)
        ids, counts = batch.legal_ids()
        ended = batch.step(np.where(counts > 0, ids[:, 0], -1).astype(np.int64))
        over = batch.over
        batch.reset(over)
        for i in np.flatnonzero(ended | over):
            seen[i].append(batch.hands(i))
    return seen


def test_deals_never_depend_on_sampling(backend: Backend) -> None:
    """Sampling actions (for one game or all) draws from another generator than the deals:
    every game is dealt the same hands whether or not, and however much, it or another
    game sampled."""
    quiet = _deals_played(backend.new(4, players=3, options=Options(target=8), seed=9), 300, 0)
    for draws in (1, 3):
        busy = _deals_played(
            backend.new(4, players=3, options=Options(target=8), seed=9), 300, draws
        )
        assert busy == quiet
    assert sum(len(hands) for hands in quiet) > 12  # hands and games ended and were dealt again

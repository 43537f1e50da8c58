"""Engine speed figures: applied actions, legal-action generation and whole games per second.

Each figure is measured on one core for a fixed wall-clock budget, with random play
driven through the public API: ``legal_actions()`` and the validating ``apply()``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from .rules import Game, Options


@dataclass(frozen=True)
class BenchResult:
    players: int
    actions_per_second: float
    """Random play through whole games: legal-action generation plus validated apply."""
    unchecked_actions_per_second: float
    """The same with ``apply_unchecked`` (what simulations inside bots use)."""
    legal_per_second: float
    """``legal_actions()`` calls on positions sampled from random games."""
    games_per_second: float
    actions_per_game: float


def _play(players: int, seconds: float, checked: bool, seed: int) -> tuple[int, int, float]:
    rng = random.Random(seed)
    options = Options()
    actions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        game = Game.new(players, options, seed=f"bench:{seed}:{games}")
        apply = game.apply if checked else game.apply_unchecked
        while not game.is_over:
            legal = game.legal_actions()
            apply(legal[rng.randrange(len(legal))])
            actions += 1
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return actions, games, now - start


def _positions(players: int, count: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    positions: list[Game] = []
    games = 0
    while len(positions) < count:
        game = Game.new(players, seed=f"positions:{seed}:{games}")
        games += 1
        while not game.is_over and len(positions) < count:
            positions.append(game.clone(history=False))
            legal = game.legal_actions()
            game.apply_unchecked(legal[rng.randrange(len(legal))])
    return positions


def _legal_rate(players: int, seconds: float, seed: int) -> float:
    positions = _positions(players, 5000, seed)
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for position in positions:
            position.legal_actions()
        calls += len(positions)
        now = time.perf_counter()
        if now >= deadline:
            return calls / (now - start)


def run_bench(players: int, seconds: float = 2.0, seed: int = 1) -> BenchResult:
    actions, games, elapsed = _play(players, seconds, checked=True, seed=seed)
    unchecked, _, unchecked_elapsed = _play(players, seconds, checked=False, seed=seed)
    return BenchResult(
        players=players,
        actions_per_second=actions / elapsed,
        unchecked_actions_per_second=unchecked / unchecked_elapsed,
        legal_per_second=_legal_rate(players, seconds, seed),
        games_per_second=games / elapsed,
        actions_per_game=actions / games,
    )

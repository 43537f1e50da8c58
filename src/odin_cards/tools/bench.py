"""Speed figures of any game's engine, measured through the game contract.

Each figure is measured on one core for a fixed wall-clock budget, with random play (a
uniform choice among the legal actions), through the contract: ``legal_actions()`` and
the validating ``apply()``. A game whose state also offers ``apply_unchecked(action)``
(Odin's, what the simulations inside its bots use) gets that figure too. A game's
research figures (its learning environments, a batch simulator) are its own, named by
its plugin (``environments["bench"]``: Odin's :mod:`odin_cards.odin.sim.bench`).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from odin_cards.contract import GameRules, GameState


@dataclass(frozen=True)
class BenchResult:
    players: int
    actions_per_second: float
    """Random play through whole games: legal-action generation plus validated apply."""
    unchecked_actions_per_second: float | None
    """The same with ``apply_unchecked``, where the game has it (``None``: it has not)."""
    legal_per_second: float
    """``legal_actions()`` calls on positions sampled from random games."""
    games_per_second: float
    actions_per_game: float


def _play(
    rules: GameRules, players: int, seconds: float, checked: bool, seed: int
) -> tuple[int, int, float]:
    rng = random.Random(seed)
    actions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        game = rules.new_game(players, {}, seed=f"bench:{seed}:{games}")
        apply = game.apply if checked else game.apply_unchecked  # type: ignore[attr-defined]
        while not game.is_over:
            legal = game.legal_actions()
            apply(legal[rng.randrange(len(legal))])
            actions += 1
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return actions, games, now - start


def _positions(rules: GameRules, players: int, count: int, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    positions: list[GameState] = []
    games = 0
    while len(positions) < count:
        game = rules.new_game(players, {}, seed=f"positions:{seed}:{games}")
        games += 1
        while not game.is_over and len(positions) < count:
            positions.append(game.clone())
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    return positions


def _legal_rate(rules: GameRules, players: int, seconds: float, seed: int) -> float:
    positions = _positions(rules, players, 5000, seed)
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


def has_unchecked(rules: GameRules, players: int) -> bool:
    """Whether the game's state offers ``apply_unchecked`` (a fast path for simulations)."""
    return callable(getattr(rules.new_game(players, {}, seed="probe"), "apply_unchecked", None))


def run_bench(rules: GameRules, players: int, seconds: float = 2.0, seed: int = 1) -> BenchResult:
    """The engine's figures for ``players`` (each measured for ``seconds``)."""
    actions, games, elapsed = _play(rules, players, seconds, checked=True, seed=seed)
    unchecked_rate = None
    if has_unchecked(rules, players):
        unchecked, _, unchecked_elapsed = _play(rules, players, seconds, False, seed)
        unchecked_rate = unchecked / unchecked_elapsed
    return BenchResult(
        players=players,
        actions_per_second=actions / elapsed,
        unchecked_actions_per_second=unchecked_rate,
        legal_per_second=_legal_rate(rules, players, seconds, seed),
        games_per_second=games / elapsed,
        actions_per_game=actions / games,
    )

"""Random play: many whole games driven by a seeded uniform choice among legal actions.

Used by ``odin simulate`` (a quick health check of the engine and a summary of what
Odin games look like) and by the benchmark.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from .rules import Game, HandEnd, Options, RoundEnd


def random_game(players: int, options: Options, seed: int | str, rng: random.Random) -> Game:
    """Play one whole game with uniformly random legal actions."""
    game = Game.new(players, options, seed)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply_unchecked(legal[rng.randrange(len(legal))])
    return game


@dataclass
class Summary:
    """Totals over simulated games."""

    players: int
    games: int = 0
    hands: int = 0
    rounds: int = 0
    actions: int = 0
    points: list[int] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)

    def add(self, game: Game) -> None:
        outcome = game.outcome
        assert outcome is not None
        if not self.points:
            self.points = [0] * self.players
            self.wins = [0.0] * self.players
        self.games += 1
        self.hands += outcome.hands_played
        self.rounds += sum(isinstance(e, RoundEnd | HandEnd) for e in game.history)
        self.actions += game.action_count
        for seat, points in enumerate(outcome.scores):
            self.points[seat] += points
        for seat in outcome.winners:
            self.wins[seat] += 1 / len(outcome.winners)

    @property
    def hands_per_game(self) -> float:
        return self.hands / self.games if self.games else 0.0

    @property
    def rounds_per_hand(self) -> float:
        return self.rounds / self.hands if self.hands else 0.0

    @property
    def mean_points(self) -> float:
        """Mean final points of one seat in one game."""
        return sum(self.points) / (self.games * self.players) if self.games else 0.0


def simulate(
    players: int,
    games: int,
    seed: int,
    options: Options,
    progress: Callable[[Game], None] | None = None,
) -> tuple[Summary, Game | None]:
    """Play ``games`` random games; return the summary and the first game played."""
    rng = random.Random(f"odin-simulate:{seed}")
    summary = Summary(players)
    first: Game | None = None
    for index in range(games):
        game = random_game(players, options, f"{seed}:{index}", rng)
        summary.add(game)
        if first is None:
            first = game
        if progress is not None:
            progress(game)
    return summary, first

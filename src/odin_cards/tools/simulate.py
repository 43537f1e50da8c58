"""Simulation: many whole games of any game, random or by one bot level in every seat.

Used by ``odin simulate`` (a quick health check of a game's engine and a summary of what
its games look like: how long, how balanced between the seats and the places in the order
of play) and by the tests. Every game goes through the contract
(:mod:`odin_cards.contract`) and its plugin's bots only.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from odin_cards.contract import GameRules, GameState
from odin_cards.games import rules_of
from odin_cards.tools.arena.entrants import ArenaError, make_entrant
from odin_cards.tools.arena.runner import hands_played, order_facts


class UnfinishedGameError(RuntimeError):
    """A game that did not end within its action limit (a rules or bot bug, never a result)."""


def random_game(
    rules: GameRules,
    players: int,
    setup: Mapping[str, Any],
    seed: int | str,
    rng: random.Random,
    max_actions: int = 100_000,
) -> GameState:
    """Play one whole game with uniformly random legal actions."""
    game = rules.new_game(players, setup, seed)
    while not game.is_over:
        if game.action_count >= max_actions:
            raise UnfinishedGameError(f"game {seed!r} not over after {max_actions} actions")
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


@dataclass
class GameTotals:
    """Totals over finished games of any game: scores and victories by seat and by place in
    the order of play (0: the player who began), lengths in actions (and turns and hands,
    where the game counts them)."""

    players: int
    games: int = 0
    actions: int = 0
    scores: list[int] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)
    place_scores: list[int] = field(default_factory=list)
    place_wins: list[float] = field(default_factory=list)
    """By place in the order of play: 0 began, 1 was next, ..."""
    lengths: list[int] = field(default_factory=list)
    """Actions of each game, in the order played."""
    turns: list[int] = field(default_factory=list)
    """Turns of each game whose view counts them."""
    hands: list[int] = field(default_factory=list)
    """Hands of each game whose outcome counts them (Odin's)."""
    ordered: int = 0
    """Games whose view says who began (the places count only those)."""

    def add(self, game: GameState) -> None:
        outcome = game.outcome
        if outcome is None:
            raise ValueError("only a finished game has a result")
        first, turns = order_facts(game)
        self.add_result(
            outcome.scores, outcome.winners, game.action_count, first, turns, hands_played(outcome)
        )

    def add_result(
        self,
        scores: Sequence[int],
        winners: Sequence[int],
        actions: int,
        first: int | None = 0,
        turns: int | None = None,
        hands: int | None = None,
    ) -> None:
        if not self.scores:
            self.scores = [0] * self.players
            self.wins = [0.0] * self.players
            self.place_scores = [0] * self.players
            self.place_wins = [0.0] * self.players
        self.games += 1
        self.actions += actions
        self.lengths.append(actions)
        if turns is not None:
            self.turns.append(turns)
        if hands is not None:
            self.hands.append(hands)
        for seat, score in enumerate(scores):
            self.scores[seat] += score
        for seat in winners:
            self.wins[seat] += 1 / len(winners)
        if first is not None:
            self.ordered += 1
            for seat, score in enumerate(scores):
                self.place_scores[(seat - first) % self.players] += score
            for seat in winners:
                self.place_wins[(seat - first) % self.players] += 1 / len(winners)

    @property
    def mean_scores(self) -> list[float]:
        """Mean final score of each seat."""
        return [s / self.games for s in self.scores] if self.games else []

    @property
    def mean_place_scores(self) -> list[float]:
        """Mean final score of each place in the order of play."""
        return [s / self.ordered for s in self.place_scores] if self.ordered else []

    @property
    def mean_score(self) -> float:
        """Mean final score of one seat in one game."""
        return sum(self.scores) / (self.games * self.players) if self.games else 0.0

    @property
    def actions_per_game(self) -> float:
        return self.actions / self.games if self.games else 0.0

    @property
    def turns_per_game(self) -> float | None:
        return sum(self.turns) / len(self.turns) if self.turns else None

    @property
    def hands_per_game(self) -> float | None:
        return sum(self.hands) / len(self.hands) if self.hands else None


def simulate(
    rules: GameRules,
    players: int,
    setup: Mapping[str, Any],
    games: int,
    seed: int,
    progress: Callable[[GameState], None] | None = None,
    level: str | None = None,
) -> GameTotals:
    """Play ``games`` games of ``rules``, random or (``level``) by that bot in every seat;
    ``progress`` sees each finished game."""
    rng = random.Random(f"{rules.key}-simulate:{seed}")
    totals = GameTotals(players)
    for index in range(games):
        if level is None:
            game = random_game(rules, players, setup, f"{seed}:{index}", rng)
        else:
            game, _ = play_bots(rules.key, players, setup, f"{seed}:{index}", [level] * players)
        totals.add(game)
        if progress is not None:
            progress(game)
    return totals


@dataclass(frozen=True, slots=True)
class BotGame:
    """One whole game of any game played by bots (the levels of its game plugin)."""

    seed: str
    levels: tuple[str, ...]
    """The bot level of each seat."""
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    actions: int
    think_seconds: tuple[tuple[float, ...], ...]
    """Per seat, the time of each of its bot's decisions."""
    first_player: int | None = None
    turns: int | None = None
    record: dict[str, Any] | None = None
    """The game record, when asked for."""


class BotError(RuntimeError):
    """A bot that raised or chose an illegal action: a bot bug, reported with its game."""


def play_bots(
    key: str,
    players: int,
    setup: Mapping[str, Any],
    seed: str,
    levels: Sequence[str],
    max_actions: int = 20_000,
) -> tuple[GameState, list[list[float]]]:
    """Play one game of ``key`` with a bot of ``levels[seat]`` in every seat (each a level,
    with a budget if written: ``search:iterations=50``); the game and each seat's decision
    times.

    Each bot is a player of the game's plugin (the arena's), shown only its seat's view;
    its dice are seeded from the game's seed and its seat, so a game plays again the same
    way. An unknown level is a ``KeyError``.
    """
    rules = rules_of(key)
    try:
        seats = [make_entrant(level, key).player() for level in levels]
    except ArenaError as error:
        raise KeyError(f"{error} (the game {key!r})") from None
    game = rules.new_game(players, setup, seed)
    rngs = [random.Random(f"bots:{seed}:{seat}") for seat in range(players)]
    for player in seats:
        player.prepare()
    think: list[list[float]] = [[] for _ in range(players)]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        if game.action_count >= max_actions:
            raise UnfinishedGameError(f"game {seed!r} not over after {max_actions} actions")
        start = time.perf_counter()
        try:
            action = seats[seat].move(game, rngs[seat])
            think[seat].append(time.perf_counter() - start)
            game.apply(action, seat=seat)
        except ValueError as error:
            raise BotError(
                f"{levels[seat]} bot in seat {seat} of game {seed!r}, action"
                f" {game.action_count}: {error}"
            ) from error
    return game, think


def bot_game(
    key: str,
    players: int,
    setup: Mapping[str, Any],
    seed: str,
    levels: Sequence[str],
    keep_record: bool = False,
) -> BotGame:
    """One game of ``key`` played by bots (:func:`play_bots`), as its result."""
    game, think = play_bots(key, players, setup, seed, levels)
    outcome = game.outcome
    assert outcome is not None
    first, turns = order_facts(game)
    return BotGame(
        seed=seed,
        levels=tuple(levels),
        scores=tuple(outcome.scores),
        winners=tuple(outcome.winners),
        actions=game.action_count,
        think_seconds=tuple(tuple(t) for t in think),
        first_player=first,
        turns=turns,
        record=game.record().to_dict() if keep_record else None,
    )

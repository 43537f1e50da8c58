"""Engine and simulator side by side: the same games, the same choices, compared each step."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from odin_cards.odin.rules import Game, HandEnd, Options
from odin_cards.odin.sim import Batch, EngineBatch

VARIANTS: tuple[tuple[int, Options], ...] = (
    (2, Options()),
    (3, Options()),
    (4, Options()),
    (5, Options()),
    (6, Options()),
    (2, Options(colours=4, target=10)),
    (2, Options(colours=4, removal="any-two", goat=True)),
    (3, Options(goat=True, next_leader="winner", target=10)),
    (4, Options(one_hand=True, first_leader=2)),
    (5, Options(target=5, next_leader="winner", first_leader=0)),
    (6, Options(goat=True, target=20)),
    (4, Options(target=1, goat=True)),
)
"""Every player count and every rule option (each switched from its default somewhere)."""


@dataclass
class Tally:
    games: int = 0
    actions: int = 0
    hands: int = 0


def _last_hand_points(game: Game) -> tuple[int, ...]:
    for event in reversed(game.history):
        if isinstance(event, HandEnd):
            return event.points
    raise AssertionError("no hand has ended")


def play_lockstep(
    players: int,
    options: Options,
    seeds: Sequence[int],
    rng: random.Random,
    tally: Tally,
    deals: Sequence[Sequence[Sequence[str]]] | None = None,
    backend: type[Batch | EngineBatch] = Batch,
) -> None:
    """Play one engine game per seed and the same games in one simulator batch.

    The engine deals (from its seed, after any ``deals`` injected into every game); the
    simulator is given those deals. Half the choices are uniform among the engine's legal
    actions, half the highest id (the biggest set: finishing leads and long sets, which
    uniform play seldom reaches). Asserted at every step: the same seat to
    move and the same legal ids; at every hand's end: the same points; at the end: the
    same scores, winners and number of hands.
    """
    games = [Game.new(players, options, seed=seed, deals=deals) for seed in seeds]
    batch = backend.from_games(games, seed=seeds[0], deals="given")
    while not all(g.is_over for g in games):
        ids, counts = batch.legal_ids()
        to_move = batch.to_move
        actions = np.full(len(games), -1, np.int64)
        for i, game in enumerate(games):
            if game.is_over:
                assert counts[i] == 0 and to_move[i] == -1
                continue
            legal = game.legal_action_ids()
            assert list(ids[i, : counts[i]]) == legal, (i, game.seed, game.action_count)
            assert to_move[i] == game.to_move
            actions[i] = legal[-1] if rng.random() < 0.5 else legal[rng.randrange(len(legal))]
        hand_numbers = [g.hand_number for g in games]
        ended = batch.step(actions)
        points = batch.hand_points
        for i, game in enumerate(games):
            if actions[i] < 0:
                continue
            game.apply(int(actions[i]))
            tally.actions += 1
            assert ended[i] == (game.hand_number != hand_numbers[i])
            if ended[i]:
                tally.hands += 1
                assert tuple(points[i, :players]) == _last_hand_points(game)
                if not game.is_over:
                    batch.deal(i, [game.hand(s) for s in range(players)])
    scores = batch.scores
    winners = batch.winners
    assert batch.over.all()
    for i, game in enumerate(games):
        assert game.outcome is not None
        assert tuple(scores[i, :players]) == game.outcome.scores
        assert tuple(np.flatnonzero(winners[i])) == game.outcome.winners
        assert batch.hand_number[i] == game.outcome.hands_played
        tally.games += 1

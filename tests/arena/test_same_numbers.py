"""The game-neutral arena and evaluation play Odin exactly as Odin's own arena did: the same
seeds give the same games (figures taken from the arena before it asked the registry)."""

from __future__ import annotations

import pytest

from odin_cards.tools.arena import bot_stats, make_entrants, run_arena
from odin_cards.tools.evaluation import evaluate, load_set


def test_an_odin_arena_run_gives_the_figures_it_gave_before() -> None:
    entrants = make_entrants(["heuristic", "random", "search:iterations=20"], "odin")
    run = run_arena(entrants, games=6, players=3, seed=3, setup={"target": 8}, workers=1)
    assert [[list(r.scores), list(r.winners), r.hands] for r in run.results] == [
        [[0, 10, 7], [0], 2],
        [[8, 2, 4], [1], 2],
        [[5, 5, 14], [0, 1], 2],
        [[4, 8, 0], [2], 1],
        [[13, 3, 2], [2], 2],
        [[6, 4, 11], [1], 2],
    ]
    figures = [(s.wins, s.points, s.hands, s.mu, s.sigma) for s in bot_stats(run)]
    expected = [
        (3.5, 19, 11, 32.631651186, 7.324690359),
        (0.0, 64, 11, 12.691459833, 7.240172269),
        (2.5, 23, 11, 29.74039699, 7.240321895),
    ]
    for got, want in zip(figures, expected, strict=True):
        assert got[:3] == want[:3]
        assert got[3:] == pytest.approx(want[3:], abs=1e-8)


def test_an_odin_evaluation_gives_the_figures_it_gave_before() -> None:
    evaluation = evaluate("heuristic", ["random"], load_set(), [2, 3], 3, {"target": 10}, 1)
    assert [
        [p.players, p.agent.wins, p.agent.points, p.opponent.points, p.agent.hands]
        for p in evaluation.pairings
    ] == [[2, 6.0, 0, 69, 16], [3, 9.0, 6, 191, 23]]

"""The arena engine: entrants, the rotation schedule, determinism, statistics, JSON and PNG."""

from __future__ import annotations

import json
import pickle
import random
import re
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from odin_cards.odin.bots import Bot, Level, added_level
from odin_cards.odin.bots import Budget as OdinBudget
from odin_cards.odin.rules import Action, GameRecord, View
from odin_cards.tools.arena import (
    ArenaError,
    BotFailure,
    Budget,
    GameResult,
    bot_stats,
    lineups,
    make_entrants,
    parse_entrant,
    plot_stats,
    ratings,
    run_arena,
    run_dict,
    schedule,
    victory_shares,
    wilson_interval,
    write_json,
)

FAST = {"target": 6}
"""Short games keep the tiny runs fast."""


class LowestBot(Bot):
    """Test-only level: always the first legal action (the lowest set, or pass last)."""

    level = "lowest"

    def choose(
        self, view: View, legal: Sequence[Action], budget: OdinBudget, rng: random.Random
    ) -> Action:
        return min(legal, key=lambda a: (a.is_pass, a.id))


@pytest.fixture
def lowest_level() -> Iterator[str]:
    with added_level(Level("lowest", LowestBot, OdinBudget(iterations=7)), "Lowest", "test"):
        yield "lowest"


def test_entrant_specs_parse_levels_and_budget_overrides(lowest_level: str) -> None:
    assert parse_entrant("random") == ("random", Budget())
    assert parse_entrant("search") == ("search", Budget(seconds=0.5))  # the plugin's seconds
    assert parse_entrant(" Lowest ") == ("lowest", Budget())  # its own: Odin's, 7 iterations
    assert parse_entrant("lowest:seconds=0.2") == ("lowest", Budget(seconds=0.2))
    assert parse_entrant("lowest:iterations=200,seconds=1") == (
        "lowest",
        Budget(seconds=1.0, iterations=200),
    )
    entrants = make_entrants(["lowest", "lowest", "lowest:iterations=3", "random"])
    assert [e.label for e in entrants] == [
        "lowest",
        "lowest#2",
        "lowest:iterations=3",
        "random",
    ]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nope", "unknown bot level 'nope'; levels: random"),
        ("random:", "write a budget after ':'"),
        ("random:iterations=0", "iterations must be a positive whole number"),
        ("random:iterations=2.5", "iterations must be a positive whole number"),
        ("random:seconds=-1", "seconds must be a positive number"),
        ("random:seconds=inf", "seconds must be a positive number"),
        ("random:depth=3", "unknown budget 'depth'"),
        ("random:iterations", "budget overrides are name=value"),
    ],
)
def test_bad_entrant_specs_are_explained(spec: str, message: str) -> None:
    with pytest.raises(ArenaError, match=re.escape(message)):
        parse_entrant(spec)


def test_an_arena_needs_two_bots_that_fit_the_table() -> None:
    with pytest.raises(ArenaError, match="at least two bots"):
        make_entrants(["random"])
    with pytest.raises(ArenaError, match="3 bots do not fit at 2 seats"):
        lineups(3, 2)
    with pytest.raises(ArenaError, match="at least 1"):
        schedule(2, 2, 0, 1)


@pytest.mark.parametrize(("entrants", "players"), [(2, 2), (3, 3), (4, 4), (2, 4), (3, 4), (2, 5)])
def test_rotations_seat_every_entrant_at_every_seat_equally(entrants: int, players: int) -> None:
    rotations = lineups(entrants, players)
    assert len(rotations) == entrants
    for seat in range(players):
        assert sorted(lineup[seat] for lineup in rotations) == list(range(entrants))
    for lineup in rotations:
        assert set(lineup) == set(range(entrants))  # every entrant plays every game
    assert lineups(2, 2) == [(0, 1), (1, 0)]


def test_schedule_replays_each_deal_set_in_every_rotation() -> None:
    matches = schedule(3, 3, 7, seed=5)
    assert len(matches) == 9  # 7 games rounded up to 3 deal sets x 3 rotations
    for deal in range(3):
        same = [m for m in matches if m.deal == deal]
        assert len({m.seed for m in same}) == 1
        assert [m.lineup for m in same] == lineups(3, 3)
    assert len({m.seed for m in matches}) == 3
    assert schedule(2, 2, 4, seed=1)[0].seed != schedule(2, 2, 4, seed=2)[0].seed


def _comparable(result: GameResult) -> GameResult:
    return replace(result, decision_seconds=tuple(() for _ in result.decision_seconds))


def test_tiny_run_rotates_seats_over_identical_deals() -> None:
    entrants = make_entrants(["random", "random"])
    run = run_arena(entrants, games=4, seed=3, setup=FAST, workers=1, keep_records=True)
    assert len(run.results) == 4 and run.deals == 2 and run.rotations == 2
    for deal in range(2):
        first, second = (r for r in run.results if r.deal == deal)
        assert first.lineup == (0, 1) and second.lineup == (1, 0)
        assert first.record is not None and second.record is not None
        records = [r.record or {} for r in (first, second)]
        deals = [[e for e in rec["events"] if "deal" in e] for rec in records]
        # The first hand is dealt identically whoever sits where; later hands too
        # (as far as both games went).
        assert deals[0][0] == deals[1][0]
        shared = min(len(deals[0]), len(deals[1]))
        assert deals[0][:shared] == deals[1][:shared]
        assert records[0]["events"] != records[1]["events"]  # different bots, different play
        for record, result in zip(records, (first, second), strict=True):
            replayed = GameRecord.from_dict(record).replay()
            assert replayed.outcome is not None
            assert replayed.outcome.scores == result.scores


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    entrants = make_entrants(["random", "random", "random"])
    one = run_arena(entrants, games=3, players=3, seed=11, setup=FAST, workers=1)
    two = run_arena(entrants, games=3, players=3, seed=11, setup=FAST, workers=2)
    assert [_comparable(r) for r in one.results] == [_comparable(r) for r in two.results]
    assert [(s.wins, s.points, s.mu, s.sigma) for s in bot_stats(one)] == [
        (s.wins, s.points, s.mu, s.sigma) for s in bot_stats(two)
    ]


def test_statistics_add_up(lowest_level: str) -> None:
    entrants = make_entrants(["lowest", "random", "random"])
    run = run_arena(entrants, games=6, players=4, seed=2, setup=FAST, workers=1)
    stats = bot_stats(run)
    assert sum(s.win_share for s in stats) == pytest.approx(1.0)
    assert sum(s.fair_share for s in stats) == pytest.approx(1.0)
    # Recompute every figure from the games themselves.
    for index, s in enumerate(stats):
        seats = [(r, seat) for r in run.results for seat, e in enumerate(r.lineup) if e == index]
        assert s.seats == len(seats) == 8  # 4 seats x 6 games / 3 entrants
        assert s.games == 6
        assert s.points == sum(r.scores[seat] for r, seat in seats)
        assert s.hands == sum(r.hands or 0 for r, _ in seats)
        assert s.wins == pytest.approx(sum(victory_shares(r)[seat] for r, seat in seats))
        assert s.ci_low <= s.win_share <= s.ci_high
        assert s.decisions == sum(len(r.decision_seconds[seat]) for r, seat in seats) > 0


def test_victory_is_shared_by_tied_winners() -> None:
    result = GameResult(0, 0, "s", (0, 1, 2), (3, 16, 3), (0, 2), 2, ((), (), ()))
    assert victory_shares(result) == [0.5, 0.0, 0.5]


def test_wilson_interval() -> None:
    low, high = wilson_interval(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson_interval(20, 20)
    assert high == 1.0 and 0.83 < low < 0.84
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_ratings_follow_final_points_and_honour_ties() -> None:
    def game(scores: tuple[int, int], lineup: tuple[int, int]) -> GameResult:
        best = min(scores)
        winners = tuple(s for s, p in enumerate(scores) if p == best)
        return GameResult(0, 0, "s", lineup, scores, winners, 1, ((), ()))

    winner_first = [game((2, 15), (0, 1)), game((15, 2), (1, 0))] * 5
    (mu0, _), (mu1, _) = ratings(2, winner_first)
    assert mu0 > mu1
    (mu0, s0), (mu1, s1) = ratings(2, [game((7, 7), (0, 1))] * 4)
    assert mu0 == pytest.approx(mu1) and s0 == pytest.approx(s1)


def test_json_and_png_are_written(tmp_path: Path) -> None:
    entrants = make_entrants(["random", "random"])
    run = run_arena(entrants, games=2, seed=1, setup=FAST, workers=1)
    stats = bot_stats(run)
    write_json(run, tmp_path / "arena.json", stats)
    data = json.loads((tmp_path / "arena.json").read_text())
    assert data == json.loads(json.dumps(run_dict(run, stats)))
    assert data["format"] == "odin-cards-arena/1"
    assert [b["label"] for b in data["bots"]] == ["random", "random#2"]
    assert sum(b["win_share"] for b in data["bots"]) == pytest.approx(1.0)
    assert len(data["game_results"]) == 2
    assert data["game_results"][1]["seats"] == ["random#2", "random"]
    plot_stats(stats, tmp_path / "arena.png", "test")
    png = (tmp_path / "arena.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and b"IEND" in png[-16:]


def test_levels_registered_at_run_time_reach_the_workers(lowest_level: str) -> None:
    """Forked workers inherit a level added at run time. With another thread running the
    arena's workers start fresh (documented), so then the test runs itself again in a
    fresh interpreter, where it is the only thread: it is never skipped."""
    if threading.active_count() > 1:
        test = f"{__file__}::test_levels_registered_at_run_time_reach_the_workers"
        alone = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0"]
        done = subprocess.run([*alone, test], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr
        return
    entrants = make_entrants([lowest_level, "random"])
    one = run_arena(entrants, games=4, seed=8, setup=FAST, workers=1)
    two = run_arena(entrants, games=4, seed=8, setup=FAST, workers=2)
    assert [_comparable(r) for r in one.results] == [_comparable(r) for r in two.results]


class BrokenBot(Bot):
    level = "broken"

    def choose(
        self, view: View, legal: Sequence[Action], budget: OdinBudget, rng: random.Random
    ) -> Action:
        raise RuntimeError("out of ideas")


def test_a_failing_bot_is_reported_with_its_game() -> None:
    with (
        added_level(Level("broken", BrokenBot), "Broken"),
        pytest.raises(
            BotFailure, match=r"broken at seat \d failed in deal 0, rotation 0 .*: out of ideas"
        ),
    ):
        run_arena(make_entrants(["broken", "random"]), games=2, setup=FAST, workers=1)
    failure = BotFailure("broken at seat 1 failed")
    assert str(pickle.loads(pickle.dumps(failure))) == str(failure)  # crosses processes

"""The ladder: the sequential test, rungs that stop when the answer is clear, ratings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from odin_cards.cli import app
from odin_cards.tools.arena import ArenaError, Sprt, ladder_ratings, make_entrants, run_ladder
from odin_cards.tools.arena.ladder import Rung, elo


def test_sprt_decides_only_past_its_bounds() -> None:
    test = Sprt(delta=0.1)
    assert test.verdict(4, 8) == "undecided"
    assert test.verdict(8, 8) == "stronger"
    assert test.verdict(0, 8) == "weaker"
    assert test.verdict(50, 100) == "undecided"
    assert test.verdict(60, 100) == "stronger"
    assert test.llr(3.5, 7) == 0  # ties count half a win
    with pytest.raises(ArenaError):
        Sprt(delta=0.6)


def test_a_clear_difference_stops_the_rung_early() -> None:
    entrants = make_entrants(["random", "heuristic"])
    rungs = run_ladder(entrants, {"one_hand": True}, Sprt(), max_games=200)
    assert len(rungs) == 1
    rung = rungs[0]
    assert (rung.upper, rung.lower, rung.verdict) == ("heuristic", "random", "stronger")
    assert rung.games <= 20 and rung.games % 2 == 0  # whole deal sets, far below 200
    assert len(rung.decision_seconds[0]) > 0


def test_equal_levels_stay_undecided_until_the_limit() -> None:
    entrants = make_entrants(["heuristic", "heuristic"])
    rung = run_ladder(entrants, {"one_hand": True}, Sprt(), max_games=10)[0]
    assert rung.verdict == "undecided" and rung.games == 10


def test_ratings_add_up_the_rungs() -> None:
    rungs = [
        Rung("b", "a", 100, 75.0, "stronger", 0.0, ((), ())),
        Rung("c", "b", 100, 50.0, "undecided", 0.0, ((), ())),
    ]
    ratings = ladder_ratings(rungs)
    assert [r.label for r in ratings] == ["a", "b", "c"]
    assert ratings[0].rating == 0
    assert ratings[1].rating == pytest.approx(elo(0.75, 100)) == pytest.approx(190.8, abs=0.1)
    assert ratings[2].rating == pytest.approx(ratings[1].rating)
    assert ratings[2].high - ratings[2].low > ratings[1].high - ratings[1].low > 0
    assert elo(1.0, 8) == pytest.approx(elo(15 / 16, 1000))  # half a game from the edge


def test_cli_ladder_writes_rungs_and_ratings(tmp_path: Path) -> None:
    out = tmp_path / "ladder.json"
    result = CliRunner().invoke(
        app,
        ["arena", "--ladder", "random", "heuristic", "--one-hand", "-n", "40", "--json", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert "heuristic vs random: stronger" in result.output
    data = json.loads(out.read_text())
    assert data["format"] == "odin-cards-ladder/1"
    assert data["rungs"][0]["verdict"] == "stronger"
    assert [r["level"] for r in data["ratings"]] == ["random", "heuristic"]


def test_cli_ladder_refuses_more_seats() -> None:
    result = CliRunner().invoke(app, ["arena", "--ladder", "random", "heuristic", "-p", "4"])
    assert result.exit_code != 0
    assert "heads-up" in result.output

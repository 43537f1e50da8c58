"""Ctrl-C during ``simulate`` or ``arena`` keeps what was finished: the figures of the games
played (for the arena, of the deal sets played in every rotation), and exit status 130."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from typer.testing import CliRunner

import odin_cards.tools.arena
import odin_cards.tools.simulate
from odin_cards.cli import app
from odin_cards.contract import GameRules, GameState
from odin_cards.tools.arena import GameResult

runner = CliRunner()


def test_simulate_interrupted_prints_the_games_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    real = odin_cards.tools.simulate.simulate

    def three_then_ctrl_c(
        rules: GameRules,
        players: int,
        setup: Mapping[str, Any],
        games: int,
        seed: int,
        progress: Callable[[GameState], None] | None = None,
        level: str | None = None,
    ) -> Any:
        real(rules, players, setup, 3, seed, progress, level)
        raise KeyboardInterrupt

    monkeypatch.setattr(odin_cards.tools.simulate, "simulate", three_then_ctrl_c)
    result = runner.invoke(app, ["simulate", "--games", "100", "--json", "-"])
    assert result.exit_code == 130, result.output
    data = json.loads(result.stdout)
    assert data["complete"] is False and data["games"] == 3
    table = runner.invoke(app, ["simulate", "--games", "100"])
    assert table.exit_code == 130
    assert "interrupted: 3 of 100 games played" in table.output
    assert "3 random games of odin, 4 players" in table.output


def test_arena_interrupted_reports_the_whole_deal_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    real = odin_cards.tools.arena.run_arena

    def three_games_then_ctrl_c(
        entrants: Any,
        games: int,
        players: int,
        seed: int,
        setup: Mapping[str, Any],
        workers: int,
        on_game: Callable[[GameResult], None],
        keep_records: bool,
    ) -> Any:
        run = real(entrants, 4, players, seed, setup, 1, None, keep_records)
        for result in run.results[:3]:  # deal 0 in both seat orders, deal 1 in one
            on_game(result)
        raise KeyboardInterrupt

    monkeypatch.setattr(odin_cards.tools.arena, "run_arena", three_games_then_ctrl_c)
    result = runner.invoke(
        app, ["arena", "random", "random", "--games", "10", "--workers", "1", "--json", "-"]
    )
    assert result.exit_code == 130, result.output
    data = json.loads(result.stdout)
    assert data["complete"] is False
    assert data["games"] == 2 and data["deals"] == 1
    assert [(g["deal"], g["rotation"]) for g in data["game_results"]] == [(0, 0), (0, 1)]
    assert "interrupted: results of the 1 deal set played in every rotation (2 games)" in (
        " ".join(result.output.split())
    )

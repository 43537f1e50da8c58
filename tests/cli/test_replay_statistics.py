"""``odin replay`` ends a finished game of Odin with its statistics (#9)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from odin_cards.cli import app
from odin_cards.odin.rules import Game, Options

runner = CliRunner()


def write_game(path: Path, moves: int | None = None) -> Game:
    game = Game.new(3, Options(target=10), 4)
    chooser = random.Random(4)
    while not game.is_over and (moves is None or game.action_count < moves):
        game.apply(chooser.choice(game.legal_actions()))
    path.write_text(game.record().to_json())
    return game


def test_replay_prints_the_statistics_of_a_finished_game(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    game = write_game(record)
    figures = json.loads(record.read_text())["statistics"]
    result = runner.invoke(app, ["replay", str(record)], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    output = result.output
    assert (
        f"{figures['hands']} hands, {figures['rounds']} rounds, {figures['passes']} passes,"
        f" {figures['cards_played']} cards played; highest set "
        + " ".join(figures["highest_set"]["cards"])
    ) in output
    lines = output.splitlines()
    taken = next(line for line in lines if "cards taken" in line)
    assert [int(n) for n in taken.split("│")[2:-1]] == [s["cards_taken"] for s in figures["seats"]]
    last = next(line for line in lines if f"after hand {figures['hands']} " in line)
    assert game.outcome is not None
    assert [int(cell.split()[0]) for cell in last.split("│")[2:-1]] == list(game.outcome.scores)


def test_replay_of_an_unfinished_game_prints_none(tmp_path: Path) -> None:
    record = tmp_path / "running.json"
    write_game(record, moves=30)
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 0, result.output
    assert "record ends before the game does" in result.output
    assert "statistics" not in result.output and "rounds won" not in result.output
